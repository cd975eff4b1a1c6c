import { closeSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, basename, join } from 'node:path';

/** Writes a file so that readers see either the old file or the complete new one, never a part. */
export function writeFileAtomic(path: string, content: string): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true });
  const temp = join(dir, `.${basename(path)}.${process.pid}.tmp`);
  try {
    writeFileSync(temp, content);
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/**
 * Streams a file into place: chunks go to a temporary file beside the target, which is renamed over it
 * on commit and removed on abort. Memory stays at one chunk however large the output.
 */
export class AtomicFileWriter {
  private readonly temp: string;
  private fd: number | null;
  constructor(private readonly path: string) {
    mkdirSync(dirname(path), { recursive: true });
    this.temp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
    this.fd = openSync(this.temp, 'w');
  }
  write(chunk: string): void {
    if (this.fd === null) throw new Error('write after commit or abort');
    writeSync(this.fd, chunk);
  }
  commit(): void {
    if (this.fd === null) return;
    closeSync(this.fd);
    this.fd = null;
    renameSync(this.temp, this.path);
  }
  abort(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    rmSync(this.temp, { force: true });
  }
}

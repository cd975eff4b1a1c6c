/**
 * Writing one output file, streamed: chunks go to a temporary `.<name>.<pid>.tmp` beside the file
 * (beside a symbolic link's target, never the link), which is renamed over it on commit and removed on
 * abort, on SIGINT / SIGTERM / SIGHUP (src/io/temporaries.ts), or, when a process was killed outright,
 * by the next run that writes the same file. A device or a pipe (`--out /dev/stdout`, `--out -`, a named
 * pipe) is written straight into instead: there is nothing to rename. A name ending in `.gz` is written gzip:
 * one gzip member per MiB of text (and at each mark), which every gzip reader reads as one stream.
 * Memory stays at one chunk however large the output.
 */
import { closeSync, ftruncateSync, openSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { nodeZlib } from './builtins.js';
import { makeDirectories } from './makeDirectories.js';
import { checkOutputFile, isGzipName, outputError } from './outputTarget.js';
import { releaseTemporary, trackTemporary } from './temporaries.js';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function temporaryFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes `.<name>.<pid>.tmp` beside `path` left by loopcost processes that no longer run. */
export function removeStaleTemporaries(path: string): void {
  let entries: string[];
  try {
    entries = readdirSync(dirname(path));
  } catch {
    return;
  }
  const pattern = new RegExp(`^\\.${escapeRegExp(basename(path))}\\.(\\d+)\\.tmp$`);
  for (const entry of entries) {
    const pid = Number(pattern.exec(entry)?.[1]);
    if (!Number.isInteger(pid) || pid === process.pid || isAlive(pid)) continue;
    rmSync(join(dirname(path), entry), { force: true, recursive: true });
  }
}

export function makeDirectory(dir: string, path: string, flag: string): void {
  try {
    makeDirectories(dir);
  } catch (error) {
    throw outputError(path, error, flag);
  }
}

/** Text held for one gzip member: large enough that compression loses nothing to member starts. */
const GZIP_MEMBER_CHARS = 1 << 20;

const pause = new Int32Array(new SharedArrayBuffer(4));

/** Writes what it can of `bytes[done..]`; 0 when a non-blocking descriptor (a shared stdout can be one) is full: tried again a millisecond later. */
function writeSome(fd: number, bytes: Buffer, done: number, position: number | null): number {
  try {
    return writeSync(fd, bytes, done, bytes.length - done, position === null ? null : position + done);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
    Atomics.wait(pause, 0, 0, 1);
    return 0;
  }
}

/** All of `data` into `fd`, at `position` (a file) or where the device or pipe is (null); returns the bytes written. */
function writeAll(fd: number, data: string | Buffer, position: number | null): number {
  let done = 0;
  if (typeof data === 'string' && position !== null) {
    // The string as it is (no Buffer of it per write); a short write (a disk filling up takes what fits
    // and says so only on the next write) goes on from where it stopped, so ENOSPC is thrown, not lost.
    done = writeSync(fd, data, position, 'utf8');
    if (done === Buffer.byteLength(data, 'utf8')) return done;
  }
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  while (done < bytes.length) done += writeSome(fd, bytes, done, position);
  return bytes.length;
}

/**
 * One output, written as it comes: replaced only on commit (`atomic`), or, for a device or a pipe,
 * written straight into (not `atomic`: what was written stays, and there is no rolling back).
 */
export class OutputWriter {
  /** False for a device or a pipe: written into as it comes, nothing replaced, no rollback. */
  readonly atomic: boolean;
  private readonly temp: string | undefined;
  private readonly target: string;
  private readonly gzip: boolean;
  private fd: number | null;
  /** False for a descriptor of the process's own (`/dev/stdout`, `-`): written into, never closed. */
  private readonly ownsFd: boolean;
  private position = 0;
  /** gzip: text not yet compressed into a member. */
  private pending = '';
  private members = 0;

  constructor(
    private readonly path: string,
    private readonly flag = '--out',
  ) {
    const target = checkOutputFile(path, flag);
    this.atomic = !target.direct;
    this.target = target.file;
    this.gzip = isGzipName(path);
    this.ownsFd = target.fd === undefined;
    if (!this.atomic) {
      this.temp = undefined;
      this.fd = target.fd ?? this.open(path, 'a');
      return;
    }
    makeDirectory(dirname(this.target), path, flag);
    removeStaleTemporaries(this.target);
    this.temp = trackTemporary(temporaryFor(this.target));
    try {
      this.fd = this.open(this.temp, 'w');
    } catch (error) {
      releaseTemporary(this.temp);
      throw error;
    }
  }

  private open(file: string, mode: string): number {
    try {
      return openSync(file, mode);
    } catch (error) {
      throw outputError(this.path, error, this.flag);
    }
  }

  /** Bytes written so far (a mark to roll back to; gzip: held text is compressed first, so a mark ends a member). */
  get bytesWritten(): number {
    this.flushPending();
    return this.position;
  }

  write(chunk: string): void {
    if (this.fd === null) throw new Error('write after commit or abort');
    if (!this.gzip) return this.writeOut(chunk);
    this.pending += chunk;
    if (this.pending.length >= GZIP_MEMBER_CHARS) this.flushPending();
  }

  private flushPending(): void {
    if (!this.gzip || this.fd === null || this.pending === '') return;
    const member = nodeZlib().gzipSync(this.pending);
    this.pending = '';
    this.members += 1;
    this.writeOut(member);
  }

  private writeOut(data: string | Buffer): void {
    try {
      // The string as it is (no Buffer of it per write: garbage a long import's peak memory hovers at).
      this.position += writeAll(this.fd!, data, this.atomic ? this.position : null);
    } catch (error) {
      this.abort();
      throw outputError(this.path, error, this.flag);
    }
  }

  /** Drops what was written after `mark` (a `bytesWritten` taken earlier); only an `atomic` output can. */
  rollback(mark: number): void {
    if (!this.atomic) throw new Error('rollback of an output written straight into a device or a pipe');
    this.pending = '';
    if (this.fd === null || mark >= this.position) return;
    ftruncateSync(this.fd, mark);
    this.position = mark;
  }

  commit(): void {
    if (this.fd === null) return;
    this.flushPending();
    // An empty gzip output is still gzip: one empty member.
    if (this.gzip && this.members === 0) this.writeOut(nodeZlib().gzipSync(''));
    if (this.fd === null) return;
    if (this.ownsFd) closeSync(this.fd);
    this.fd = null;
    if (this.temp === undefined) return;
    try {
      renameSync(this.temp, this.target);
    } catch (error) {
      rmSync(this.temp, { force: true });
      throw outputError(this.path, error, this.flag);
    } finally {
      releaseTemporary(this.temp);
    }
  }

  abort(): void {
    if (this.fd !== null && this.ownsFd) closeSync(this.fd);
    this.fd = null;
    if (this.temp === undefined) return;
    rmSync(this.temp, { force: true });
    releaseTemporary(this.temp);
  }
}

/**
 * Writing outputs so that a reader sees the old file or the complete new one, never a part: each output
 * is written to a temporary `.<name>.<pid>.tmp` beside its target and renamed over it; a set of outputs
 * (a report directory) is written whole into a temporary directory first. Temporaries are removed on
 * failure, on SIGINT / SIGTERM / SIGHUP, and, when a process was killed outright, by the next run that
 * writes the same target. A target that cannot be written is a UserError naming its path.
 */
import {
  closeSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  type Stats,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { UserError } from '../errors.js';
import { makeDirectories } from './makeDirectories.js';
import { releaseTemporary, trackTemporary } from './temporaries.js';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function temporaryFor(path: string): string {
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

/** A file-system error on an output path as a UserError naming the path and the flag that gave it. */
export function outputError(path: string, error: unknown, flag = '--out'): UserError {
  const code = (error as NodeJS.ErrnoException).code;
  const reasons: Record<string, string> = {
    EISDIR: 'is a directory',
    EACCES: 'cannot be written: permission denied',
    EPERM: 'cannot be written: permission denied',
    ENOTDIR: 'cannot be written: a part of the path is not a directory',
    EEXIST: 'cannot be written: a part of the path is a file',
    EROFS: 'cannot be written: read-only file system',
    ENOSPC: 'cannot be written: no space left on the device',
    ENOENT: 'cannot be created there',
  };
  return new UserError({
    file: path,
    field: flag,
    code: 'cannot_write',
    message: (code !== undefined ? reasons[code] : undefined) ?? `cannot be written (${code ?? (error as Error).message})`,
    hint: `choose another ${flag} path`,
  });
}

/** The path's stats, undefined when nothing is there; any other failure is the output's error. */
function probe(path: string, output: string, flag: string): Stats | undefined {
  try {
    return statSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw outputError(output, error, flag);
  }
}

/**
 * Refuses, before any work is done, an output path that cannot be a file: an existing directory, or a
 * path under an existing file. (Permissions are found when writing, and reported the same way.)
 */
export function checkOutputFile(path: string, flag = '--out'): void {
  if (path === '') throw new UserError({ field: flag, code: 'bad_value', message: 'is empty', hint: `give ${flag} a file path` });
  const stats = probe(path, path, flag);
  if (stats?.isDirectory()) throw outputError(path, Object.assign(new Error(), { code: 'EISDIR' }), flag);
  // A device or a pipe would be replaced by the renamed file: never write over one.
  if (stats !== undefined && !stats.isFile()) {
    throw new UserError({ file: path, field: flag, code: 'cannot_write', message: 'is not a regular file (a device, a pipe or a socket)', hint: `choose another ${flag} path` });
  }
  checkAncestors(dirname(path), path, flag);
}

/** Refuses a report directory that is a file, or that holds a directory where a report goes. */
export function checkOutputDirectory(dir: string, names: readonly string[], flag = '--report-dir'): void {
  if (dir === '') throw new UserError({ field: flag, code: 'bad_value', message: 'is empty', hint: `give ${flag} a directory path` });
  const stats = probe(dir, dir, flag);
  if (stats !== undefined && !stats.isDirectory()) {
    throw new UserError({ file: dir, field: flag, code: 'cannot_write', message: 'is a file, not a directory', hint: `choose another ${flag} path` });
  }
  if (stats === undefined) checkAncestors(dirname(dir), dir, flag);
  for (const name of names) {
    if (stats !== undefined && probe(join(dir, name), join(dir, name), flag)?.isDirectory()) throw outputError(join(dir, name), Object.assign(new Error(), { code: 'EISDIR' }), flag);
  }
}

/** The nearest existing ancestor of an output must be a directory. */
function checkAncestors(dir: string, path: string, flag: string): void {
  for (let current = dir; ; current = dirname(current)) {
    const stats = probe(current, path, flag);
    if (stats !== undefined) {
      if (!stats.isDirectory()) throw outputError(path, Object.assign(new Error(), { code: 'ENOTDIR' }), flag);
      return;
    }
    if (dirname(current) === current) return;
  }
}

function makeDirectory(dir: string, path: string, flag: string): void {
  try {
    makeDirectories(dir);
  } catch (error) {
    throw outputError(path, error, flag);
  }
}

/**
 * Writes a file so that readers see either the old file or the complete new one, never a part. `content`
 * may come in pieces (a report rendered run by run is never held whole); an error while making them
 * leaves no file and is thrown as it is.
 */
export function writeFileAtomic(path: string, content: string | Iterable<string>, flag = '--out'): void {
  makeDirectory(dirname(path), path, flag);
  removeStaleTemporaries(path);
  const temp = trackTemporary(temporaryFor(path));
  try {
    if (typeof content === 'string') writeFileSync(temp, content);
    else writePieces(temp, content);
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    if (error instanceof PieceError) throw error.cause;
    throw outputError(path, error, flag);
  } finally {
    releaseTemporary(temp);
  }
}

/** An error thrown while making the pieces (not while writing them). */
class PieceError extends Error {}

const PIECES_BUFFER_CHARS = 1 << 20;

function writePieces(temp: string, pieces: Iterable<string>): void {
  const fd = openSync(temp, 'w');
  try {
    let pending = '';
    const iterator = pieces[Symbol.iterator]();
    for (;;) {
      let next: IteratorResult<string>;
      try {
        next = iterator.next();
      } catch (error) {
        throw new PieceError('piece', { cause: error });
      }
      if (next.done === true) break;
      pending += next.value;
      if (pending.length >= PIECES_BUFFER_CHARS) {
        writeSync(fd, pending);
        pending = '';
      }
    }
    writeSync(fd, pending);
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes a set of files into `dir` as one: all are written into a temporary directory inside it, then
 * renamed into place, so a failure while writing leaves the old set untouched.
 */
export function writeFilesAtomic(dir: string, files: readonly (readonly [name: string, content: string])[], flag = '--report-dir'): void {
  checkOutputDirectory(dir, files.map(([name]) => name), flag);
  makeDirectory(dir, dir, flag);
  const setPath = join(dir, '.loopcost-reports');
  removeStaleTemporaries(setPath);
  const temp = trackTemporary(temporaryFor(setPath));
  try {
    try {
      mkdirSync(temp);
      for (const [name, content] of files) writeFileSync(join(temp, name), content);
    } catch (error) {
      throw outputError(dir, error, flag);
    }
    for (const [name] of files) {
      try {
        renameSync(join(temp, name), join(dir, name));
      } catch (error) {
        throw outputError(join(dir, name), error, flag);
      }
    }
  } finally {
    rmSync(temp, { force: true, recursive: true });
    releaseTemporary(temp);
  }
}

/**
 * Streams a file into place: chunks go to a temporary file beside the target, which is renamed over it
 * on commit and removed on abort. Memory stays at one chunk however large the output.
 */
export class AtomicFileWriter {
  private readonly temp: string;
  private fd: number | null;
  private position = 0;

  constructor(
    private readonly path: string,
    private readonly flag = '--out',
  ) {
    checkOutputFile(path, flag);
    makeDirectory(dirname(path), path, flag);
    removeStaleTemporaries(path);
    this.temp = trackTemporary(temporaryFor(path));
    try {
      this.fd = openSync(this.temp, 'w');
    } catch (error) {
      releaseTemporary(this.temp);
      throw outputError(path, error, flag);
    }
  }

  /** Bytes written so far (a mark to roll back to). */
  get bytesWritten(): number {
    return this.position;
  }

  write(chunk: string): void {
    if (this.fd === null) throw new Error('write after commit or abort');
    try {
      // The string as it is (no Buffer of it per write: garbage a long import's peak memory hovers at).
      this.position += writeSync(this.fd, chunk, this.position, 'utf8');
    } catch (error) {
      this.abort();
      throw outputError(this.path, error, this.flag);
    }
  }

  /** Drops what was written after `mark` (a `bytesWritten` taken earlier). */
  rollback(mark: number): void {
    if (this.fd === null || mark >= this.position) return;
    ftruncateSync(this.fd, mark);
    this.position = mark;
  }

  commit(): void {
    if (this.fd === null) return;
    closeSync(this.fd);
    this.fd = null;
    try {
      renameSync(this.temp, this.path);
    } catch (error) {
      rmSync(this.temp, { force: true });
      throw outputError(this.path, error, this.flag);
    } finally {
      releaseTemporary(this.temp);
    }
  }

  abort(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    rmSync(this.temp, { force: true });
    releaseTemporary(this.temp);
  }
}

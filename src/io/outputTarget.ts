/**
 * What an output path names, before anything is written: the file a write goes to (a symbolic link is
 * followed to its target, which is replaced, never the link), or a device or a pipe that is written
 * straight into (`--out /dev/stdout`, a named pipe). Paths that cannot be an output are UserErrors naming
 * the path and the flag that gave it: a directory, a path under a file, a socket, a directory that a path
 * ending in `/` names and that does not exist. A name ending in `.gz` is written gzip-compressed. `-` is
 * standard output, as most command-line tools read it (`./-` names a file called `-`).
 */
import { lstatSync, readlinkSync, realpathSync, statSync, type Stats } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { UserError } from '../errors.js';
import { danglingLinkHint, danglingLinkOn, danglingLinkWords } from './danglingLink.js';
import { errorCode, LINK_LOOP_HINT, writeProblem } from './fileErrorWords.js';

/** A file-system error on an output path as a UserError naming the path and the flag that gave it (its code in words: fileErrorWords.ts). */
export function outputError(path: string, error: unknown, flag = '--out'): UserError {
  const hint = errorCode(error) === 'ELOOP' ? `${LINK_LOOP_HINT}, or choose another ${flag} path` : `choose another ${flag} path`;
  return new UserError({ file: path, field: flag, code: 'cannot_write', message: writeProblem(error, 'written'), hint });
}

const errorCoded = (code: string): Error => Object.assign(new Error(code), { code });

/** The path's stats (through links), undefined when nothing is there; any other failure is the output's error. */
export function probe(path: string, output: string, flag: string): Stats | undefined {
  try {
    return statSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw outputError(output, error, flag);
  }
}

/** Where an output goes: `file` is written (through a temporary beside it), or, `direct`, `path` is opened and written into as it is. */
export interface OutputTarget {
  /** The file replaced: the path itself, or the end of the symbolic links it names. */
  file: string;
  /** A device or a pipe (not a regular file): written straight into, not replaced. */
  direct: boolean;
  /** An open file of this process (`/dev/stdout`: 1): written into through that descriptor, as the shell's redirection set it up. */
  fd?: number;
}

/** The output path that names standard output (`--out -`): written into, as `/dev/stdout` is. */
export const STDOUT_PATH = '-';

/** Standard output, the process's descriptor 1. */
const STDOUT: OutputTarget = { file: STDOUT_PATH, direct: true, fd: 1 };

/** A directory of a process's open files (/proc/self/fd, /dev/fd): its entries are the files themselves, not paths to replace. */
const OPEN_FILES_DIRECTORY = /^\/proc\/([^/]+)(\/task\/[^/]+)?\/fd$/;

/** A link in a directory of open files: this process's own descriptor (a socket too: it cannot be opened by path), or the file reopened. */
function openFile(path: string, dir: string, link: string): OutputTarget {
  const own = OPEN_FILES_DIRECTORY.exec(dir)?.[1] === String(process.pid) && /^\d+$/.test(basename(link));
  return own ? { file: path, direct: true, fd: Number(basename(link)) } : { file: path, direct: true };
}

const MAX_LINKS = 40;

/**
 * Follows `path`'s symbolic links one at a time to what they name. An open file of a process (`/dev/stdout`
 * → `/proc/self/fd/1`: the terminal, a pipe, a socket, or the file the shell redirected to) is written
 * into, not replaced; so is anything that is not a regular file. A link to nothing (dangling)
 * names the file to create. `-` is standard output.
 */
export function resolveOutputTarget(path: string, flag = '--out'): OutputTarget {
  if (path === STDOUT_PATH) return STDOUT;
  let current = path;
  for (let links = 0; links <= MAX_LINKS; links += 1) {
    let stats: Stats;
    let next: string;
    try {
      stats = lstatSync(current);
      if (!stats.isSymbolicLink()) return { file: current, direct: !stats.isFile() };
      const dir = realpathSync(dirname(current));
      if (OPEN_FILES_DIRECTORY.test(dir)) return openFile(path, dir, current);
      next = resolve(dir, readlinkSync(current));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { file: current, direct: false };
      throw outputError(path, error, flag);
    }
    current = next;
  }
  throw outputError(path, errorCoded('ELOOP'), flag);
}

/** An output named `*.gz` is written gzip-compressed (every reader of loopcost reads gzip). */
export function isGzipName(path: string): boolean {
  return /\.gz$/i.test(path);
}

/** Refuses a `.gz` name for an output whose reader reads plain text only (a price file: `--prices`). */
export function refuseGzipName(path: string | undefined, flag: string, why: string): void {
  if (path === undefined || !isGzipName(path)) return;
  throw new UserError({ file: path, field: flag, code: 'bad_value', message: `ends in .gz, but ${why}`, hint: `give ${flag} a name without .gz` });
}

/** `dir/` whose directory is not there: the name of the file to write in it is missing. */
function checkNamedDirectory(path: string, flag: string): void {
  const stats = probe(path, path, flag);
  if (stats?.isDirectory()) throw outputError(path, errorCoded('EISDIR'), flag);
  if (stats !== undefined) return;
  refuseDanglingLink(path, path, flag);
  throw new UserError({
    file: path,
    field: flag,
    code: 'cannot_write',
    message: 'ends in /, so it names a directory, and that directory does not exist',
    hint: `name the file to write in it, such as ${flag} ${path}report.json: loopcost creates the missing directories`,
  });
}

/**
 * Refuses, before any work is done, an output path that cannot be a file: an existing directory, a path
 * under an existing file, a socket, a path ending in `/`. A symbolic link is checked as the file it leads
 * to. (Permissions are found when writing, and reported the same way.) Returns where the output goes
 * (resolveOutputTarget), so that a writer does not follow the links again.
 */
export function checkOutputFile(path: string, flag = '--out'): OutputTarget {
  if (path === '') throw new UserError({ field: flag, code: 'bad_value', message: 'is empty', hint: `give ${flag} a file path` });
  if (path.length > 1 && path.endsWith('/')) checkNamedDirectory(path, flag);
  const target = resolveOutputTarget(path, flag);
  if (target.fd !== undefined) return target;
  const stats = probe(target.file, path, flag);
  if (stats?.isDirectory()) throw outputError(path, errorCoded('EISDIR'), flag);
  if (stats !== undefined && !stats.isFile() && !stats.isCharacterDevice() && !stats.isFIFO()) {
    throw new UserError({ file: path, field: flag, code: 'cannot_write', message: 'is neither a file, a pipe nor a terminal (a socket or a block device)', hint: `choose another ${flag} path` });
  }
  if (!target.direct) checkAncestors(dirname(target.file), path, flag);
  return target;
}

/** Refuses a report directory that is a file, `-` (standard output), or that holds a directory where a report goes. */
export function checkOutputDirectory(dir: string, names: readonly string[], flag = '--report-dir'): void {
  if (dir === '') throw new UserError({ field: flag, code: 'bad_value', message: 'is empty', hint: `give ${flag} a directory path` });
  if (dir === STDOUT_PATH) {
    const message = `'-' names standard output, which holds one output, not a directory of ${names.length} reports`;
    throw new UserError({ file: '<command line>', field: flag, code: 'bad_value', message, hint: `give ${flag} a directory path (./- if you mean a directory named '-'), or write one report to standard output with --out -` });
  }
  const stats = probe(dir, dir, flag);
  if (stats !== undefined && !stats.isDirectory()) {
    throw new UserError({ file: dir, field: flag, code: 'cannot_write', message: 'is a file, not a directory', hint: `choose another ${flag} path` });
  }
  if (stats === undefined) checkAncestors(dir, dir, flag);
  for (const name of names) {
    if (stats !== undefined && probe(join(dir, name), join(dir, name), flag)?.isDirectory()) throw outputError(join(dir, name), errorCoded('EISDIR'), flag);
  }
}

/** An output's directory (`dir`, or the nearest of its ancestors there) that is a symbolic link to nothing: no directory can be made at one (danglingLink.ts). */
function refuseDanglingLink(dir: string, path: string, flag: string): void {
  const dangling = danglingLinkOn(dir);
  if (dangling === undefined) return;
  throw new UserError({ file: path, field: flag, code: 'cannot_write', message: danglingLinkWords(dangling, path), hint: danglingLinkHint(`choose another ${flag} path`) });
}

/** The nearest existing ancestor of an output (or `dir` itself) must be a directory, and no link to nothing (refuseDanglingLink). */
function checkAncestors(dir: string, path: string, flag: string): void {
  refuseDanglingLink(dir, path, flag);
  for (let current = dir; ; current = dirname(current)) {
    const stats = probe(current, path, flag);
    if (stats !== undefined) {
      if (!stats.isDirectory()) throw outputError(path, errorCoded('ENOTDIR'), flag);
      return;
    }
    if (dirname(current) === current) return;
  }
}

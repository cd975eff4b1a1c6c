/**
 * An input path as messages and checks see it, before anything is opened: how standard input is named,
 * which runs came from a file, what a path that is no regular file is, and its stats (src/io/openInput.ts
 * opens and reads inputs; these are re-exported there).
 */
import { statSync, type Stats } from 'node:fs';
import { unreadable } from './inputErrors.js';
import type { FileKind } from './walkEntries.js';

/** The path that means standard input. */
export const STDIN_PATH = '-';
/** How standard input is named in messages and run sources. */
export const STDIN_LABEL = '<stdin>';

/** Paths that name standard input itself, as `-` does (on Linux and macOS). */
const STDIN_NAMES: ReadonlySet<string> = new Set(['/dev/stdin', '/dev/fd/0', '/proc/self/fd/0']);

/** Whether `path` names standard input: `-`, or a path to it (`/dev/stdin`, `/dev/fd/0`, `/proc/self/fd/0`). One input, however named. */
export function namesStandardInput(path: string): boolean {
  return path === STDIN_PATH || STDIN_NAMES.has(path);
}

/** The name of an input in messages: the path as given, `<stdin>` for `-`. */
export function inputLabel(path: string): string {
  return path === STDIN_PATH ? STDIN_LABEL : path;
}

/**
 * Whether the run `source` names was read from `file` (its label: inputLabel): a run's source is its file's,
 * or the file's with `#` and the run after it (`runs.jsonl#3`, `session.jsonl#researcher#2`).
 */
export function runOfFile(source: string, file: string): boolean {
  return source === file || source.startsWith(`${file}#`);
}

/** What a path that is not a regular file is, for messages: `a directory`, `a character device (…)`. */
export function kindOf(stats: FileKind): string {
  return stats.isCharacterDevice()
    ? 'a character device (like /dev/zero or a terminal)'
    : stats.isBlockDevice()
      ? 'a block device'
      : stats.isSocket()
        ? 'a socket'
        : stats.isDirectory()
          ? 'a directory'
          : stats.isFIFO()
            ? 'a named pipe'
            : 'not a regular file';
}

/** Whether `stats` are /dev/null's: what an empty standard input is (`< /dev/null`), a device that sends nothing. */
export function isDevNull(stats: Stats): boolean {
  if (!stats.isCharacterDevice()) return false;
  const devNull = statOf('/dev/null');
  return devNull !== undefined && devNull.isCharacterDevice() && devNull.rdev === stats.rdev;
}

/** The stats of `path`, following links; undefined when it cannot be reached (whoever reads it says why). */
export function statOf(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/** The stats of an input path (a file, a directory: every reader's and collectInputs'); a path that cannot be reached is a UserError naming it (inputErrors.ts unreadable: `no such file or directory` when it is not there). */
export function statInput(path: string): Stats {
  try {
    return statSync(path);
  } catch (error) {
    throw unreadable(path, error);
  }
}

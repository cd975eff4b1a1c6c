import { readdirSync, realpathSync, statSync, type Stats } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type * as Tinyglobby from 'tinyglobby';
import { UserError } from '../errors.js';
import { unreadable } from './inputErrors.js';
import { STDIN_PATH } from './openInput.js';

const TRACE_FILE = /\.(jsonl|json|traj|yaml|yml)(\.gz)?$/i;
/** SWE-agent's run settings beside its `.traj`: read with the trace, not a trace itself. */
const SIDECAR = /\.args\.ya?ml$/i;

/** No glob syntax can be written without one of these; a path free of them is never a pattern. */
const GLOB_CHARACTER = /[*?[\]{}()!@+\\]/;

let globber: typeof Tinyglobby | undefined;

/**
 * tinyglobby, loaded on the first path that may be a glob (required as CommonJS: a third of the ESM
 * import's time), so plain files and directories do not pay for it at start-up.
 */
function tinyglobby(): typeof Tinyglobby {
  globber ??= createRequire(import.meta.url)('tinyglobby') as typeof Tinyglobby;
  return globber;
}

/** Whether a path is a glob pattern (as tinyglobby decides), without loading tinyglobby for a plain path. */
export function isGlob(path: string): boolean {
  return GLOB_CHARACTER.test(path) && tinyglobby().isDynamicPattern(path);
}

/** Whether a directory's walk reads a file of this name: a trace file's (not a SWE-agent sidecar). */
export function isTraceFileName(name: string): boolean {
  return TRACE_FILE.test(name) && !SIDECAR.test(name);
}

function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The trace files under `dir`, recursively, sorted by name. Symbolic links are followed, to files and to
 * directories; a directory reached twice (a link loop) and a file reached twice are read once. A link
 * that leads nowhere is kept, so that reading it says so.
 */
function walk(dir: string, out: string[], seen: Set<string>): void {
  let names: string[];
  try {
    names = readdirSync(dir).sort(byName);
  } catch (error) {
    throw unreadable(dir, error);
  }
  for (const name of names) {
    const path = join(dir, name);
    let stats: Stats | undefined;
    try {
      stats = statSync(path);
    } catch {
      stats = undefined; // a dangling link: kept below when its name is a trace's
    }
    if (stats?.isDirectory()) {
      const real = realpathSync(path);
      if (seen.has(real)) continue;
      seen.add(real);
      walk(path, out, seen);
    } else if (isTraceFileName(name)) {
      const real = stats ? realpathSync(path) : path;
      if (seen.has(real)) continue;
      seen.add(real);
      out.push(path);
    }
  }
}

/**
 * Expands the paths a user gave into trace files, in a stable order: a file as given, a directory's
 * trace files recursively (sorted by name), a glob's matches (sorted), `-` (standard input) as is.
 * Nothing found is an error. Whether each file can be read is for the reader to say.
 */
export function collectInputs(paths: readonly string[]): string[] {
  if (paths.length === 0) {
    throw new UserError({ file: '<arguments>', code: 'no_input', message: 'no trace files given', hint: 'pass files, directories or globs' });
  }
  const files: string[] = [];
  for (const path of paths) {
    if (path === STDIN_PATH) {
      if (files.includes(STDIN_PATH)) throw new UserError({ file: '<arguments>', code: 'bad_value', message: "'-' (standard input) is given twice", hint: 'standard input can be read once' });
      files.push(path);
      continue;
    }
    if (path === '') throw new UserError({ file: '<arguments>', code: 'bad_value', message: 'an input path is empty', hint: 'pass files, directories or globs' });
    if (isGlob(path)) {
      const matches = tinyglobby().globSync(path, { onlyFiles: true, expandDirectories: false }).sort();
      if (matches.length === 0) throw new UserError({ file: path, code: 'no_match', message: 'glob matches no file', hint: 'check the pattern' });
      files.push(...matches);
      continue;
    }
    let stats: Stats;
    try {
      stats = statSync(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        throw new UserError({ file: path, code: 'not_found', message: 'no such file or directory', hint: 'check the path' });
      }
      throw unreadable(path, error);
    }
    if (stats.isDirectory()) {
      const before = files.length;
      walk(path, files, new Set([realpathSync(path)]));
      if (files.length === before) {
        throw new UserError({ file: path, code: 'empty_dir', message: 'directory holds no trace files (.jsonl, .json, .traj, .yaml, optionally .gz)', hint: 'check the path' });
      }
    } else {
      files.push(path);
    }
  }
  return files;
}

import { readdirSync, realpathSync, statSync, type Stats } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute, join } from 'node:path';
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
 * The files read so far, by real path (files and directories alike), with the input that named each:
 * a file reached again through the same input (a link inside a directory, a glob) is skipped quietly;
 * through another input it was given more than once, and that is said (see `CollectedInputs.repeated`).
 */
class SeenInputs {
  private readonly firstName = new Map<string, { input: number; path: string }>();
  private readonly listed = new Set<string>();
  readonly repeated: string[] = [];
  /** Repeats the current input has met (a directory that holds only files named before is not empty). */
  repeatsOfInput = 0;
  private input = 0;

  /** The input now being collected (its index among the paths given). */
  startInput(input: number): void {
    this.input = input;
    this.repeatsOfInput = 0;
  }

  /** Whether `path` (real path `real`) is new, noting it; a repeat from another input is listed. */
  isNew(path: string, real: string): boolean {
    const first = this.firstName.get(real);
    if (first === undefined) {
      this.firstName.set(real, { input: this.input, path });
      return true;
    }
    if (first.input === this.input) return false;
    this.repeatsOfInput += 1;
    if (!this.listed.has(path)) {
      this.listed.add(path);
      this.repeated.push(first.path === path ? path : `${path} (= ${first.path})`);
    }
    return false;
  }
}

/** The real path of an existing `path`; `path` itself when it cannot be resolved (reading it will say why). */
function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * The trace files under `dir`, recursively, sorted by name. Symbolic links are followed, to files and to
 * directories; a directory or file reached twice (a link loop, or one an earlier input named) is read once.
 * A link that leads nowhere is kept, so that reading it says so.
 */
function walk(dir: string, out: string[], seen: SeenInputs): void {
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
      if (seen.isNew(path, realPath(path))) walk(path, out, seen);
    } else if (isTraceFileName(name)) {
      if (seen.isNew(path, stats ? realPath(path) : path)) out.push(path);
    }
  }
}

/** What the paths a user gave expand to. */
export interface CollectedInputs {
  /** The trace files, each once, in the order the paths name them. */
  files: string[];
  /**
   * Inputs that named a file or directory an earlier input had named (the same path twice, a link to it,
   * a file inside a directory also given, an overlapping glob), as found: read once. `x (= y)` when the
   * earlier input named it `y`.
   */
  repeated: string[];
}

/**
 * Expands the paths a user gave into trace files, in a stable order: a file as given, a directory's
 * trace files recursively (sorted by name), a glob's matches (sorted; absolute paths for an absolute
 * pattern, else relative to the current directory), `-` (standard input) as is. A file
 * named twice (by real path) is read once. Nothing found is an error. Whether each file can be read is
 * for the reader to say.
 */
export function collectInputFiles(paths: readonly string[]): CollectedInputs {
  if (paths.length === 0) {
    throw new UserError({ file: '<arguments>', code: 'no_input', message: 'no trace files given', hint: 'pass files, directories or globs' });
  }
  const files: string[] = [];
  const seen = new SeenInputs();
  paths.forEach((path, input) => {
    seen.startInput(input);
    if (path === STDIN_PATH) {
      if (files.includes(STDIN_PATH)) throw new UserError({ file: '<arguments>', code: 'bad_value', message: "'-' (standard input) is given twice", hint: 'standard input can be read once' });
      files.push(path);
      return;
    }
    if (path === '') throw new UserError({ file: '<arguments>', code: 'bad_value', message: 'an input path is empty', hint: 'pass files, directories or globs' });
    if (isGlob(path)) {
      // Matches are named as the pattern was: an absolute pattern's absolutely, whatever the current directory.
      const matches = tinyglobby().globSync(path, { onlyFiles: true, expandDirectories: false, absolute: isAbsolute(path) }).sort();
      if (matches.length === 0) throw new UserError({ file: path, code: 'no_match', message: 'glob matches no file', hint: 'check the pattern' });
      for (const match of matches) if (seen.isNew(match, realPath(match))) files.push(match);
      return;
    }
    const stats = statInput(path);
    if (stats.isDirectory()) {
      if (!seen.isNew(path, realPath(path))) return;
      const before = files.length;
      walk(path, files, seen);
      if (files.length === before && seen.repeatsOfInput === 0) {
        throw new UserError({ file: path, code: 'empty_dir', message: 'directory holds no trace files (.jsonl, .json, .traj, .yaml, optionally .gz)', hint: 'check the path' });
      }
    } else if (seen.isNew(path, realPath(path))) {
      files.push(path);
    }
  });
  return { files, repeated: seen.repeated };
}

/** The trace files the paths a user gave expand to, each once (see `collectInputFiles`). */
export function collectInputs(paths: readonly string[]): string[] {
  return collectInputFiles(paths).files;
}

/** The file or directory a plain path names; a user error when there is none or it cannot be read. */
function statInput(path: string): Stats {
  try {
    return statSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new UserError({ file: path, code: 'not_found', message: 'no such file or directory', hint: 'check the path' });
    }
    throw unreadable(path, error);
  }
}

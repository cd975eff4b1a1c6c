import { readdirSync, realpathSync } from 'node:fs';
import { join, relative } from 'node:path';
import { UserError, type InputIssue } from '../errors.js';
import { checkBaselineNamed, isCheckBaseline, onlyCheckBaselines } from './checkBaselineFile.js';
import { unreadable, unreadableDirectory } from './inputErrors.js';
import { globMatches, isGlob, skippedDirectory } from './globMatches.js';
import { namesStandardInput, statInput, statOf, STDIN_PATH } from './inputPaths.js';
import { emptyDirectory, isTraceFileName, notRegular } from './walkEntries.js';

/** Standard input as SeenInputs knows it, however it is named (no real path is this). */
const STDIN_INPUT = '\0standard input';

export { isGlob, isTraceFileName };

function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The files read so far, by fileKey (files and directories alike), with the input that named each:
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

  /** Whether `path` (fileKey `real`) is new, noting it; a repeat from another input is listed. */
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
 * What makes two paths the same file (or directory) for SeenInputs and check: its device and inode, so a hard link
 * (`ln a.yaml b.yaml`: two names, one file) is the same file as a symbolic link or `./a.yaml` is; its real
 * path where the system gives no usable inode. `stats`: the path's, when already at hand.
 */
export function fileKey(path: string, stats: { dev: number; ino: number } | undefined = statOf(path)): string {
  if (stats !== undefined && stats.ino > 0 && Number.isSafeInteger(stats.ino)) return `\0file ${fileIdentity(stats)}`;
  return realPath(path);
}

/** Which file the stats are of (device and inode): equal for a symbolic link, a hard link, `./a` and `a`. */
const fileIdentity = (stats: { dev: number; ino: number }): string => `${stats.dev}:${stats.ino}`;

/** A walk of one directory given as input: where it started, what it found (into the collection), what was read before. */
interface Walk extends Collection {
  root: string;
  /** The directories not gone into (skippedDirectory), as paths under the root. */
  skipped: string[];
}

/**
 * An entry a directory or glob brought in that is no regular file (see notRegular): never opened. It is
 * refused with the inputs, or, with `skipBad`, handed to TraceInputs (src/import/inputSet.ts) as a bad input.
 */
export interface UnreadInput {
  /** The entry's path, as a file of the directory or glob's match would be read. */
  path: string;
  /** Why it is not read: `issue.file` is the directory or glob that brought it in. */
  issue: InputIssue;
}

/**
 * The trace files under `dir`, recursively, sorted by name, leaving out hidden directories and
 * `node_modules` (skippedDirectory) and hidden files (a name starting with `.`), as a glob's wildcards do. Symbolic links are followed, to files and to directories; a directory
 * or file reached twice (a link loop, or one an earlier input named) is read once.
 * A link that leads nowhere is kept, so that reading it says so; an entry that is no regular file is noted.
 */
function walkDirectory(dir: string, walk: Walk): void {
  let names: string[];
  try {
    names = readdirSync(dir).sort(byName);
  } catch (error) {
    // The directory given is the input itself: it is refused as any input that cannot be reached is.
    if (dir === walk.root) throw unreadable(dir, error);
    walk.unreadDirs.push({ path: dir, issue: unreadableDirectory(dir, error) });
    return;
  }
  for (const name of names) {
    const path = join(dir, name);
    const stats = statOf(path); // undefined for a dangling link: kept below when its name is a trace's
    if (stats?.isDirectory()) {
      if (skippedDirectory(name)) walk.skipped.push(relative(walk.root, path));
      else if (walk.seen.isNew(path, fileKey(path, stats))) walkDirectory(path, walk);
    } else if (isTraceFileName(name)) {
      // A hidden file (an editor's lock or backup, `.#run.jsonl`) is left out as a glob's wildcard leaves it.
      if (name.startsWith('.')) walk.skipped.push(relative(walk.root, path));
      else if (stats !== undefined && !stats.isFile()) walk.special.push({ path, issue: notRegular({ path: walk.root, glob: false }, relative(walk.root, path), stats) });
      else if (walk.seen.isNew(path, stats ? fileKey(path, stats) : path)) bringIn(walk, path, walk.root);
    }
  }
}

/** A file the directory or glob `from` (as given) brought in, read with the inputs (see BroughtIn); a check baseline is left out. */
function bringIn(into: Collection, path: string, from: string): void {
  if (isCheckBaseline(path, true)) {
    into.baselines.push(path);
    return;
  }
  into.files.push(path);
  into.broughtIn.set(path, from);
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
  /**
   * Bad inputs never opened, for TraceInputs to list with the bad files (never in `files`): the directories
   * inside a directory given that cannot be listed (permission denied), always, so that every bad input is
   * named together once the files are read; and with `skipBad`, the entries a directory or glob brought
   * in that are no regular file (without it those are refused before anything is read).
   */
  unread: UnreadInput[];
  broughtIn: BroughtIn;
  /** The check baselines a directory or glob brought in (checkBaselineFile.ts), left out: never in `files`. */
  checkBaselines: string[];
}

/** Files a directory's walk or a glob brought in, not named on their own, each with that directory or pattern as given (see TraceInputs). */
export type BroughtIn = ReadonlyMap<string, string>;

/**
 * Expands the paths a user gave into trace files, in a stable order: a file as given, a directory's
 * trace files recursively (sorted by name; hidden directories and node_modules left out: skippedDirectory),
 * a glob's matches (sorted; absolute paths for an absolute pattern, else relative to the current directory), `-` (standard input) as is. A file
 * named twice (by fileKey: a link to it, hard or symbolic, too) is read once. Nothing found is an error. A file a directory or glob brings in
 * that is no regular file (a named pipe, a socket, a device) is never opened (a named pipe is read only when
 * given on its own): every one is named in one refusal, or, with `options.skipBad` (--skip-bad), returned
 * in `unread` to be listed with the bad files. A directory met inside a directory given that cannot be
 * listed is a bad input, returned in `unread` (named in that refusal too, if any); a directory given that
 * cannot be listed is refused, as a path given that is not there is. A check baseline a directory or glob brings in is
 * left out (`checkBaselines`); one named on its own is refused. Whether each file can be read is for the reader to say.
 */
export function collectInputFiles(paths: readonly string[], options: { skipBad?: boolean } = {}): CollectedInputs {
  if (paths.length === 0) {
    throw new UserError({ file: '<arguments>', code: 'no_input', message: 'no trace files given', hint: 'pass files, directories or globs' });
  }
  const found = newCollection();
  paths.forEach((path, input) => collectInput(path, input, found));
  if (found.special.length > 0 && options.skipBad !== true) throw new UserError([...found.special, ...found.unreadDirs].map((entry) => entry.issue));
  const unread = options.skipBad === true ? [...found.special, ...found.unreadDirs] : found.unreadDirs;
  return { files: found.files, repeated: found.seen.repeated, unread, broughtIn: found.broughtIn, checkBaselines: found.baselines };
}

/** What one input brought in: its entries that are no regular file (with `skipBad`), or its problems. */
export interface InputFound {
  unread: UnreadInput[];
  issues: InputIssue[];
}

/**
 * collectInputFiles, each input's problems kept apart (a scenario's `traces:` entries, each told of where
 * it is written): every path is expanded once, the files of all of them each once (by fileKey) in
 * `files`; `inputs[i]`, what path `i` brought in that is not read: its problems (an entry that is no
 * regular file among them, unless `options.skipBad`), else with `skipBad` those entries, unopened.
 */
export function collectEachInput(paths: readonly string[], options: { skipBad?: boolean } = {}): { files: string[]; inputs: InputFound[]; broughtIn: BroughtIn } {
  const found = newCollection();
  const inputs = paths.map((path, input): InputFound => {
    const before = { special: found.special.length, unreadDirs: found.unreadDirs.length };
    try {
      collectInput(path, input, found);
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      return { unread: [], issues: error.issues };
    }
    const unread = [...found.special.slice(before.special), ...found.unreadDirs.slice(before.unreadDirs)];
    return options.skipBad === true ? { unread, issues: [] } : { unread: [], issues: unread.map((entry) => entry.issue) };
  });
  return { files: found.files, inputs, broughtIn: found.broughtIn };
}

/** The inputs collected so far: the files found, what was read (by fileKey), the entries never opened. */
interface Collection {
  files: string[];
  seen: SeenInputs;
  /** Entries with a trace file's name that are no regular file (a named pipe, a socket, a device): never opened. */
  special: UnreadInput[];
  /** Directories inside a directory given that cannot be listed (see CollectedInputs.unread). */
  unreadDirs: UnreadInput[];
  broughtIn: Map<string, string>;
  /** Check baselines a directory or glob brought in, left out (CollectedInputs.checkBaselines). */
  baselines: string[];
}

const newCollection = (): Collection => ({ files: [], seen: new SeenInputs(), special: [], unreadDirs: [], broughtIn: new Map(), baselines: [] });

/** One of the paths given (number `input` among them) expanded into `found` (see collectInputFiles). */
function collectInput(path: string, input: number, found: Collection): void {
  const { files, seen, special, unreadDirs, baselines } = found;
  seen.startInput(input);
  if (namesStandardInput(path)) {
    // `-`, /dev/stdin, /dev/fd/0: one input, read once however often named (`- /dev/stdin < file` read the
    // file twice, a pipe once and then found it empty); a path to it is also the file it was redirected from, if any.
    if (seen.isNew(path, STDIN_INPUT) && (path === STDIN_PATH || seen.isNew(path, fileKey(path)))) files.push(path);
    return;
  }
  if (path === '') throw new UserError({ file: '<arguments>', code: 'bad_value', message: 'an input path is empty', hint: 'pass files, directories or globs' });
  if (isGlob(path)) {
    // Matches are named as the pattern was: an absolute pattern's absolutely, whatever the current directory.
    const matches = globMatches(path);
    if (matches.length === 0) throw new UserError({ file: path, code: 'no_match', message: 'glob matches no file', hint: "check the pattern; its wildcards match no name starting with '.' and no node_modules: write such a name out to match inside it" });
    const before = baselines.length;
    for (const match of matches) {
      const stats = statOf(match);
      if (stats !== undefined && !stats.isFile()) special.push({ path: match, issue: notRegular({ path, glob: true }, match, stats) });
      else if (seen.isNew(match, fileKey(match, stats))) bringIn(found, match, path);
    }
    if (baselines.length - before === matches.length) throw onlyCheckBaselines(path, baselines.slice(before));
    return;
  }
  const stats = statInput(path);
  if (stats.isDirectory()) {
    if (!seen.isNew(path, fileKey(path, stats))) return;
    const before = { files: files.length, unread: special.length + unreadDirs.length, baselines: baselines.length };
    const skipped: string[] = [];
    walkDirectory(path, { ...found, root: path, skipped });
    // Empty unless this input itself brought in a file, a repeat or an unread entry (not an earlier input's).
    if (files.length === before.files && seen.repeatsOfInput === 0 && special.length + unreadDirs.length === before.unread) {
      throw baselines.length > before.baselines ? onlyCheckBaselines(path, baselines.slice(before.baselines)) : emptyDirectory(path, skipped);
    }
  } else if (isCheckBaseline(path)) {
    throw checkBaselineNamed(path);
  } else if (seen.isNew(path, fileKey(path, stats))) {
    files.push(path);
  }
}

/** The trace files the paths a user gave expand to, each once (see `collectInputFiles`: an entry that is no regular file, or a directory that cannot be listed, is refused). */
export function collectInputs(paths: readonly string[]): string[] {
  const { files, unread } = collectInputFiles(paths);
  if (unread.length > 0) throw new UserError(unread.map((entry) => entry.issue));
  return files;
}

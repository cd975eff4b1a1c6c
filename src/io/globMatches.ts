/**
 * How a glob given as input is matched (tinyglobby, loaded only when a path may be one), and the directories
 * a directory's walk and a glob's wildcards both leave out (skippedDirectory).
 */
import { readdirSync, type Dirent } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute } from 'node:path';
import type * as Tinyglobby from 'tinyglobby';

/** No glob syntax can be written without one of these; a path free of them is never a pattern. */
const GLOB_CHARACTER = /[*?[\]{}()!@+\\]/;

let globber: typeof Tinyglobby | undefined;

/** How many directories globs have listed (this process): a test's count of what a glob's walk reads. */
export const globWalk = { directoriesRead: 0 };

/**
 * tinyglobby, loaded on the first path that may be a glob (required as CommonJS: a third of the ESM
 * import's time), so plain files and directories do not pay for it at start-up.
 */
function tinyglobby(): typeof Tinyglobby {
  globber ??= createRequire(import.meta.url)('tinyglobby') as typeof Tinyglobby;
  return globber;
}

/**
 * `readdirSync` as a glob's walk sees it: an entry that is no file, directory or link (a named pipe, a
 * socket, a device) is shown as a file, so that a pattern matching it returns it and it is refused or listed
 * as one a directory holds (tinyglobby's walk keeps only files, directories and links: it would be dropped
 * unseen). Only its type is changed; it is never opened.
 */
const SPECIAL_AS_FILES = {
  readdirSync: ((path: string, options: { withFileTypes: true }) => {
    globWalk.directoriesRead += 1;
    return readdirSync(path, options).map((entry) => (entry.isFile() || entry.isDirectory() || entry.isSymbolicLink() ? entry : shownAsFile(entry)));
  }) as unknown as typeof readdirSync,
};

function shownAsFile(entry: Dirent): Dirent {
  return Object.assign(Object.create(entry) as Dirent, { isFile: () => true });
}

/** Whether a path is a glob pattern (as tinyglobby decides), without loading tinyglobby for a plain path. */
export function isGlob(path: string): boolean {
  return GLOB_CHARACTER.test(path) && tinyglobby().isDynamicPattern(path);
}

/**
 * Whether a directory's walk leaves out a directory of this name: a hidden one (`.git`, `.cache`, `.venv`:
 * any name starting with `.`) or `node_modules`, whose files are a tool's, not the user's traces. Only
 * inside a walk: a directory given as an input is read whatever its name or its path (`~/.claude/projects`),
 * and a glob's wildcards skip the same names (globOptions).
 */
export function skippedDirectory(name: string): boolean {
  return name.startsWith('.') || name === 'node_modules';
}

/**
 * How a glob is matched: wildcards (`*`, `**`, `?`) match no name starting with `.` (tinyglobby's `dot: false`)
 * and no `node_modules`, as a directory's walk skips them, unless the pattern writes one out (`.claude/**`,
 * `node_modules/pkg/*.jsonl`). A named pipe, socket or device matched is shown as a file (SPECIAL_AS_FILES).
 */
function globOptions(pattern: string): Tinyglobby.GlobOptions {
  // Anchored where the pattern's wildcards start (tinyglobby reads `**/…` from the current directory, so an
  // absolute or `../` pattern's node_modules would be matched); the walk then never goes into one.
  const segments = pattern.split('/');
  const fixed = segments.findIndex((segment) => tinyglobby().isDynamicPattern(segment));
  const base = fixed <= 0 ? '' : `${segments.slice(0, fixed).join('/')}/`;
  const ignore = pattern.includes('node_modules') ? [] : [`${base}**/node_modules/**`];
  // An absolute pattern is walked from there too: else tinyglobby walks from the directory it shares with the
  // current one (`/` for /tmp/x/*.jsonl run in /work), listing every directory on the way (a /tmp of 85,000
  // entries: a quarter of a second a glob). The matches are the same.
  const cwd = isAbsolute(pattern) && base !== '' ? { cwd: base } : {};
  return { onlyFiles: true, expandDirectories: false, absolute: isAbsolute(pattern), dot: false, ignore, fs: SPECIAL_AS_FILES, ...cwd };
}

/** A glob's matches, sorted (see globOptions); none is no error here. */
export function globMatches(pattern: string): string[] {
  return tinyglobby().globSync(pattern, globOptions(pattern)).sort();
}

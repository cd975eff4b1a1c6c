/**
 * How a baseline names its scenarios: each scenario file by its path relative to the baseline file's
 * directory (`/`-separated), so a check run from any directory matches the same files — `check scenarios/`
 * from the repository and `check .` from `scenarios/` both key `scenarios/x.yaml` as `x.yaml` against
 * `scenarios/loopcost-baseline.json`. Both directories are taken resolved (symbolic links followed: realpath),
 * so the same files reached through a linked directory (`check ci-scenarios/` where it links to `scenarios/`)
 * have the same keys; the file's own name is kept as spelled (a scenario file that is a link is keyed where
 * it sits, not where it points).
 */
import { realpathSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';

export interface ScenarioKeys {
  /** A scenario file (as collected, relative to the working directory) → its key in the baseline. */
  keyOf: (source: string) => string;
  /** A key of the baseline → the file's path from the working directory (check shows it as the user named the files: shownPath.ts). */
  pathOf: (key: string) => string;
  /**
   * Every key a baseline may hold the file under: `keyOf`'s, and the one of its path as spelled (no link
   * followed), which a baseline written before keys were resolved holds. Absent: `keyOf`'s alone.
   */
  keysOf?: (source: string) => readonly string[];
  /**
   * The directory given on the command line that holds a scenario file (as given) and the file's path within
   * it (`/`-separated): what a directory moved away from its baseline is matched by (movedDirectory.ts).
   * Absent, or undefined for a file: no directory given holds it.
   */
  within?: (source: string) => { directory: string; path: string } | undefined;
}

export function slashed(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}

/** A directory with its symbolic links followed; as resolved where it cannot be (not there, not readable). */
export function realDirectory(directory: string): string {
  try {
    return realpathSync(directory);
  } catch {
    return resolve(directory);
  }
}

/** A file's path with its directory's links followed, its own name as spelled. */
export function realFile(path: string): string {
  const full = resolve(path);
  return join(realDirectory(dirname(full)), basename(full));
}

export function scenarioKeys(baselineFile: string): ScenarioKeys {
  return scenarioKeysFrom(dirname(resolve(baselineFile)));
}

/** Keys relative to `directory` (a baseline read from standard input: the current directory). */
export function scenarioKeysFrom(directory: string): ScenarioKeys {
  const spelled = resolve(directory);
  const dir = realDirectory(spelled);
  const keyOf = (source: string) => slashed(relative(dir, realFile(source)));
  return {
    keyOf,
    pathOf: (key) => slashed(relative(process.cwd(), resolve(dir, key))) || '.',
    keysOf: (source) => [...new Set([keyOf(source), slashed(relative(spelled, resolve(source)))])],
  };
}

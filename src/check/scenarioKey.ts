/**
 * How a baseline names its scenarios: each scenario file by its path relative to the baseline file's
 * directory (`/`-separated), so a check run from any directory matches the same files — `check scenarios/`
 * from the repository and `check .` from `scenarios/` both key `scenarios/x.yaml` as `x.yaml` against
 * `scenarios/loopcost-baseline.json`.
 */
import { dirname, relative, resolve, sep } from 'node:path';

export interface ScenarioKeys {
  /** A scenario file (as collected, relative to the working directory) → its key in the baseline. */
  keyOf: (source: string) => string;
  /** A key of the baseline → the file's path from the working directory, as a report shows it. */
  pathOf: (key: string) => string;
}

function slashed(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}

export function scenarioKeys(baselineFile: string): ScenarioKeys {
  return scenarioKeysFrom(dirname(resolve(baselineFile)));
}

/** Keys relative to `directory` (a baseline read from standard input: the current directory). */
export function scenarioKeysFrom(directory: string): ScenarioKeys {
  const dir = resolve(directory);
  return {
    keyOf: (source) => slashed(relative(dir, resolve(source))),
    pathOf: (key) => slashed(relative(process.cwd(), resolve(dir, key))) || '.',
  };
}

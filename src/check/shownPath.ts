/**
 * How a check names a scenario file it knows only from the baseline — a gone one, a renamed one's old path,
 * the files a wrong baseline holds — where it shows it beside the files it checked. The baseline keys each
 * by its path relative to the baseline's own directory (scenarioKey.ts); shown relative to the current
 * directory, a check run from elsewhere read `../../tmp/ci/scenarios/gone.yaml` beside
 * `/tmp/ci/scenarios/new.yaml`. It is now spelled as the checked files are, from what the user named: the
 * first scenarios directory given on the command line that holds it, else the directory of a scenario file
 * checked (a file or a glob's match, as given), else the `--baseline` file's directory as given — so a CI log
 * shows `scenarios/gone.yaml` GONE beside `scenarios/new.yaml` new, a path that can be pasted into a command
 * run where the check ran (`git log -- scenarios/gone.yaml`). One held by none of them (a key climbing out of
 * every one) is shown from the current directory when under it, else whole (absolute). The keys also tell
 * which directory given holds each file checked, and its path within it (`within`: movedDirectory.ts).
 */
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { realDirectory, realFile, slashed, type ScenarioKeys } from './scenarioKey.js';
import { isDirectory } from '../io/pathKind.js';

/** What the user named: the check's arguments, the scenario files found from them, the baseline file (as given; none read through a descriptor). */
export interface NamedPaths {
  inputs: readonly string[];
  sources: readonly string[];
  baseline?: string;
}


/** `path` (absolute, links followed) within `anchor` (a directory, links followed as scenarioKey.ts follows them); undefined when not under it. */
function inside(anchor: string, path: string): string | undefined {
  const within = relative(realDirectory(anchor), path);
  return within === '' || within === '..' || within.startsWith('../') || within.startsWith('..\\') || isAbsolute(within) ? undefined : within;
}

/** `path` (absolute, links followed) from under `anchor` (a directory as the user spelled it); undefined when not under it. */
function under(anchor: string, path: string): string | undefined {
  const within = inside(anchor, path);
  return within === undefined ? undefined : join(anchor, within);
}

/** The first directory given that holds a scenario file, and its path within it (ScenarioKeys.within). */
function withinGiven(directories: readonly string[]): NonNullable<ScenarioKeys['within']> {
  return (source) => {
    const file = realFile(source);
    for (const directory of directories) {
      const path = inside(directory, file);
      if (path !== undefined) return { directory, path: slashed(path) };
    }
    return undefined;
  };
}

/** The directories a baseline's path is spelled from, most direct first: directories given, checked files' directories, the baseline's, the current one. */
function anchorsOf(named: NamedPaths): string[] {
  const given = named.inputs.filter(isDirectory);
  const besideChecked = named.sources.map(dirname);
  const baseline = named.baseline === undefined ? [] : [dirname(named.baseline)];
  return [...new Set([...given, ...besideChecked, ...baseline, '.'])];
}

/** `keys` with `pathOf` spelling a baseline's scenario as the user named the files around it (see above). */
export function keysShownAsNamed(keys: ScenarioKeys, named: NamedPaths): ScenarioKeys {
  const anchors = anchorsOf(named);
  const pathOf = (key: string): string => {
    const path = resolve(keys.pathOf(key));
    for (const anchor of anchors) {
      const shown = under(anchor, path);
      if (shown !== undefined) return shown;
    }
    return path;
  };
  return { ...keys, pathOf, within: withinGiven(named.inputs.filter(isDirectory)) };
}

/**
 * A scenarios directory moved away from its baseline: copied or moved to another path, or its baseline moved
 * into, out of or away from it. A baseline keys each scenario file by its path from the baseline's own
 * directory (scenarioKey.ts), so `check moved/ --baseline base.json` of a baseline written by `check
 * scenarios/ --update-baseline base.json` matched none of its `scenarios/a.yaml`, … and was refused as a moved
 * baseline, with the advice to write it again (which would have accepted whatever changed). A directory given
 * on the command line none of whose scenario files is where the baseline names it is now matched by their
 * paths within it, as the files under the one directory of the baseline (`scenarios/`) that holds the most of
 * those paths: `a.yaml` in moved/ is the baseline's `scenarios/a.yaml`. What the baseline holds under it and the
 * check did not find there is gone, what the check found and the baseline did not hold is new, as for any
 * baseline; the report's keys line says how they were matched. Two directories of the baseline that hold as
 * many of them (`x/a.yaml` and `y/a.yaml`, for a directory holding `a.yaml`) are ambiguous: refused (exit 2),
 * naming them and what to do. Old baselines read so as they are (their keys are the same). Format 1 baselines
 * (keyed by the path as given) are not read so: their own refusal says how to renew them.
 */
import { join } from 'node:path';
import { UserError } from '../errors.js';
import { shellWord } from '../report/settings.js';
import { someNames } from '../someNames.js';
import { counted } from '../plural.js';
import { BASELINE_SCHEMA, plainPath, type BaselineFile, type BaselineScenario } from './baselineFile.js';
import type { ScenarioCheck } from './run.js';
import type { ScenarioKeys } from './scenarioKey.js';

/** A directory given (as given) whose scenario files are the baseline's under `prefix` (`scenarios/`; empty: its own directory). */
export interface MovedDirectory {
  directory: string;
  prefix: string;
  /** Its scenario files so matched. */
  matched: number;
}

interface Within {
  /** The checked scenario's index. */
  index: number;
  /** Its path within the directory. */
  path: string;
}

/** What the matching reads: the baseline and how it keys its files, for a refusal its file. */
interface Matching {
  baseline: BaselineFile;
  keys: ScenarioKeys;
  file: string;
}

/** The baseline directory `key` holds `path` under (`scenarios/` for `scenarios/a.yaml` and `a.yaml`); undefined when it does not end in it. */
function prefixOf(key: string, path: string): string | undefined {
  if (key === path) return '';
  return key.endsWith(`/${path}`) ? key.slice(0, key.length - path.length) : undefined;
}

/** The scenarios each directory given holds, for the directories none of whose scenarios a key matched. */
function unmatchedDirectories(checks: readonly ScenarioCheck[], entries: readonly (BaselineScenario | undefined)[], keys: ScenarioKeys): Map<string, Within[]> {
  const byDirectory = new Map<string, Within[]>();
  const matched = new Set<string>();
  checks.forEach((check, index) => {
    const within = keys.within?.(check.source);
    if (within === undefined) return;
    if (entries[index] !== undefined) matched.add(within.directory);
    const files = byDirectory.get(within.directory) ?? [];
    files.push({ index, path: within.path });
    byDirectory.set(within.directory, files);
  });
  for (const directory of matched) byDirectory.delete(directory);
  return byDirectory;
}

/** A baseline directory as the report shows it (`scenarios/` → its path from here). */
function shownPrefix(prefix: string, keys: ScenarioKeys): string {
  return `${keys.pathOf(prefix === '' ? '.' : prefix.slice(0, -1))}/`;
}

/** The baseline directory (among the keys still open) holding the most of `files`' paths; undefined when none holds one; two alike refused. */
function bestPrefix(directory: string, files: readonly Within[], open: readonly string[], m: Matching): string | undefined {
  const support = new Map<string, number>();
  for (const { path } of files) {
    const prefixes = new Set(open.flatMap((key) => prefixOf(key, path) ?? []));
    for (const prefix of prefixes) support.set(prefix, (support.get(prefix) ?? 0) + 1);
  }
  let most = 0;
  for (const n of support.values()) most = Math.max(most, n);
  const best = [...support].filter(([, n]) => n === most).map(([prefix]) => prefix);
  if (most === 0) return undefined;
  if (best.length === 1) return best[0];
  throw new UserError({
    file: m.file,
    code: 'baseline_ambiguous',
    message: `none of the scenario files in ${directory} is where the baseline names it (by its path from the baseline's directory), and by their paths within ${directory} they are as much the baseline's under ${someNames(best.map((prefix) => shownPrefix(prefix, m.keys)))} (${counted(most, 'file')} each): which were moved there cannot be told`,
    hint: `check the directory the baseline was written for (or keep the baseline where --update-baseline wrote it, beside the paths it names), or start a baseline for ${directory}: run the same check with --update-baseline FILE (a new file; overwrite ${shellWord(m.file)} only if these scenarios replace its own on purpose)`,
  });
}

/**
 * Each directory given none of whose scenarios matched a key, matched by their paths within it (see above):
 * `entries` (per checked scenario, the baseline scenario it is compared as) filled in for those found.
 */
export function matchMovedDirectories(checks: readonly ScenarioCheck[], entries: (BaselineScenario | undefined)[], m: Matching): MovedDirectory[] {
  if (m.baseline.baseline !== BASELINE_SCHEMA) return [];
  const moved: MovedDirectory[] = [];
  // The baseline's entries no checked scenario matched yet (an entry a directory takes leaves it).
  const matchedAlready = new Set(entries);
  const open = new Map(m.baseline.scenarios.filter((entry) => !matchedAlready.has(entry)).map((entry) => [plainPath(entry.source), entry]));
  for (const [directory, files] of unmatchedDirectories(checks, entries, m.keys)) {
    const prefix = bestPrefix(directory, files, [...open.keys()], m);
    if (prefix === undefined) continue;
    let matched = 0;
    for (const { index, path } of files) {
      const entry = open.get(prefix + path);
      if (entry === undefined) continue;
      entries[index] = entry;
      open.delete(prefix + path);
      matched++;
    }
    moved.push({ directory, prefix, matched });
  }
  return moved;
}

/** A baseline scenario's path as the report shows it: under a moved directory, where it is in the directory given (`moved/gone.yaml`); else undefined. */
export function movedPathOf(key: string, moved: readonly MovedDirectory[]): string | undefined {
  const plain = plainPath(key);
  const into = moved.filter((m) => plain.startsWith(m.prefix)).sort((a, b) => b.prefix.length - a.prefix.length)[0];
  return into === undefined ? undefined : join(into.directory, plain.slice(into.prefix.length));
}

/** The keys line's words for the directories matched by their paths within them (undefined: none). */
export function movedKeysNote(moved: readonly MovedDirectory[], m: Pick<Matching, 'keys' | 'file'>): string | undefined {
  if (moved.length === 0) return undefined;
  const each = moved.map((d) => `the scenario files of ${d.directory} are matched by their paths within it as the baseline's under ${shownPrefix(d.prefix, m.keys)} (${d.matched} matched)`);
  return `${each.join('; ')}: none of them is where the baseline names it (by its path from the baseline's directory), as when a directory is moved away from its baseline; to key them where they are now, write the baseline again: run the same check with --update-baseline ${shellWord(m.file)}`;
}

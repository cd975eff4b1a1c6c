/**
 * Which baseline scenario each checked scenario is compared as. First by its key (the path relative to the
 * baseline's directory, scenarioKey.ts; format 1: the path as given where it was written). A scenario found
 * under no key the baseline holds is then matched as a rename of one the check did not find (`gone`): by its
 * `name:` (the baseline stores each scenario's), else — no name of its own, or one changed too — by its
 * synthetic runs, the very agents the gone one ran (the `sample` the baseline stores: its seed and each run's
 * population entry, which no brake or expectation changes); each only when one gone scenario fits and no other
 * checked one claims it. A renamed scenario is compared as that one (figures, brakes, worst case), never
 * accepted as new: renaming the file cannot hide a loosened brake. None matched at all is the wrong
 * baseline, or one moved away from the paths it names: refused (movedBaseline.ts).
 */
import { BASELINE_SCHEMA, plainPath, type BaselineFile, type BaselineScenario } from './baselineFile.js';
import { refuseWrongBaseline } from './movedBaseline.js';
import { matchMovedDirectories, movedKeysNote, movedPathOf } from './movedDirectory.js';
import { keysOnContent, scenarioSample } from './noise.js';
import type { ScenarioCheck } from './run.js';
import type { ScenarioKeys } from './scenarioKey.js';

/** A checked scenario matched as a baseline scenario under another path: `from`, that one's path (from here). */
export interface Renamed {
  scenario: string;
  from: string;
  /** `name`: the same `name:`; `agents`: the same synthetic runs (seed and population entries drawn). */
  by: 'name' | 'agents';
  /** By name: the name both have. */
  name?: string;
}

export interface ScenarioMatching {
  /** Per checked scenario (in order), the baseline scenario it is compared as; undefined: new. */
  entries: (BaselineScenario | undefined)[];
  /** The baseline's scenarios no checked one is compared as. */
  gone: BaselineScenario[];
  renamed: Renamed[];
  /** A baseline scenario's path from here, as the report shows it (a gone one). */
  pathOf: (entry: BaselineScenario) => string;
  /** How the keys were read (`keysNote` given, and a directory matched by its files' paths within it: movedDirectory.ts). */
  keysNote?: string;
}

/** Whether two scenario paths name the same file as written (`scenarios/x.yaml`, `./scenarios/x.yaml`). */
function sameSource(a: string, b: string): boolean {
  return a === b || plainPath(a) === plainPath(b);
}

/** A baseline scenario's path from here, as a report shows it (format 1 keys are such paths already). */
export function baselinePath(entry: BaselineScenario, baseline: BaselineFile, keys: ScenarioKeys): string {
  return baseline.baseline === BASELINE_SCHEMA ? keys.pathOf(entry.source) : entry.source;
}

/** The baseline scenario keyed as `check`'s file, if any. */
function byPath(check: ScenarioCheck, baseline: BaselineFile, keys: ScenarioKeys): BaselineScenario | undefined {
  if (baseline.baseline !== BASELINE_SCHEMA) return baseline.scenarios.find((entry) => sameSource(entry.source, check.source));
  const own = keys.keysOf?.(check.source) ?? [keys.keyOf(check.source)];
  return baseline.scenarios.find((entry) => own.some((key) => sameSource(entry.source, key)));
}

// A check's sample key, in the form of a key a baseline holds (scenarioSample: two forms), drawn once per check.
const samples = new WeakMap<ScenarioCheck, Map<string, string | undefined>>();

function sampleLike(check: ScenarioCheck, like: string): string | undefined {
  const form = keysOnContent(like) ? 'content' : 'named';
  const kept = samples.get(check) ?? new Map<string, string | undefined>();
  samples.set(check, kept);
  if (!kept.has(form)) kept.set(form, scenarioSample(check, like));
  return kept.get(form);
}

/** Whether `entry` is `check` under another path, by `rule`. */
function sameScenario(check: ScenarioCheck, entry: BaselineScenario, rule: Renamed['by']): boolean {
  if (rule === 'name') return check.name !== check.source && entry.name === check.name;
  return entry.sample !== undefined && sampleLike(check, entry.sample) === entry.sample;
}

/**
 * The renames by `rule` among the scenarios still new (`entries[i]` undefined) and the baseline's still
 * unmatched (`open`): a pair where each is the other's only candidate; set in `entries`, taken from `open`.
 */
function pairRenames(checks: readonly ScenarioCheck[], m: { entries: (BaselineScenario | undefined)[]; open: Set<BaselineScenario> }, rule: Renamed['by']): number[] {
  const candidates = checks.map((check, i) => (m.entries[i] === undefined ? [...m.open].filter((entry) => sameScenario(check, entry, rule)) : []));
  const claims = (entry: BaselineScenario) => candidates.filter((list) => list.includes(entry)).length;
  const paired: number[] = [];
  candidates.forEach((list, i) => {
    if (list.length !== 1 || claims(list[0]!) !== 1) return;
    m.entries[i] = list[0]!;
    m.open.delete(list[0]!);
    paired.push(i);
  });
  return paired;
}

/**
 * Each checked scenario's baseline scenario (by path; a directory given none of whose files is where the
 * baseline names it, by their paths within it: movedDirectory.ts; then as a rename); refuses a baseline none
 * of them matched (exit 2). `keysNote`: how the keys were read, said with the note of a moved directory.
 */
export function matchScenarios(checks: readonly ScenarioCheck[], baseline: BaselineFile, args: { file: string; keys: ScenarioKeys; keysNote?: string | undefined }): ScenarioMatching {
  const entries = checks.map((check) => byPath(check, baseline, args.keys));
  const moved = matchMovedDirectories(checks, entries, { baseline, keys: args.keys, file: args.file });
  const open = new Set(baseline.scenarios.filter((entry) => !entries.includes(entry)));
  const pathOf = (entry: BaselineScenario) => (baseline.baseline === BASELINE_SCHEMA ? movedPathOf(entry.source, moved) : undefined) ?? baselinePath(entry, baseline, args.keys);
  const refusal = { file: args.file, holds: baseline.scenarios.map(pathOf), checked: checks.map((check) => check.source), formatOne: baseline.baseline !== BASELINE_SCHEMA };
  // None by path where a file name is one the baseline holds: its keys point elsewhere (moved), not renames.
  if (open.size === baseline.scenarios.length) refuseWrongBaseline({ ...refusal, movedOnly: true });
  const renamed: Renamed[] = [];
  for (const rule of ['name', 'agents'] as const) {
    for (const i of pairRenames(checks, { entries, open }, rule)) {
      const check = checks[i]!;
      renamed.push({ scenario: check.source, from: pathOf(entries[i]!), by: rule, ...(rule === 'name' ? { name: check.name } : {}) });
    }
  }
  if (open.size === baseline.scenarios.length) refuseWrongBaseline(refusal);
  const keysNote = [args.keysNote, movedKeysNote(moved, args)].filter((note) => note !== undefined).join('; ');
  return { entries, gone: baseline.scenarios.filter((entry) => open.has(entry)), renamed, pathOf, ...(keysNote === '' ? {} : { keysNote }) };
}

/**
 * `renamed: weather.yaml: renamed from springfield-weather.yaml (the same name: "springfield weather"): …`,
 * one line per renamed scenario (the report's; JSON `drift.renamed`).
 */
export function renamedLines(drift: { renamed?: readonly Renamed[]; accepted?: string }): string[] {
  return (drift.renamed ?? []).map((r) => {
    const by = r.by === 'name' ? `the same name: ${JSON.stringify(r.name)}` : 'the same synthetic runs: its seed and the population entry each run drew';
    const keyed = drift.accepted === undefined ? 'the baseline keys it by its old path until written again (next)' : 'the baseline written again keys it by its new path';
    return `renamed: ${r.scenario}: renamed from ${r.from} (${by}): compared as that scenario (its figures, brakes and worst case); ${keyed}`;
  });
}

/**
 * whatIf as the library gives it: `loopcost whatif` on loaded runs. Each run replayed under the brakes it was
 * recorded with (its baseline: recordedBrakes) and under each setting tried, with what each would have done
 * (replay/whatif.ts, the engine the command runs). Its arguments are checked first and every refusal names
 * `<whatIf options>` or `<whatIf arguments>`, never a flag.
 */
import { filledBrakeConfig, type BrakeConfig, type BrakeSettings } from '../brakes/config.js';
import { UserError } from '../errors.js';
import { checkArguments } from '../options/arguments.js';
import { brakeIssues, choiceIssue, isObject, validateOptions, type Issue } from '../options/rules.js';
import { whatIf as whatIfEngine, type WhatIfRun, type WhatIfSetting, type WhatIfTotal } from '../replay/whatif.js';
import type { Trace } from '../trace/types.js';
import { inOwnWords, pricedTraces, RUN_SHAPE_KEYS, runShapeIssues, type RunShapeOptions } from './entry.js';
import type { ReportWarning } from '../report/warnings.js';
import { whatIfWarnings } from './warnings.js';

const ENTRY = 'whatIf';

/**
 * One setting to try, as `--try` gives it: `onTop` names the brakes set on top of each run's baseline, every
 * other recorded brake kept (`{ onTop: { maxSteps: 50 } }` is `--try max-steps=50`); `brakes` is a whole set in
 * the baseline's place (`{ brakes: { maxSteps: 50 } }` is `--try preset=none,max-steps=50`). Exactly one of them.
 */
export interface WhatIfTry {
  /** How the totals name it (`setting`); default `setting N` (1-based). */
  name?: string;
  onTop?: BrakeSettings;
  brakes?: BrakeSettings;
}

export interface WhatIfLibraryOptions extends RunShapeOptions {
  /** `fast` (default): the compiled kernel; `readable`: the loop itself (tests hold them equal). */
  engine?: 'fast' | 'readable';
}

export interface WhatIfResult {
  /** Per run: its baseline, and a cell per setting (in the settings' order). */
  runs: WhatIfRun[];
  /** Per setting: runs, completions, completions stopped (`falseStops`), runs caught, spend (bigint picodollars). */
  totals: WhatIfTotal[];
  /** What could make a figure mislead, as `loopcost whatif --format json`'s `warnings` (none: nothing). */
  warnings: ReportWarning[];
}

const KEYS = [...RUN_SHAPE_KEYS, 'engine'] as const;

function tryIssues(issue: Issue, tries: unknown): void {
  if (!Array.isArray(tries) || tries.length === 0) {
    issue('settings', tries === undefined ? 'missing_input' : 'invalid_input', tries === undefined ? 'is missing' : Array.isArray(tries) ? 'is empty' : 'is not a list', 'a list of settings to try, e.g. [{ onTop: { maxSteps: 50 } }, { brakes: { maxCostPico: usdToPico(0.05) } }]');
    return;
  }
  const names = new Set<string>();
  tries.forEach((tried: unknown, i) => {
    const field = `settings[${i}]`;
    if (!isObject(tried)) return issue(field, 'invalid_input', 'is not an object', '{ onTop: { … } } or { brakes: { … } }');
    const unknown = Object.keys(tried).filter((key) => !['name', 'onTop', 'brakes'].includes(key));
    for (const key of unknown) issue(`${field}.${key}`, 'unrecognized_keys', `unknown setting field ${JSON.stringify(key)}`, 'a setting has name, onTop or brakes');
    if ((tried.onTop === undefined) === (tried.brakes === undefined)) issue(field, 'invalid_input', 'needs exactly one of onTop and brakes', 'onTop: set on top of each run’s recorded brakes; brakes: a whole set in their place');
    if (tried.onTop !== undefined) brakeIssues(issue, tried.onTop, `${field}.onTop`);
    if (tried.brakes !== undefined) brakeIssues(issue, tried.brakes, `${field}.brakes`);
    if (tried.name !== undefined && (typeof tried.name !== 'string' || tried.name === '')) issue(`${field}.name`, 'invalid_value', 'is not a name', 'a text, or leave it out');
    const name = typeof tried.name === 'string' ? tried.name : `setting ${i + 1}`;
    if (names.has(name)) issue(`${field}.name`, 'duplicate', `${JSON.stringify(name)} is named twice`, 'give each setting its own name');
    names.add(name);
  });
}

/** A tried setting as the engine takes it (what replay/whatif.ts WhatIfSetting says of the two kinds). */
function engineSetting(tried: WhatIfTry, i: number): WhatIfSetting {
  const name = tried.name ?? `setting ${i + 1}`;
  if (tried.brakes !== undefined) return { name, brakes: filledBrakeConfig(tried.brakes) };
  const onTop: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(tried.onTop!)) if (value !== undefined) onTop[key] = value;
  return { name, brakes: filledBrakeConfig(tried.onTop), onTop: onTop as Partial<BrakeConfig> };
}

/**
 * `loopcost whatif TRACES --try …` on `traces`: each run under its recorded brakes and under each of `settings`.
 * Figures equal the command's JSON for the same runs (test/library/commandEntries.test.ts).
 */
export function whatIf(traces: readonly Trace[], settings: readonly WhatIfTry[], options: WhatIfLibraryOptions): WhatIfResult {
  checkArguments(ENTRY, (issue) => tryIssues(issue, settings));
  validateOptions(ENTRY, options, KEYS, (issue, o) => {
    runShapeIssues(issue, o);
    choiceIssue(issue, 'engine', o.engine, ['fast', 'readable'], "leave it out for 'fast'");
  });
  // Every run priced before any replay (a model the table lacks named at `traces`/`model`, not mid-run).
  pricedTraces(ENTRY, traces, options);
  const tried = settings.map(engineSetting);
  const engine = { strategy: options.strategy ?? { kind: 'full' as const }, prices: options.prices, ...pick(options) };
  if (traces.length === 0) throw new UserError({ file: `<${ENTRY} arguments>`, field: 'traces', code: 'no_runs', message: 'is empty: no run to ask what-ifs of', hint: 'readTraces(paths) reads the runs of files, directories and globs' });
  const { runs, totals } = inOwnWords(ENTRY, () => whatIfEngine(traces, tried, engine));
  return { runs, totals, warnings: whatIfWarnings(traces, tried, { prices: options.prices, strategy: engine.strategy, ...(options.model === undefined ? {} : { model: options.model }), runs }) };
}

function pick(options: WhatIfLibraryOptions): Partial<Pick<WhatIfLibraryOptions, 'model' | 'latency' | 'engine'>> {
  return {
    ...(options.model === undefined ? {} : { model: options.model }),
    ...(options.latency === undefined ? {} : { latency: options.latency }),
    ...(options.engine === undefined ? {} : { engine: options.engine }),
  };
}

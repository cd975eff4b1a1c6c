/**
 * The drift of a check against its baseline (`--baseline FILE --tolerance 5%`). Rates drift by points
 * (5% = 0.05), money by its share of the baseline. Scenarios match by their key (the path relative to the
 * baseline's directory, scenarioKey.ts), else as a rename (scenarioMatch.ts); one not run is `gone` and fails,
 * as a DRIFT does. A price change is a change in the prices of the models the runs were priced at, not
 * in the table's identity: when one changed, the runs are measured again under the baseline's prices
 * and compared there (drift there is not the price change); a figure only the new prices moved is
 * labelled a price change. What else changed in a scenario since the baseline (its settings, models, run
 * counts: settingChanges.ts) is said beside its figures, and what to do to accept a change.
 */
import { matchScenarios, type Renamed, type ScenarioMatching } from './scenarioMatch.js';
import { acceptHint } from './acceptHint.js';
import type { PriceSource, PriceTable } from '../pricing/types.js';
import { BASELINE_SCHEMA, priceIdentity, type BaselineFile, type BaselineScenario, type PriceIdentity } from './baselineFile.js';
import { pairWithBaseline, type Pairing, type Unpaired } from './pairedAgents.js';
import { BaselinePrices, changedPrices, type PriceRow, type PriceRowChange } from './modelPrices.js';
import type { ScenarioCheck } from './run.js';
import type { ScenarioKeys } from './scenarioKey.js';
import { scenarioChanges, type ScenarioChanges } from './settingChanges.js';
import { brakesRemoved, type BrakeRemoved } from './brakesRemoved.js';
import { brakesHeldField, judgeBrakes, type BrakeLoosened, type BrakesHeldDrift, type Judgement } from './brakesLoosened.js';
import { modelSwitchFields, modelSwitchUnjudged, type UnjudgedSwitch } from './contextLimitLoosened.js';
import { runsDropped, type RunsDropped } from './runsDropped.js';
import { budgetBindsField, figureRows, sameAgents, type BudgetBindsDrift } from './driftFigures.js';
import type { RateRuns } from './rareRates.js';
import type { DistrustedBand } from './noiseTrust.js';
import { worstCaseJudged, type WorstCaseMove } from './worstCaseDrift.js';
import { correctionsChange, correctionsLabel, type CorrectionsChange } from '../pricing/correctionsChange.js';

export { BASELINE_SCHEMA, parseBaseline, parseTolerance, renderBaseline, type BaselineFile, type BaselineFigures } from './baselineFile.js';

/**
 * `noise`: past the tolerance, within what resampling the synthetic runs explains at 95% (no failure);
 * `not held`: the largest cost of a run of a synthetic sample, reported, not judged; `not compared`: the
 * total spend of different run counts (the mean per run is compared). The worst case per run the brakes
 * allow (worstCaseDrift.ts): `looser`, it rose past the tolerance or to unbounded (a failure); `tighter`, it
 * fell past it (reported, no failure).
 */
export type DriftStatus = 'ok' | 'drift' | 'noise' | 'not held' | 'not compared' | 'price change' | 'budget binds' | 'looser' | 'tighter' | 'new' | 'gone';

export interface DriftRow {
  /** The scenario file as checked (`gone`: the baseline's file, from the working directory). */
  scenario: string;
  figure: string;
  baseline: number | null;
  measured: number | null;
  /** Under a price change: the figure measured under the baseline's prices (what `status` judges). */
  atBaselinePrices?: number | null;
  /**
   * The signed change of `measured` from what `status` judged it against (`relativeChangeFrom`), as a share of
   * that (-0.424: 42.4% lower; rates too, whose tolerance is in points): the baseline's figure, or for another
   * sample paired with the baseline's agents their figure on these draws (`paired`). null: a value is none, or
   * what it is judged against is 0 and the figure is not. Absent on `new` and `gone` rows.
   */
  relativeChange?: number | null;
  /** What `relativeChange` (and `relativeChangeAtBaselinePrices`) is a change from: `baseline` (the stored figure) or `paired`. Absent on `new` and `gone` rows. */
  relativeChangeFrom?: 'baseline' | 'paired';
  /** Under a price change: the same, of `atBaselinePrices` (what a DRIFT there is). */
  relativeChangeAtBaselinePrices?: number | null;
  /**
   * Another sample than the baseline's, paired (pairedAgents.ts): the figure of the baseline's agents run again
   * on this check's draws (at the baseline's prices), what `status` judges the figure against.
   */
  paired?: number | null;
  /** Paired: the signed change of `measured` from the baseline's stored figure (`baseline`), which decided nothing (it may even have the other sign). */
  relativeChangeFromStored?: number | null;
  /**
   * With synthetic runs: the change resampling explains at 95% (noise.ts), in the figure's units (USD, a
   * share); a change within it is no drift. null: a value is none. Absent where the runs replay exactly.
   */
  noise?: number | null;
  /** A rate: its count on both sides, in runs (completions; false stops), what its relative rule counts (rareRates.ts). */
  rateRuns?: RateRuns;
  /** The band the baseline stored for this figure is wider than a resample of its runs could give: not used (noiseTrust.ts). */
  noiseDistrusted?: DistrustedBand;
  status: DriftStatus;
}

export interface Drift extends BudgetBindsDrift, BrakesHeldDrift {
  file: string;
  tolerance: number;
  /** The baseline's scenarios this check matched, and those it did not (`gone`: a failure). */
  scenarios: { inBaseline: number; matched: number; gone: number; new: number };
  /** The checked scenarios matched as a baseline scenario under another path (scenarioMatch.ts): compared as it. Absent when none is. */
  renamed?: Renamed[];
  /** The models whose prices differ from the baseline's: figures are judged under the baseline's prices. */
  priceChange?: { baseline: string; now: string; models: PriceRowChange[] };
  /** The tables differ but the models run are priced alike: figures are compared as measured. */
  tableChange?: { baseline: string; now: string; models: number };
  /** A format 1 baseline (no model prices) under a different table: money that moved may be price or drift; it is drift. */
  pricesUnknown?: { baseline: string; now: string };
  /** loopcost's corrections over the table differ from the baseline's (null: none; a baseline written before baselines named them holds none): said in the price note. */
  corrections?: CorrectionsChange;
  /** A format 1 baseline keys scenarios by their path as given where it was written. */
  formatOne?: true;
  /** How scenario keys were read when the baseline is not a file in a directory (`--baseline /dev/stdin`). */
  keysNote?: string;
  /** The loopcost that wrote the baseline, when another one checks now. */
  loopcost?: { baseline: string; now: string };
  /** Per scenario, what changed since the baseline: those with a change, and every one with a DRIFT (its changes may be none). */
  changes: ScenarioChanges[];
  /** The scenarios whose synthetic runs are the very agents the baseline ran (driftFigures.ts sameAgents): judged without a noise band. Absent when none is. */
  sameAgents?: string[];
  /** The scenarios whose runs are another sample than the baseline's, judged against its agents run again on their draws (pairedAgents.ts). Absent when none is. */
  paired?: string[];
  /** Those judged against the noise band instead, each with why its baseline's agents were not run again (`rewrite: false`: writing the baseline again would not pair it). Absent when none is. */
  unpaired?: Unpaired[];
  /** The brakes the baseline had that are off now: each a failure (brakesRemoved.ts). Absent when none is. */
  brakesRemoved?: BrakeRemoved[];
  /** The brakes that hold less than the baseline's (a limit raised, a mode that stops later): each a failure (brakesLoosened.ts). Absent when none does. */
  brakesLoosened?: BrakeLoosened[];
  /** The scenarios under `context-window=model` whose model switch went unjudged, the baseline holding no context windows: their models changed, or it cannot tell them (`modelsUnknown`) (contextLimitLoosened.ts). Absent when none is. */
  modelSwitchNotJudged?: string[];
  /** Of `modelSwitchNotJudged`, those whose baseline cannot tell the models its runs were priced at: whether they changed is not known. Absent when none is. */
  modelsUnknown?: string[];
  /** The scenarios checked on fewer runs than the baseline's: each a failure (runsDropped.ts). Absent when none is. */
  runsDropped?: RunsDropped[];
  /** The baseline file written again by this check (`--update-baseline` naming it): its failures accepted, none fails the check (gateCounts.ts). */
  accepted?: string;
  /** The worst case per run the brakes allow, where it moved past the tolerance (a rise fails), and the scenarios whose baseline holds none (worstCaseDrift.ts). Absent when neither. */
  worstCase?: WorstCaseDrift;
  rows: DriftRow[];
  /** What to do when a figure drifted, a scenario is new or gone: write the baseline again, and how. */
  hint?: string;
}

/** The worst cases that moved, and the scenarios not compared (a baseline written before baselines held it). */
export interface WorstCaseDrift {
  moved: WorstCaseMove[];
  notCompared: string[];
}

function priceLabel(p: PriceIdentity): string {
  const parts = [`${p.name} ${p.version} (sha256 ${p.hash})${p.corrections === undefined ? '' : ` + ${correctionsLabel(p.corrections)}`}`];
  if (p.overridesHash !== undefined) parts.push(`overridden (sha256 ${p.overridesHash})`);
  if (p.asOf !== undefined) parts.push(`as of ${p.asOf}`);
  return parts.join(', ');
}

export interface DriftOptions {
  file: string;
  tolerance: number;
  prices: PriceSource;
  keys: ScenarioKeys;
  /** Said in the report: how the keys were read, when not relative to the baseline file's directory. */
  keysNote?: string;
  /** Under a price change: the same scenarios measured under the baseline's prices, in the same order. */
  priceChange?: { models: PriceRowChange[]; atBaselinePrices: readonly ScenarioCheck[] };
  /** How many models the runs were priced at (for the note when only the table's identity changed). */
  modelsPriced?: number;
  /** loopcost's version now (the baseline stores the one that wrote it). */
  version?: string;
  /** Runs the baseline's agents on a check's draws (pairedAgents.ts); absent: another sample is judged against the noise band. */
  pair?: (check: ScenarioCheck, before: BaselineScenario) => Pairing | undefined;
  /** The checks matched to the baseline's scenarios already (matchScenarios, with `file`, `keys`, `keysNote`); absent: matched here. */
  matching?: ScenarioMatching;
}

/** The models a baseline scenario's runs were priced at: its own list, else the baseline's one model (format 2 priced every scenario at it). */
function modelsOf(entry: BaselineFile['scenarios'][number], baseline: BaselineFile): readonly string[] | undefined {
  if (entry.models !== undefined) return entry.models;
  const models = baseline.baseline === BASELINE_SCHEMA ? [...new Set(baseline.models.map((row) => row.model))] : [];
  return models.length === 1 && entry.figures.runs > 0 ? models : undefined;
}

/** What a check's scenarios said against the baseline, gathered scenario by scenario (compareScenario). */
interface Gathered {
  rows: DriftRow[];
  changes: ScenarioChanges[];
  removed: BrakeRemoved[];
  loosened: BrakeLoosened[];
  brakes: Pick<Judgement, 'held' | 'removedWith'>; // judged with `loosened` (judgeBrakes)
  switchNotJudged: UnjudgedSwitch[];
  dropped: RunsDropped[];
  worst: WorstCaseDrift;
  sameAgents: string[];
  paired: string[];
  unpaired: Unpaired[];
}

/**
 * One scenario against its baseline entry, added to `into`: its figures (paired with the baseline's agents on
 * its draws when it is another sample), its worst case, the brakes removed and what changed since the baseline.
 * `atBaselinePrices`: the scenario run again under the baseline's prices (a price change).
 */
function compareScenario(check: ScenarioCheck, before: BaselineScenario, args: { atBaselinePrices: ScenarioCheck | undefined; options: DriftOptions; baseline: BaselineFile; into: Gathered }): void {
  const { atBaselinePrices, options, into } = args;
  const judged = atBaselinePrices ?? check;
  const same = sameAgents(judged, before);
  const pair = same ? undefined : options.pair?.(judged, before);
  if (pair !== undefined) ('metrics' in pair ? into.paired.push(check.source) : into.unpaired.push({ scenario: check.source, reason: pair.unpaired, ...(pair.rewrite === false ? { rewrite: false as const } : {}) }));
  const pairedWith = pair !== undefined && 'metrics' in pair ? { paired: pair.metrics } : {};
  const repriced = atBaselinePrices === undefined ? {} : { atBaselinePrices };
  const figures = figureRows(check, before, { tolerance: options.tolerance, ...repriced, ...pairedWith });
  const worstCase = worstCaseJudged(check, before, { tolerance: options.tolerance, ...repriced });
  into.rows.push(...figures, ...(worstCase.row === undefined ? [] : [worstCase.row]));
  if (worstCase.move !== undefined) into.worst.moved.push(worstCase.move);
  if (worstCase.notCompared === true) into.worst.notCompared.push(check.source);
  into.removed.push(...brakesRemoved(before, check));
  const brakes = judgeBrakes(before, check);
  into.loosened.push(...brakes.loosened), into.brakes.held.push(...brakes.held), into.brakes.removedWith.push(...brakes.removedWith);
  const modelsThen = modelsOf(before, args.baseline);
  const unjudged = modelSwitchUnjudged(before, { scenario: check.source, baseline: modelsThen, now: check.models });
  if (unjudged !== undefined) into.switchNotJudged.push(unjudged);
  into.dropped.push(...runsDropped(before, check));
  if (same) into.sameAgents.push(check.source);
  const changed = scenarioChanges(before, check, modelsThen);
  if (changed.length > 0 || figures.some((row) => row.status === 'drift') || worstCase.row?.status === 'looser') into.changes.push({ scenario: check.source, changes: changed });
}

/**
 * Every figure of every scenario against the baseline's (each matched by its path, or as a rename:
 * scenarioMatch.ts, which refuses a baseline none matched); the baseline's scenarios not checked are `gone`.
 */
export function compareToBaseline(checks: readonly ScenarioCheck[], baseline: BaselineFile, args: DriftOptions): Drift {
  const formatOne = baseline.baseline !== BASELINE_SCHEMA;
  const { entries, gone, renamed, pathOf, keysNote } = args.matching ?? matchScenarios(checks, baseline, { file: args.file, keys: args.keys, keysNote: args.keysNote });
  const into: Gathered = { rows: [], changes: [], removed: [], loosened: [], brakes: { held: [], removedWith: [] }, switchNotJudged: [], dropped: [], worst: { moved: [], notCompared: [] }, sameAgents: [], paired: [], unpaired: [] };
  const { rows, changes, removed, worst } = into;
  let added = 0;
  checks.forEach((check, i) => {
    const before = entries[i];
    if (before !== undefined) return compareScenario(check, before, { atBaselinePrices: args.priceChange?.atBaselinePrices[i], options: args, baseline, into });
    added++;
    rows.push({ scenario: check.source, figure: 'scenario', baseline: null, measured: null, status: 'new' });
  });
  for (const entry of gone) rows.push({ scenario: pathOf(entry), figure: 'scenario', baseline: null, measured: null, status: 'gone' });
  const now = priceIdentity(args.prices);
  const tables = { baseline: priceLabel(baseline.prices), now: priceLabel(now) };
  const tableChanged = tables.baseline !== tables.now;
  const corrections = correctionsChange(baseline.prices, now);
  const hint = acceptHint(args.file, rows, { removed: removed.length, loosenedOrFewer: into.loosened.length + into.dropped.length, renamed: renamed.length });
  return {
    file: args.file,
    tolerance: args.tolerance,
    scenarios: { inBaseline: baseline.scenarios.length, matched: baseline.scenarios.length - gone.length, gone: gone.length, new: added },
    ...(renamed.length === 0 ? {} : { renamed }),
    ...(args.priceChange === undefined ? {} : { priceChange: { ...tables, models: args.priceChange.models } }),
    ...(args.priceChange === undefined && tableChanged && !formatOne ? { tableChange: { ...tables, models: args.modelsPriced ?? 0 } } : {}),
    ...(tableChanged && formatOne ? { pricesUnknown: tables } : {}),
    ...(corrections === undefined ? {} : { corrections }),
    ...(formatOne ? { formatOne: true as const } : {}),
    ...(keysNote === undefined ? {} : { keysNote }),
    ...(args.version === undefined || args.version === baseline.loopcost ? {} : { loopcost: { baseline: baseline.loopcost, now: args.version } }),
    changes,
    ...(into.sameAgents.length === 0 ? {} : { sameAgents: into.sameAgents }),
    ...(into.paired.length === 0 ? {} : { paired: into.paired }),
    ...(into.unpaired.length === 0 ? {} : { unpaired: into.unpaired }),
    ...(removed.length === 0 ? {} : { brakesRemoved: removed }),
    ...(into.loosened.length === 0 ? {} : { brakesLoosened: into.loosened }), ...brakesHeldField(into.brakes),
    ...modelSwitchFields(into.switchNotJudged),
    ...(into.dropped.length === 0 ? {} : { runsDropped: into.dropped }), ...budgetBindsField(checks, { rows, priceChange: args.priceChange }),
    ...(worst.moved.length === 0 && worst.notCompared.length === 0 ? {} : { worstCase: worst }),
    rows,
    ...(hint === undefined ? {} : { hint }),
  };
}

export interface BaselineRun {
  file: string;
  /** loopcost's version now. */
  version: string;
  tolerance: number;
  /** The table the check priced with, and the prices of the models its runs resolved (ResolvedPrices). */
  prices: PriceTable;
  models: readonly PriceRow[];
  keys: ScenarioKeys;
  keysNote?: string;
  /** The same scenarios run again under another table, in the same order. */
  rerun: (prices: PriceTable) => ScenarioCheck[];
}

/** A check's drift from its baseline, and which baseline scenario each check was matched as (scenarioMatch.ts). */
export type BaselineDrift = { drift: Drift; matching: ScenarioMatching };

/**
 * The check against its baseline: when the prices of a model the runs used differ from the baseline's,
 * the scenarios run again under the baseline's prices (brakes that stop on spend see those prices too),
 * and every figure is judged there. With the drift, which baseline scenario each check was matched as
 * (scenarioMatch.ts): what a baseline written over this one carries of the rest (baselineCarry.ts).
 */
export function driftFromBaseline(checks: readonly ScenarioCheck[], baseline: BaselineFile, args: BaselineRun): BaselineDrift {
  const stored = baseline.baseline === BASELINE_SCHEMA ? baseline.models : [];
  const models = changedPrices(args.models, stored);
  const atBaselinePrices = models.length === 0 ? undefined : args.rerun(new BaselinePrices(args.prices, stored));
  const matching = matchScenarios(checks, baseline, { file: args.file, keys: args.keys, keysNote: args.keysNote });
  const drift = compareToBaseline(checks, baseline, {
    file: args.file,
    tolerance: args.tolerance,
    prices: args.prices.source,
    keys: args.keys,
    matching,
    modelsPriced: args.models.length,
    version: args.version,
    ...(atBaselinePrices === undefined ? {} : { priceChange: { models, atBaselinePrices } }),
    // The baseline's agents run again at its own prices (its figures were made there), on each check's draws.
    pair: pairWithBaseline(new BaselinePrices(args.prices, stored), args.file),
  });
  return { drift, matching };
}

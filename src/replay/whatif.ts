/**
 * What-if on real runs: replay each run under its recorded settings (the baseline) and under other brake
 * settings, and say per run and in total what each would have done — stop reasons, steps, spend, and
 * completions stopped, judged against the baseline by the one rule (src/metrics/groundTruth.ts): a
 * brake ending a run that completed in the baseline; for a run with ground truth (a generated trace: its
 * header's; a scenario file's synthetic run), a brake ending it before the step its task is done at,
 * among the runs whose task is done in the baseline (a retrier that gives up and answers anyway is none; an
 * asker stopped after its answer is caught).
 */
import { NO_BRAKES, type BrakeConfig } from '../brakes/config.js';
import type { StopReason } from '../brakes/stopReasons.js';
import { stopVerdict, Verdict, type BaselineTruth } from '../metrics/groundTruth.js';
import { stopCodeOf } from '../kernel/stopCodes.js';
import { COMMAND_LINE_CONTEXT, type CacheMode, type ContextStrategy } from '../context/strategy.js';
import { recordedBudgetPico, SETTINGS_AS_IS } from '../trace/recordedSettings.js';
import type { PriceTable } from '../pricing/types.js';
import type { Trace } from '../trace/types.js';
import type { LatencyModel } from '../loop/latency.js';
import { replayCompiled } from '../fast/replayFast.js';
import { outcomeOf, stopByBoundOf } from '../fast/runState.js';
import { runSettings, type RunSettings } from '../fast/settings.js';
import { brakeLimits } from '../kernel/limits.js';
import { flattenPrices } from '../kernel/prices.js';
import { defaultCacheMode, replayTrace } from './replay.js';
import { tracePricing } from './tracePricing.js';
import { summaryTriggerCheck } from './whatifSummary.js';
import { COMMAND_LINE_MODEL, requireTrace } from '../options/given.js';
import { compiledOf } from './compiledRuns.js';
import { meteredCacheOf, recordedStrategyOf, recordingUnder } from './recordedStrategy.js';
import { inRunContext } from './runContext.js';
import { STRATEGY_FIGURE_KEYS, type StrategyFigures } from '../loop/types.js';
import type { StrategyTotals, TasksDone } from '../population/sweep.js';
import { taskDoneOf, type ReplayTruth } from './whatifTasksDone.js';

import { whatIfTotals } from './whatifTotals.js';

export { whatIfBaselineStrategy, whatIfBaselineTotals } from './whatifTotals.js';
export { whatIfTotals };

export interface WhatIfSetting {
  name: string;
  /** The setting's own brakes: with no `onTop`, the whole set each run replays under, in place of its baseline's. */
  brakes: BrakeConfig;
  /**
   * The brake fields the setting names (`--try max-cost=0.6`: the budget), set on top of each run's baseline
   * brakes, every other brake kept (a what-if of one change). Absent: `brakes` replaces the baseline's.
   */
  onTop?: Partial<BrakeConfig>;
}

/** The brakes a run replays under for a setting: its baseline's with the setting's fields on top, or the setting's own whole set. */
export function triedBrakes(baseline: BrakeConfig, setting: Pick<WhatIfSetting, 'brakes' | 'onTop'>): BrakeConfig {
  if (setting.onTop === undefined) return setting.brakes;
  const brakes: Record<string, unknown> = { ...baseline };
  for (const [key, value] of Object.entries(setting.onTop)) {
    if (value === undefined) delete brakes[key];
    else brakes[key] = value;
  }
  return brakes as unknown as BrakeConfig;
}

export interface WhatIfCell extends Partial<StrategyFigures> {
  stopReason: StopReason;
  steps: number;
  costPico: number;
  /** The brake stopped a run that completed in the baseline (with ground truth: before the step its task is done at, the task done in the baseline). */
  falseStop: boolean;
  /** The brake stopped the run before the baseline's end, and that is no false stop (groundTruth.ts's verdict `caught`). */
  caught: boolean;
  /** A caught run's spend saved against its baseline. */
  savedPico: number;
  /** The predictive budget bound refused the call the run stopped at (its stop's byPredictiveBound). */
  predictiveStop: boolean;
  /** Whether it did its task (whatifTasksDone.ts): present where the run carries ground truth. */
  taskDone?: boolean;
}

/** A run under its baseline brakes, with its strategy figures (present where not 0) as each setting's. */
export interface WhatIfBaseline extends Partial<StrategyFigures> {
  stopReason: StopReason;
  steps: number;
  costPico: number;
  /** The predictive budget bound refused the call the run stopped at (present when so). */
  predictiveStop?: true;
  /** Whether it did its task (whatifTasksDone.ts): present where the run carries ground truth. */
  taskDone?: boolean;
}

export interface WhatIfRun {
  source: string;
  baseline: WhatIfBaseline;
  settings: WhatIfCell[];
  /** Its completions stopped were judged by its ground truth (a synthetic run, a generated trace), not its baseline's stop reason. */
  byGroundTruth?: true;
}

/** `StrategyTotals`: summary calls and cost, cache hits lost, skipped actions (absent where 0). */
export interface WhatIfTotal extends StrategyTotals {
  setting: string;
  runs: number;
  completed: number;
  falseStops: number;
  /** Runs the baseline did not complete that this setting stopped early. */
  caughtRuns: number;
  costPico: bigint;
  savedPico: bigint;
  stopReasons: Partial<Record<StopReason, number>>;
  /** Runs the predictive budget bound stopped (their stops' byPredictiveBound). */
  predictiveStops: number;
  /** Tasks done as sweep's rows count them (whatifTasksDone.ts): present where some run carries ground truth. */
  tasksDone?: TasksDone;
}

/**
 * The brakes a run was recorded with (its header's `recordedSettings`), exactly as it ran under them: the
 * baseline of a what-if and `--preset recorded`. Every brake a real loop's recording states (counts, modes,
 * the budget in picodollars, the timeout in ms, fractions kept); an importer's budget in USD read as the
 * decimal it is (0 is a budget of 0); what the header leaves out is off (modes: the CLI's defaults).
 */
export function recordedBrakes(trace: Trace): BrakeConfig {
  // A library caller's missing run is a UserError, not a TypeError (its header is all this reads).
  if (typeof trace !== 'object' || trace === null || typeof trace.header !== 'object' || trace.header === null) requireTrace('recordedBrakes', trace);
  const settings = trace.header.recordedSettings ?? {};
  const brakes: Record<string, unknown> = { ...NO_BRAKES };
  for (const key of SETTINGS_AS_IS) if (settings[key] !== undefined) brakes[key] = settings[key];
  const costPico = settings.maxCostPico ?? (settings.maxCostUsd === undefined ? undefined : recordedBudgetPico(settings.maxCostUsd));
  if (costPico !== undefined) brakes.maxCostPico = costPico;
  const timeoutMs = settings.timeoutMs ?? (settings.timeoutSeconds === undefined ? undefined : settings.timeoutSeconds * 1000);
  if (timeoutMs !== undefined) brakes.timeoutMs = timeoutMs;
  return brakes as unknown as BrakeConfig;
}

export interface WhatIfOptions {
  strategy: ContextStrategy;
  prices: PriceTable;
  model?: string;
  latency?: LatencyModel;
  /**
   * `fast` (default): each run compiled once (and kept with its Trace object) and replayed under every
   * setting by the compiled kernel (src/fast), which tests prove equal to the readable loop;
   * `readable`: through the loop itself.
   */
  engine?: 'fast' | 'readable';
}

/**
 * A run's stop reason, steps and spend under one brake setting, whether the predictive bound refused the call
 * it stopped at (its stop's byPredictiveBound), its strategy figures (present where not 0), and the run's
 * ground truth when the replayer knows it (a synthetic agent's: its task done by the end of the run, and at which step).
 */
export type Replayer = (brakes: BrakeConfig) => { stopReason: StopReason; steps: number; costPico: number; byPredictiveBound: boolean; truth?: ReplayTruth } & Partial<StrategyFigures>;

/** Run settings per (strategy, cache mode, latency) of one whatIf call: built once, shared by every run. */
type SettingsCache = Map<CacheMode, RunSettings>;

function replayerFor(trace: Trace, options: WhatIfOptions, settingsCache: SettingsCache): Replayer {
  const common = {
    strategy: options.strategy, strategyPlace: COMMAND_LINE_CONTEXT,
    prices: options.prices,
    ...(options.model === undefined ? {} : { model: options.model }),
    ...(options.latency === undefined ? {} : { latency: options.latency }),
  };
  const pricing = tracePricing(trace, { ...common, modelPlace: COMMAND_LINE_MODEL });
  // A live run's recording that states its strategy replays as its loop ran it (replay.ts, recordedStrategy.ts): the readable loop.
  if (options.engine === 'readable' || recordedStrategyOf(trace, options.strategy) !== undefined) {
    return (brakes) => {
      const r = replayTrace(trace, { ...common, pricing, brakes, engine: 'readable' });
      return { stopReason: r.stopReason, steps: r.steps, costPico: r.costPico, byPredictiveBound: r.stopByPredictiveBound === true, ...strategyFiguresOf(r) };
    };
  }
  const compiled = compiledOf(recordingUnder(trace, options.strategy)); // (a recording under another strategy than it states: rebuilt)
  const flat = flattenPrices(pricing);
  const checkTrigger = summaryTriggerCheck(trace, options, pricing);
  const cache = meteredCacheOf(recordingUnder(trace, options.strategy), options.strategy.cache ?? defaultCacheMode(trace)); // (rebuilt: made once)
  let settings = settingsCache.get(cache);
  if (settings === undefined) {
    settings = runSettings(options.strategy, cache, options.latency);
    settingsCache.set(cache, settings);
  }
  const run = settings;
  return (brakes) => {
    checkTrigger(brakes);
    const limits = brakeLimits(brakes, flat.contextWindow);
    return inRunContext(trace, () => {
      const st = replayCompiled(compiled, run, limits, flat);
      const r = outcomeOf(compiled, st, limits, flat);
      return { stopReason: r.reason, steps: r.steps, costPico: r.costPico, byPredictiveBound: stopByBoundOf(st, limits), ...strategyFiguresOf(r) };
    });
  };
}

/** One run to ask what-ifs of: its baseline brakes and how to replay it under any brakes. */
export interface WhatIfSubject {
  source: string;
  baseline: BrakeConfig;
  replay: Replayer;
  /** How the baseline is replayed when not as every setting is (a tree's: without the per-agent limits the settings bind). */
  replayBaseline?: Replayer;
  /** How a setting is replayed when not as every other is (a tree's: a setting on top of the baseline keeps the per-agent limits its recordings state). */
  replayTry?: (setting: WhatIfSetting) => Replayer;
  /** The run's ground truth with no brakes (a generated trace's header), when the replayer gives none. */
  truth?: BaselineTruth;
}

/**
 * Each run under its baseline (the brakes it was recorded with: recordedBrakes) and under each setting, and
 * each setting's totals. A setting is one of two kinds, as WhatIfSetting says:
 * - with `onTop`, a what-if of one change: the fields `onTop` names set on top of each run's baseline, every
 *   other recorded brake kept — what `loopcost whatif --try max-steps=50` asks (`onTop: { maxSteps: 50 }`);
 * - without, `brakes` is the whole set each run replays under, in place of its baseline's: a recorded budget
 *   or step cap the setting does not hold is gone — what `--try preset=none,max-steps=50` asks (a sweep's
 *   configuration, which replaces the flags' brakes, is this kind).
 * So `{ name: 'max-steps=50', brakes: { ...NO_BRAKES, maxSteps: 50 } }` is a step cap alone, not the
 * recorded brakes with a step cap of 50: give `onTop: { maxSteps: 50 }` for that
 * (test/cli/whatifSettingKinds.test.ts holds both kinds equal to the CLI's --try).
 */
export function whatIf(
  traces: Iterable<Trace>,
  settings: readonly WhatIfSetting[],
  options: WhatIfOptions,
): { runs: WhatIfRun[]; totals: WhatIfTotal[] } {
  return whatIfSubjects(traceWhatIfSubjects(traces, options), settings);
}

/** Recorded runs as what-if subjects: baseline = the brakes each was recorded with. */
export function* traceWhatIfSubjects(traces: Iterable<Trace>, options: WhatIfOptions): Generator<WhatIfSubject> {
  const subjectOf = traceWhatIfSubject(options);
  for (const trace of traces) yield subjectOf(trace);
}

/** Makes a recorded run a what-if subject (one at a time, as runs stream in); run settings built once for all. */
export function traceWhatIfSubject(options: WhatIfOptions): (trace: Trace) => WhatIfSubject {
  const settingsCache: SettingsCache = new Map();
  return (trace) => ({
    source: trace.source,
    baseline: recordedBrakes(trace),
    replay: replayerFor(trace, options, settingsCache),
    ...(trace.header.synthetic === undefined ? {} : { truth: trace.header.synthetic }),
  });
}

/** What-ifs over any runs (recorded traces, synthetic agents): each under its baseline and every setting. */
export function whatIfSubjects(subjects: Iterable<WhatIfSubject>, settings: readonly WhatIfSetting[]): { runs: WhatIfRun[]; totals: WhatIfTotal[] } {
  const runs: WhatIfRun[] = [];
  for (const subject of subjects) runs.push(whatIfRun(subject, settings));
  return { runs, totals: whatIfTotals(runs, settings) };
}

/** One run under its baseline brakes and under each setting. */
export function whatIfRun(subject: WhatIfSubject, settings: readonly WhatIfSetting[]): WhatIfRun {
  const base = (subject.replayBaseline ?? subject.replay)(subject.baseline);
  const truth = base.truth ?? subject.truth;
  const judged = { stop: stopCodeOf(base.stopReason), steps: base.steps, truth: truth === undefined ? undefined : truthThrough(truth, base.steps) };
  const cells = settings.map((setting): WhatIfCell => {
    const brakes = triedBrakes(subject.baseline, setting);
    const r = (subject.replayTry?.(setting) ?? subject.replay)(brakes);
    const verdict = stopVerdict(stopCodeOf(r.stopReason), r.steps, judged);
    return {
      stopReason: r.stopReason,
      steps: r.steps,
      costPico: r.costPico,
      falseStop: verdict === Verdict.FalseStop,
      caught: verdict === Verdict.Caught,
      savedPico: verdict === Verdict.Caught ? Math.max(0, base.costPico - r.costPico) : 0,
      predictiveStop: r.byPredictiveBound,
      ...strategyFiguresOf(r),
      ...taskDoneOf(r, subject.truth),
    };
  });
  const baseline: WhatIfBaseline = { stopReason: base.stopReason, steps: base.steps, costPico: base.costPico, ...(base.byPredictiveBound ? { predictiveStop: true as const } : {}), ...strategyFiguresOf(base), ...taskDoneOf(base, subject.truth) };
  return { source: subject.source, baseline, settings: cells, ...(truth === undefined ? {} : { byGroundTruth: true as const }) };
}

/**
 * A run's ground truth up to the steps its baseline made: the task done (and the loop entered) only at a
 * step it reached. The baseline is the recorded or scenario settings, not no brakes: a run whose baseline
 * stops before its task is done did not complete there, and a setting stopping it stops no completion.
 */
function truthThrough(truth: BaselineTruth, steps: number): BaselineTruth {
  const reached = (step: number | undefined) => (step !== undefined && step <= steps ? step : undefined);
  return { doneAtStep: reached(truth.doneAtStep), stuckFromStep: reached(truth.stuckFromStep) };
}

/** A replay's strategy figures, those it has (absent where 0): what a what-if cell or baseline carries. */
export function strategyFiguresOf(r: Partial<StrategyFigures>): Partial<StrategyFigures> {
  const figures: Partial<StrategyFigures> = {};
  for (const key of STRATEGY_FIGURE_KEYS) if (r[key] !== undefined) figures[key] = r[key];
  return figures;
}

/**
 * The figures of a population of runs under one configuration, as `sweep`, `calibrate`, `project` and
 * `check` report them — one definition, so a `check` expectation means what a sweep column means.
 *
 * Each run is seen twice: under the configuration (`run`) and with no brakes at all (`baseline`: the
 * recorded run replayed as recorded, or the synthetic agent under its policy up to the hard cap or its provider's refusal of a prompt + max_tokens past the window). The
 * baseline tells a false stop from a caught run (groundTruth.ts, the one rule): a recorded run that
 * completes without brakes, stopped here by a brake, is a false stop; a run with ground truth (synthetic,
 * or a generated trace's header) stopped before the step its task is done at with no brakes is one. A
 * brake stop that is none, before the baseline's end, is caught (a retrier that gives up, say).
 *
 * Money stays in integer picodollars (BigInt sums) until the USD figures are made; quantiles are
 * nearest-rank (the smallest cost at or above which p% of runs lie: always a cost some run had, no
 * interpolation), so every figure can be recomputed by hand from per-run rows.
 */
import { STOP_REASONS, type StopReason } from '../brakes/stopReasons.js';
import { meanPico, picoToUsd, type Pico } from '../money.js';
import { costQuantilesInPlace, rankIndex, type CostQuantiles } from './costQuantiles.js';
import type { BaselineTruth } from './groundTruth.js';
import { TallyBuilder, type PopulationTally } from './tallyBuilder.js';

export { PicoSum } from './picoSum.js';
export { completesWithoutBrakes, isFalseStop, stopVerdict, Verdict, type BaselineTruth, type JudgedBaseline } from './groundTruth.js';
export { newTally, TallyBuilder, type CodedBaseline, type CodedRun, type PopulationTally, type TallyMark } from './tallyBuilder.js';

/** What the population figures need of one run. */
export interface RunFigures {
  stopReason: StopReason;
  steps: number;
  costPico: Pico;
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  overshootPico: Pico;
  /** The predictive budget bound refused the call the run stopped at (its stop's byPredictiveBound; absent or false: not). */
  byPredictiveBound?: boolean;
}

/** One run under the configuration and the same run with no brakes (with its ground truth when known: groundTruth.ts). */
export interface RunPair {
  run: RunFigures;
  baseline: Pick<RunFigures, 'stopReason' | 'steps' | 'costPico'> & { truth?: BaselineTruth | undefined };
  /**
   * A synthetic run that ran closed loop: its own ground truth under these brakes (src/synthetic/agent.ts).
   * Judged by it rather than by its unbraked run's done step, which brakes that change what the agent sees
   * (a skip) make no guide (groundTruth.ts).
   */
  truth?: { taskDone: boolean } | undefined;
}

export interface CostQuantilesUsd {
  mean: number;
  p50: number;
  p95: number;
  max: number;
}

/** JSON names as the sweep issue fixes them; CSV columns are the same names (nested ones dotted). */
export interface PopulationMetrics {
  runs: number;
  completed: number;
  completionRate: number;
  costUsd: number;
  costPerRunUsd: CostQuantilesUsd;
  /** Total spend over completions; null when nothing completed. */
  costPerCompletedUsd: number | null;
  /** Spend on runs that did not complete, and its share of all spend (0 when nothing was spent). */
  wastedUsd: number;
  wastedShare: number;
  /**
   * Runs a brake stops here that complete with no brakes (with ground truth: before the step their task is
   * done at with no brakes), and their rate among the runs that complete with no brakes (with ground truth:
   * whose task is done with no brakes; null: none).
   */
  falseStops: number;
  falseStopRate: number | null;
  /** Runs a brake stops here before their baseline's end that are no false stop (a task not done, or done before the stop), and the spend that saves. */
  caughtEarly: number;
  savedUsd: number;
  stopReasons: Partial<Record<StopReason, number>>;
  /** Budget stops that were the predictive bound's refusals (`budget-mode predict`; the runs' byPredictiveBound): present when any. */
  predictiveBudgetStops?: number;
  tokens: { input: number; cached: number; output: number };
  overshootUsd: number;
  /** What the same runs cost with no brakes, in all: the baseline `savedUsd` and the false stops are measured against. */
  baselineCostUsd: number;
}

/** The nearest-rank p-quantile (0 < p ≤ 1) of ascending values: the value at rank ⌈p·n⌉. */
export function nearestRank<T>(ascending: ArrayLike<T>, p: number): T | undefined {
  if (ascending.length === 0) return undefined;
  return ascending[rankIndex(ascending.length, p)];
}

/** total / n in picodollars, rounded half up, as USD. */
function meanUsd(totalPico: bigint, n: number): number {
  return n === 0 ? 0 : picoToUsd(meanPico(totalPico, n));
}

export function populationMetrics(pairs: readonly RunPair[]): PopulationMetrics {
  return tallyMetrics(populationTally(pairs));
}

/** The running sums of the pairs (what populationMetrics makes its figures of). */
export function populationTally(pairs: readonly RunPair[]): PopulationTally {
  const builder = new TallyBuilder();
  builder.reserve(pairs.length);
  for (const { run, baseline, truth } of pairs) builder.add(run, baseline, truth?.taskDone);
  return builder.finish();
}

/** `parts` added into `into` (their costs' arrays kept, not copied). */
export function mergeTallies(into: PopulationTally, ...parts: PopulationTally[]): void {
  for (const part of parts) {
    into.runs += part.runs;
    into.totalPico += part.totalPico;
    into.wastedPico += part.wastedPico;
    into.savedPico += part.savedPico;
    into.overshootPico += part.overshootPico;
    into.baselinePico += part.baselinePico;
    into.completed += part.completed;
    into.baselineCompleted += part.baselineCompleted;
    into.falseStops += part.falseStops;
    into.caughtEarly += part.caughtEarly;
    into.predictiveStops += part.predictiveStops;
    into.tokens.input += part.tokens.input;
    into.tokens.cached += part.tokens.cached;
    into.tokens.output += part.tokens.output;
    for (const reason of STOP_REASONS) if (part.stopReasons[reason] !== undefined) into.stopReasons[reason] = (into.stopReasons[reason] ?? 0) + part.stopReasons[reason];
    for (const costs of part.costs) into.costs.push(costs);
  }
}

/** False stops over the runs that complete with no brakes (with ground truth: whose task is done with no brakes; null: none). */
export function falseStopRate(tally: Pick<PopulationTally, 'falseStops' | 'baselineCompleted'>): number | null {
  return tally.baselineCompleted === 0 ? null : tally.falseStops / tally.baselineCompleted;
}

/**
 * The tally's figures; `quantiles`: its costs' quantiles when already selected (by another thread:
 * sweepShares.ts), else selected in the tally's costs (reordered: they are in no particular order).
 */
export function tallyMetrics(tally: PopulationTally, quantiles: CostQuantiles = costQuantilesInPlace(tally.costs)): PopulationMetrics {
  const { runs: n, totalPico: total, wastedPico: wasted, completed, falseStops } = tally;
  const orderedReasons: Partial<Record<StopReason, number>> = {};
  for (const reason of STOP_REASONS) if (tally.stopReasons[reason] !== undefined) orderedReasons[reason] = tally.stopReasons[reason];
  return {
    runs: n,
    completed,
    completionRate: n === 0 ? 0 : completed / n,
    costUsd: picoToUsd(total),
    costPerRunUsd: {
      mean: meanUsd(total, n),
      p50: picoToUsd(quantiles.p50),
      p95: picoToUsd(quantiles.p95),
      max: picoToUsd(quantiles.max),
    },
    costPerCompletedUsd: completed === 0 ? null : meanUsd(total, completed),
    wastedUsd: picoToUsd(wasted),
    wastedShare: total === 0n ? 0 : Number((wasted * 1_000_000_000n) / total) / 1e9,
    falseStops,
    falseStopRate: falseStopRate(tally),
    caughtEarly: tally.caughtEarly,
    savedUsd: picoToUsd(tally.savedPico),
    stopReasons: orderedReasons,
    ...(tally.predictiveStops === 0 ? {} : { predictiveBudgetStops: tally.predictiveStops }),
    tokens: { ...tally.tokens },
    overshootUsd: picoToUsd(tally.overshootPico),
    baselineCostUsd: picoToUsd(tally.baselinePico),
  };
}

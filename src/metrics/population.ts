/**
 * The figures of a population of runs under one configuration, as `sweep`, `calibrate`, `project` and
 * `check` report them — one definition, so a `check` expectation means what a sweep column means.
 *
 * Each run is seen twice: under the configuration (`run`) and with no brakes at all (`baseline`: the
 * recorded run replayed as recorded, or the synthetic agent under its policy up to the hard cap). The
 * baseline tells a false stop (a run that completes without brakes, stopped here by a brake) from a
 * caught run (one that would not have completed, stopped here before its end).
 *
 * Money stays in integer picodollars (BigInt sums) until the USD figures are made; quantiles are
 * nearest-rank (the smallest cost at or above which p% of runs lie: always a cost some run had, no
 * interpolation), so every figure can be recomputed by hand from per-run rows.
 */
import { isBrakeStop, STOP_REASONS, type StopReason } from '../brakes/stopReasons.js';
import { picoToUsd, type Pico } from '../money.js';

/** What the population figures need of one run. */
export interface RunFigures {
  stopReason: StopReason;
  steps: number;
  costPico: Pico;
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  overshootPico: Pico;
}

/** One run under the configuration and the same run with no brakes. */
export interface RunPair {
  run: RunFigures;
  baseline: Pick<RunFigures, 'stopReason' | 'steps' | 'costPico'>;
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
  /** Runs the baseline completes that a brake stops here, and their rate among the baseline's completions (null: none completes). */
  falseStops: number;
  falseStopRate: number | null;
  /** Runs the baseline does not complete that a brake stops here before their end, and the spend that saves. */
  caughtEarly: number;
  savedUsd: number;
  stopReasons: Partial<Record<StopReason, number>>;
  tokens: { input: number; cached: number; output: number };
  overshootUsd: number;
}

/** The nearest-rank p-quantile (0 < p ≤ 1) of ascending values: the value at rank ⌈p·n⌉. */
export function nearestRank<T>(ascending: ArrayLike<T>, p: number): T | undefined {
  if (ascending.length === 0) return undefined;
  const rank = Math.max(1, Math.ceil(p * ascending.length));
  return ascending[Math.min(rank, ascending.length) - 1];
}

/** total / n in picodollars, rounded half up, as USD. */
function meanUsd(totalPico: bigint, n: number): number {
  if (n === 0) return 0;
  const count = BigInt(n);
  return picoToUsd((totalPico * 2n + count) / (2n * count));
}

export function populationMetrics(pairs: readonly RunPair[]): PopulationMetrics {
  const tally = newTally();
  for (const { run, baseline } of pairs) addToTally(tally, run, baseline);
  return tallyMetrics(tally);
}

/**
 * The population figures' running sums over runs, plain data (a worker thread can send it): runs split
 * into parts and tallied apart add up (mergeTallies, in any order) to what one tally of them all gives —
 * money in BigInt, token counts whole numbers, costs sorted when the figures are made.
 */
export interface PopulationTally {
  runs: number;
  totalPico: bigint;
  wastedPico: bigint;
  savedPico: bigint;
  overshootPico: bigint;
  completed: number;
  baselineCompleted: number;
  falseStops: number;
  caughtEarly: number;
  tokens: { input: number; cached: number; output: number };
  stopReasons: Partial<Record<StopReason, number>>;
  /** Each run's cost as added, or (a Float64Array) sorted ascending: sortCosts, what a worker thread transfers and mergeTallies merges. */
  costs: number[] | Float64Array;
}

export function newTally(): PopulationTally {
  return { runs: 0, totalPico: 0n, wastedPico: 0n, savedPico: 0n, overshootPico: 0n, completed: 0, baselineCompleted: 0, falseStops: 0, caughtEarly: 0, tokens: { input: 0, cached: 0, output: 0 }, stopReasons: {}, costs: [] };
}

/** One run and its baseline into the tally. */
export function addToTally(tally: PopulationTally, run: RunFigures, baseline: RunPair['baseline']): void {
  const cost = BigInt(run.costPico);
  tally.runs += 1;
  tally.totalPico += cost;
  tally.overshootPico += BigInt(run.overshootPico);
  if (tally.costs instanceof Float64Array) tally.costs = Array.from(tally.costs);
  tally.costs.push(run.costPico);
  tally.tokens.input += run.inputTokens;
  tally.tokens.cached += run.cachedInputTokens;
  tally.tokens.output += run.outputTokens;
  tally.stopReasons[run.stopReason] = (tally.stopReasons[run.stopReason] ?? 0) + 1;
  if (run.stopReason === 'completed') tally.completed += 1;
  else tally.wastedPico += cost;
  const braked = isBrakeStop(run.stopReason);
  if (baseline.stopReason === 'completed') {
    tally.baselineCompleted += 1;
    if (braked) tally.falseStops += 1;
  } else if (braked && run.steps < baseline.steps) {
    tally.caughtEarly += 1;
    if (baseline.costPico > run.costPico) tally.savedPico += BigInt(baseline.costPico - run.costPico);
  }
}

/** `part` added into `into`. */
export function mergeTallies(into: PopulationTally, part: PopulationTally): void {
  into.runs += part.runs;
  into.totalPico += part.totalPico;
  into.wastedPico += part.wastedPico;
  into.savedPico += part.savedPico;
  into.overshootPico += part.overshootPico;
  into.completed += part.completed;
  into.baselineCompleted += part.baselineCompleted;
  into.falseStops += part.falseStops;
  into.caughtEarly += part.caughtEarly;
  into.tokens.input += part.tokens.input;
  into.tokens.cached += part.tokens.cached;
  into.tokens.output += part.tokens.output;
  for (const reason of STOP_REASONS) if (part.stopReasons[reason] !== undefined) into.stopReasons[reason] = (into.stopReasons[reason] ?? 0) + part.stopReasons[reason];
  into.costs = mergeSorted(sortCosts(into), sortCosts(part));
}

/** The tally's costs sorted ascending, kept in the tally as a Float64Array (numeric order: it sorts without a comparator). */
export function sortCosts(tally: PopulationTally): Float64Array {
  if (!(tally.costs instanceof Float64Array)) tally.costs = Float64Array.from(tally.costs).sort();
  return tally.costs;
}

/** Two ascending lists as one, in one pass. */
function mergeSorted(a: Float64Array, b: Float64Array): Float64Array {
  if (b.length === 0) return a;
  if (a.length === 0) return b;
  const out = new Float64Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) out[k++] = a[i]! <= b[j]! ? a[i++]! : b[j++]!;
  while (i < a.length) out[k++] = a[i++]!;
  while (j < b.length) out[k++] = b[j++]!;
  return out;
}

export function tallyMetrics(tally: PopulationTally): PopulationMetrics {
  const { runs: n, totalPico: total, wastedPico: wasted, completed, baselineCompleted, falseStops } = tally;
  // (Numeric order: a Float64Array sorts numbers without a comparator; a sorted tally's are as they are.)
  const costs = tally.costs instanceof Float64Array ? tally.costs : Float64Array.from(tally.costs).sort();
  const orderedReasons: Partial<Record<StopReason, number>> = {};
  for (const reason of STOP_REASONS) if (tally.stopReasons[reason] !== undefined) orderedReasons[reason] = tally.stopReasons[reason];
  return {
    runs: n,
    completed,
    completionRate: n === 0 ? 0 : completed / n,
    costUsd: picoToUsd(total),
    costPerRunUsd: {
      mean: meanUsd(total, n),
      p50: picoToUsd(nearestRank(costs, 0.5) ?? 0),
      p95: picoToUsd(nearestRank(costs, 0.95) ?? 0),
      max: picoToUsd(n === 0 ? 0 : costs[n - 1]!),
    },
    costPerCompletedUsd: completed === 0 ? null : meanUsd(total, completed),
    wastedUsd: picoToUsd(wasted),
    wastedShare: total === 0n ? 0 : Number((wasted * 1_000_000_000n) / total) / 1e9,
    falseStops,
    falseStopRate: baselineCompleted === 0 ? null : falseStops / baselineCompleted,
    caughtEarly: tally.caughtEarly,
    savedUsd: picoToUsd(tally.savedPico),
    stopReasons: orderedReasons,
    tokens: { ...tally.tokens },
    overshootUsd: picoToUsd(tally.overshootPico),
  };
}

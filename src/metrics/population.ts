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
  return ascending[rankIndex(ascending.length, p)];
}

/** The 0-based index of the nearest-rank p-quantile among n ascending values (n > 0). */
function rankIndex(n: number, p: number): number {
  return Math.min(Math.max(1, Math.ceil(p * n)), n) - 1;
}

/**
 * The value at index k were a[lo..hi] sorted ascending, a partly ordered in place so that every value
 * before index k is at most it (quickselect, Hoare partition around a median of three: linear on average).
 */
function selectInPlace(a: Float64Array, k: number, lo: number, hi: number): number {
  while (lo < hi) {
    const x = a[lo]!;
    const y = a[(lo + hi) >>> 1]!;
    const z = a[hi]!;
    const pivot = x < y ? (y < z ? y : x < z ? z : x) : x < z ? x : y < z ? z : y;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i++] = a[j]!;
        a[j--] = t;
      }
    }
    // a[lo..j] ≤ pivot, a[j+1..i−1] = pivot, a[i..hi] ≥ pivot.
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k]!;
  }
  return a[k]!;
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
 * money in BigInt, token counts whole numbers, costs kept whole (their quantiles selected when the
 * figures are made).
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
  /** Each run's cost, in no particular order (a Float64Array once packed: packCosts, what a worker thread transfers). */
  costs: number[] | Float64Array;
  /**
   * More runs' costs, as ascending parts (sortCosts: each thread sorts its own, in parallel; the quantiles
   * are then read off the parts, not selected out of all the costs joined).
   */
  sortedCosts?: Float64Array[];
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
  if (part.sortedCosts !== undefined) into.sortedCosts = [...(into.sortedCosts ?? []), ...part.sortedCosts];
  const mine = packCosts(into);
  const theirs = packCosts(part);
  if (theirs.length === 0) return;
  const costs = new Float64Array(mine.length + theirs.length);
  costs.set(mine);
  costs.set(theirs, mine.length);
  into.costs = costs;
}

/** The tally's costs as a Float64Array, kept in the tally (a worker transfers its buffer rather than copying a list). */
export function packCosts(tally: PopulationTally): Float64Array {
  if (!(tally.costs instanceof Float64Array)) tally.costs = new Float64Array(tally.costs);
  return tally.costs;
}

/** The tally's costs sorted ascending, as one of its sorted parts (the buffers, for a worker to transfer). */
export function sortCosts(tally: PopulationTally): ArrayBuffer[] {
  const sorted = packCosts(tally).sort();
  tally.costs = [];
  if (sorted.length > 0) tally.sortedCosts = [...(tally.sortedCosts ?? []), sorted];
  return (tally.sortedCosts ?? []).map((part) => part.buffer as ArrayBuffer);
}

/** The tally's cost quantiles: selected out of its costs, or read off its sorted parts. */
function tallyQuantiles(tally: PopulationTally): { p50: number; p95: number; max: number } {
  const parts = tally.sortedCosts?.filter((part) => part.length > 0) ?? [];
  if (parts.length === 0) return costQuantiles(tally.costs);
  if (tally.costs.length > 0) parts.push(new Float64Array(tally.costs).sort());
  return sortedQuantiles(parts);
}

/** The nearest-rank median, 95th percentile and maximum of ascending parts (a walk merging them up to the 95th). */
function sortedQuantiles(parts: readonly Float64Array[]): { p50: number; p95: number; max: number } {
  const n = parts.reduce((sum, part) => sum + part.length, 0);
  const at50 = rankIndex(n, 0.5);
  const at95 = rankIndex(n, 0.95);
  const next = new Int32Array(parts.length);
  let p50 = 0;
  let p95 = 0;
  for (let rank = 0; rank <= at95; rank++) {
    let from = -1;
    let value = Infinity;
    for (let j = 0; j < parts.length; j++) {
      const part = parts[j]!;
      const at = next[j]!;
      if (at < part.length && part[at]! <= value) {
        from = j;
        value = part[at]!;
      }
    }
    next[from] = next[from]! + 1;
    if (rank === at50) p50 = value;
    if (rank === at95) p95 = value;
  }
  let max = -Infinity;
  for (const part of parts) max = Math.max(max, part[part.length - 1]!);
  return { p50, p95, max };
}

/** The nearest-rank median, 95th percentile and maximum of some costs, by selection (no sort). */
function costQuantiles(costs: readonly number[] | Float64Array): { p50: number; p95: number; max: number } {
  const n = costs.length;
  if (n === 0) return { p50: 0, p95: 0, max: 0 };
  const a = new Float64Array(costs);
  let max = a[0]!;
  for (let i = 1; i < n; i++) if (a[i]! > max) max = a[i]!;
  const at95 = rankIndex(n, 0.95);
  const p95 = selectInPlace(a, at95, 0, n - 1);
  // Every value before at95 is at most p95: the median is among a[0..at95].
  return { p50: selectInPlace(a, rankIndex(n, 0.5), 0, at95), p95, max };
}

export function tallyMetrics(tally: PopulationTally): PopulationMetrics {
  const { runs: n, totalPico: total, wastedPico: wasted, completed, baselineCompleted, falseStops } = tally;
  const quantiles = tallyQuantiles(tally);
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
    falseStopRate: baselineCompleted === 0 ? null : falseStops / baselineCompleted,
    caughtEarly: tally.caughtEarly,
    savedUsd: picoToUsd(tally.savedPico),
    stopReasons: orderedReasons,
    tokens: { ...tally.tokens },
    overshootUsd: picoToUsd(tally.overshootPico),
  };
}

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
import { STOP_REASONS, type StopReason } from '../brakes/stopReasons.js';
import { StopCode } from '../kernel/stopCodes.js';
import { picoToUsd, type Pico } from '../money.js';
import { costQuantilesInPlace, rankIndex, type CostQuantiles } from './costQuantiles.js';
import { PicoSum } from './picoSum.js';

export { PicoSum } from './picoSum.js';

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

/** total / n in picodollars, rounded half up, as USD. */
function meanUsd(totalPico: bigint, n: number): number {
  if (n === 0) return 0;
  const count = BigInt(n);
  return picoToUsd((totalPico * 2n + count) / (2n * count));
}

export function populationMetrics(pairs: readonly RunPair[]): PopulationMetrics {
  const builder = new TallyBuilder();
  builder.reserve(pairs.length);
  for (const { run, baseline } of pairs) builder.add(run, baseline);
  return tallyMetrics(builder.finish());
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
  /**
   * Each run's cost, in no particular order, in one or more arrays (each over a buffer of its own: what
   * a worker thread transfers; tallies merged keep their parts' arrays, joined where quantiles are selected).
   */
  costs: Float64Array[];
}

export function newTally(): PopulationTally {
  return { runs: 0, totalPico: 0n, wastedPico: 0n, savedPico: 0n, overshootPico: 0n, completed: 0, baselineCompleted: 0, falseStops: 0, caughtEarly: 0, tokens: { input: 0, cached: 0, output: 0 }, stopReasons: {}, costs: [] };
}

/** A tally's money as PicoSums while runs are added (TallyBuilder). */
interface MoneySums {
  total: PicoSum;
  wasted: PicoSum;
  saved: PicoSum;
  overshoot: PicoSum;
}

/**
 * A run's figures with its stop as a stop code (its index in STOP_REASONS, src/kernel/stopCodes.ts):
 * what a sweep reads off its columns (src/fast/sweepResult.ts CellFigures), added with no string looked up.
 */
export interface CodedRun {
  stop: number;
  steps: number;
  costPico: Pico;
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  overshootPico: Pico;
}

/** A baseline's figures, its stop as a stop code. */
export type CodedBaseline = Pick<CodedRun, 'stop' | 'steps' | 'costPico'>;

/** Stop codes (STOP_REASONS' indexes, inlined) of the reasons the tally and isBrakeStop single out. */
const COMPLETED = StopCode.Completed;
const TRACE_END = StopCode.TraceEnd;
const ABORTED = StopCode.Aborted;

/** The stop code of a reason (its index in STOP_REASONS). */
function codeOf(reason: StopReason): number {
  const code = STOP_REASONS.indexOf(reason);
  if (code < 0) throw new Error(`unknown stop reason ${reason}`);
  return code;
}

/** Most runs a reserve grows by past what it is asked for (a tally's array of costs). */
const RESERVE_GROWTH_RUNS = 4096;

/**
 * A tally built run by run, its money summed without a BigInt per run, its stop reasons counted by code
 * and its costs written into Float64Arrays (what a sweep adds up per configuration: no list of Numbers
 * grown, copied and promoted by the garbage collector, no packing afterwards).
 */
export class TallyBuilder {
  private readonly tally = newTally();
  private readonly money: MoneySums = { total: new PicoSum(), wasted: new PicoSum(), saved: new PicoSum(), overshoot: new PicoSum() };
  /** Runs per stop code. */
  private readonly stops = new Float64Array(STOP_REASONS.length);
  /** add's run and baseline coded (reused). */
  private readonly coded: CodedRun = { stop: 0, steps: 0, costPico: 0, inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, overshootPico: 0 };
  private readonly codedBase: CodedBaseline = { stop: 0, steps: 0, costPico: 0 };
  /** Arrays full, and the one written (`at` costs in it). */
  private full: Float64Array[] = [];
  private current = new Float64Array(0);
  private at = 0;

  /**
   * Room for `more` runs besides those added (a population's run count: one array each, not grown and
   * copied); at least as many as added so far, up to RESERVE_GROWTH_RUNS (many small reserves, as
   * batches streamed, take few arrays: each a buffer the collector accounts for).
   */
  reserve(more: number): void {
    if (this.current.length - this.at < more) this.next(Math.max(more, Math.min(this.tally.runs, RESERVE_GROWTH_RUNS)));
  }

  add(run: RunFigures, baseline: RunPair['baseline']): void {
    const coded = this.coded;
    coded.stop = codeOf(run.stopReason);
    coded.steps = run.steps;
    coded.costPico = run.costPico;
    coded.inputTokens = run.inputTokens;
    coded.cachedInputTokens = run.cachedInputTokens;
    coded.outputTokens = run.outputTokens;
    coded.overshootPico = run.overshootPico;
    const base = this.codedBase;
    base.stop = codeOf(baseline.stopReason);
    base.steps = baseline.steps;
    base.costPico = baseline.costPico;
    this.addCoded(coded, base);
  }

  /** One run and its baseline, stops as codes: the counts into the tally, the money into PicoSums, the cost kept. */
  addCoded(run: CodedRun, baseline: CodedBaseline): void {
    if (this.at === this.current.length) this.next(Math.max(16, this.tally.runs));
    const cost = run.costPico;
    this.current[this.at++] = cost;
    const { tally, money } = this;
    tally.runs += 1;
    money.total.add(cost);
    if (run.overshootPico !== 0) money.overshoot.add(run.overshootPico);
    const tokens = tally.tokens;
    tokens.input += run.inputTokens;
    tokens.cached += run.cachedInputTokens;
    tokens.output += run.outputTokens;
    const stop = run.stop;
    this.stops[stop]! += 1;
    if (stop === COMPLETED) tally.completed += 1;
    else money.wasted.add(cost);
    const braked = stop !== COMPLETED && stop !== TRACE_END && stop !== ABORTED;
    if (baseline.stop === COMPLETED) {
      tally.baselineCompleted += 1;
      if (braked) tally.falseStops += 1;
    } else if (braked && run.steps < baseline.steps) {
      tally.caughtEarly += 1;
      if (baseline.costPico > cost) money.saved.add(baseline.costPico - cost);
    }
  }

  /** The tally of the runs added (its arrays its own: the builder writes into new ones after this). */
  finish(): PopulationTally {
    const { total, wasted, saved, overshoot } = this.money;
    this.next(0);
    const costs = this.full;
    this.full = [];
    const stopReasons: Partial<Record<StopReason, number>> = {};
    STOP_REASONS.forEach((reason, code) => {
      if (this.stops[code]! > 0) stopReasons[reason] = this.stops[code]!;
    });
    return { ...this.tally, tokens: { ...this.tally.tokens }, stopReasons, costs, totalPico: total.value, wastedPico: wasted.value, savedPico: saved.value, overshootPico: overshoot.value };
  }

  /** The array written set aside (its costs only), a new one of `length` written next. */
  private next(length: number): void {
    if (this.at > 0) this.full.push(this.at === this.current.length ? this.current : this.current.subarray(0, this.at));
    this.current = new Float64Array(length);
    this.at = 0;
  }
}

/** One run and its baseline into the tally (an array of one cost: for many runs, TallyBuilder). */
export function addToTally(tally: PopulationTally, run: RunFigures, baseline: RunPair['baseline']): void {
  const one = new TallyBuilder();
  one.reserve(1);
  one.add(run, baseline);
  mergeTallies(tally, one.finish());
}

/** `parts` added into `into` (their costs' arrays kept, not copied). */
export function mergeTallies(into: PopulationTally, ...parts: PopulationTally[]): void {
  for (const part of parts) {
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
    for (const costs of part.costs) into.costs.push(costs);
  }
}

/**
 * The tally's figures; `quantiles`: its costs' quantiles when already selected (by another thread:
 * sweepShares.ts), else selected in the tally's costs (reordered: they are in no particular order).
 */
export function tallyMetrics(tally: PopulationTally, quantiles: CostQuantiles = costQuantilesInPlace(tally.costs)): PopulationMetrics {
  const { runs: n, totalPico: total, wastedPico: wasted, completed, baselineCompleted, falseStops } = tally;
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

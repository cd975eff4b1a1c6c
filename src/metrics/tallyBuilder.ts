/**
 * A population tally built run by run (TallyBuilder): the running sums of population.ts's figures, money
 * summed without a BigInt per run, stop reasons counted by code, costs written into Float64Arrays; a mark
 * to roll back to (a file streamed through a sweep and found bad part way).
 */
import { STOP_REASONS, type StopReason } from '../brakes/stopReasons.js';
import { StopCode, stopCodeOf } from '../kernel/stopCodes.js';
import { completesWithoutBrakes, stopVerdict, Verdict, type BaselineTruth } from './groundTruth.js';
import { PicoSum } from './picoSum.js';
import type { RunFigures, RunPair } from './population.js';

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
  /** What the runs cost with no brakes (their baselines), in all. */
  baselinePico: bigint;
  completed: number;
  baselineCompleted: number;
  falseStops: number;
  caughtEarly: number;
  /** Runs the predictive budget bound stopped (their byPredictiveBound). */
  predictiveStops: number;
  tokens: { input: number; cached: number; output: number };
  stopReasons: Partial<Record<StopReason, number>>;
  /**
   * Each run's cost, in no particular order, in one or more arrays (each over a buffer of its own: what
   * a worker thread transfers; tallies merged keep their parts' arrays, joined where quantiles are selected).
   */
  costs: Float64Array[];
}

export function newTally(): PopulationTally {
  return { runs: 0, totalPico: 0n, wastedPico: 0n, savedPico: 0n, overshootPico: 0n, baselinePico: 0n, completed: 0, baselineCompleted: 0, falseStops: 0, caughtEarly: 0, predictiveStops: 0, tokens: { input: 0, cached: 0, output: 0 }, stopReasons: {}, costs: [] };
}

/** A TallyBuilder's state at a point (TallyBuilder.mark). */
export interface TallyMark {
  counts: [number, number, number, number, number, number, number, number, number];
  stops: number[];
  money: bigint[];
  full: number;
  current: Float64Array<ArrayBuffer>;
  at: number;
}

/**
 * A run's figures with its stop as a stop code (its index in STOP_REASONS, src/kernel/stopCodes.ts):
 * what a sweep reads off its columns (src/fast/sweepResult.ts CellFigures), added with no string looked up.
 */
export type CodedRun = Omit<RunFigures, 'stopReason'> & { stop: number };

/**
 * A baseline's figures, its stop as a stop code, and its run's ground truth when known (a synthetic run's,
 * a generated trace's header's): false stops and catches are judged by it then (groundTruth.ts).
 */
export type CodedBaseline = Pick<CodedRun, 'stop' | 'steps' | 'costPico'> & { truth?: BaselineTruth | undefined };

const COMPLETED = StopCode.Completed;

/** Most runs a reserve grows by past what it is asked for (a tally's array of costs). */
const RESERVE_GROWTH_RUNS = 4096;

/** What add hands addCoded (reused: add returns before another add). */
const coded: CodedRun = { stop: 0, steps: 0, costPico: 0, inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, overshootPico: 0, byPredictiveBound: false };
const codedBase: CodedBaseline = { stop: 0, steps: 0, costPico: 0, truth: undefined };

/** The array a builder writes before its first run (none written into it: the first add makes one). */
const NO_COSTS = new Float64Array(0);

/**
 * A tally built run by run, its money summed without a BigInt per run, its stop reasons counted by code
 * and its costs written into Float64Arrays (what a sweep adds up per configuration: no list of Numbers
 * grown, copied and promoted by the garbage collector, no packing afterwards). A sweep holds one per
 * configuration (10^5 and more): its counts are its own fields, and nothing is made before a run needs it.
 */
export class TallyBuilder {
  private runs = 0;
  private completed = 0;
  private baselineCompleted = 0;
  private falseStops = 0;
  private caughtEarly = 0;
  private predictiveStops = 0;
  private inputTokens = 0;
  private cachedTokens = 0;
  private outputTokens = 0;
  private readonly total = new PicoSum();
  private readonly wasted = new PicoSum();
  private readonly saved = new PicoSum();
  private readonly overshoot = new PicoSum();
  private readonly baseline = new PicoSum();
  /** Runs per stop code. */
  private readonly stops: number[] = new Array<number>(STOP_REASONS.length).fill(0);
  /** Arrays full, and the one written (`at` costs in it). */
  private full: Float64Array[] = [];
  private current: Float64Array<ArrayBuffer> = NO_COSTS;
  private at = 0;

  /**
   * Room for `more` runs besides those added (a population's run count: one array each, not grown and
   * copied); at least as many as added so far, up to RESERVE_GROWTH_RUNS (many small reserves, as
   * batches streamed, take few arrays: each a buffer the collector accounts for).
   */
  reserve(more: number): void {
    if (this.current.length - this.at < more) this.next(Math.max(more, Math.min(this.runs, RESERVE_GROWTH_RUNS)));
  }

  /** `ownDone`: a closed-loop synthetic run's own ground truth (RunPair.truth), which its false stop is judged by. */
  add(run: RunFigures, baseline: RunPair['baseline'], ownDone?: boolean): void {
    coded.stop = stopCodeOf(run.stopReason);
    coded.steps = run.steps;
    coded.costPico = run.costPico;
    coded.inputTokens = run.inputTokens;
    coded.cachedInputTokens = run.cachedInputTokens;
    coded.outputTokens = run.outputTokens;
    coded.overshootPico = run.overshootPico;
    coded.byPredictiveBound = run.byPredictiveBound === true;
    codedBase.stop = stopCodeOf(baseline.stopReason);
    codedBase.steps = baseline.steps;
    codedBase.costPico = baseline.costPico;
    codedBase.truth = baseline.truth;
    this.addCoded(coded, codedBase, ownDone);
  }

  /** One run and its baseline, stops as codes: the counts into the tally, the money into PicoSums, the cost kept. */
  addCoded(run: CodedRun, baseline: CodedBaseline, ownDone?: boolean): void {
    if (this.at === this.current.length) this.next(Math.max(16, this.runs));
    const cost = run.costPico;
    this.current[this.at++] = cost;
    this.runs += 1;
    this.total.add(cost);
    if (run.overshootPico !== 0) this.overshoot.add(run.overshootPico);
    this.inputTokens += run.inputTokens;
    this.cachedTokens += run.cachedInputTokens;
    this.outputTokens += run.outputTokens;
    const stop = run.stop;
    this.stops[stop]! += 1;
    if (run.byPredictiveBound === true) this.predictiveStops += 1;
    if (stop === COMPLETED) this.completed += 1;
    else this.wasted.add(cost);
    this.baseline.add(baseline.costPico);
    if (completesWithoutBrakes(baseline)) this.baselineCompleted += 1;
    const verdict = stopVerdict(stop, run.steps, baseline, ownDone);
    if (verdict === Verdict.FalseStop) this.falseStops += 1;
    else if (verdict === Verdict.Caught) {
      this.caughtEarly += 1;
      if (baseline.costPico > cost) this.saved.add(baseline.costPico - cost);
    }
  }

  /** Where the builder is: what rollback returns to (runs added after it forgotten; not across a finish). */
  mark(): TallyMark {
    return {
      counts: [this.runs, this.completed, this.baselineCompleted, this.falseStops, this.caughtEarly, this.inputTokens, this.cachedTokens, this.outputTokens, this.predictiveStops],
      stops: this.stops.slice(),
      money: [this.total.value, this.wasted.value, this.saved.value, this.overshoot.value, this.baseline.value],
      full: this.full.length,
      current: this.current,
      at: this.at,
    };
  }

  /** Back to `mark`: the runs added since are forgotten (their costs' arrays dropped, the array then written written over). */
  rollback(mark: TallyMark): void {
    [this.runs, this.completed, this.baselineCompleted, this.falseStops, this.caughtEarly, this.inputTokens, this.cachedTokens, this.outputTokens, this.predictiveStops] = mark.counts;
    for (let code = 0; code < this.stops.length; code++) this.stops[code] = mark.stops[code]!;
    [this.total, this.wasted, this.saved, this.overshoot, this.baseline].forEach((sum, k) => sum.reset(mark.money[k]!));
    this.full.length = mark.full;
    this.current = mark.current;
    this.at = mark.at;
  }

  /** The tally of the runs added (its arrays its own: the builder writes into new ones after this). */
  finish(): PopulationTally {
    this.next(0);
    const costs = this.full;
    this.full = [];
    const stopReasons: Partial<Record<StopReason, number>> = {};
    STOP_REASONS.forEach((reason, code) => {
      if (this.stops[code]! > 0) stopReasons[reason] = this.stops[code]!;
    });
    return {
      runs: this.runs,
      totalPico: this.total.value,
      wastedPico: this.wasted.value,
      savedPico: this.saved.value,
      overshootPico: this.overshoot.value,
      baselinePico: this.baseline.value,
      completed: this.completed,
      baselineCompleted: this.baselineCompleted,
      falseStops: this.falseStops,
      caughtEarly: this.caughtEarly,
      predictiveStops: this.predictiveStops,
      tokens: { input: this.inputTokens, cached: this.cachedTokens, output: this.outputTokens },
      stopReasons,
      costs,
    };
  }

  /** The array written set aside (its costs only), a new one of `length` written next. */
  private next(length: number): void {
    if (this.at > 0) this.full.push(this.at === this.current.length ? this.current : this.current.subarray(0, this.at));
    this.current = length === 0 ? NO_COSTS : new Float64Array(length);
    this.at = 0;
  }
}


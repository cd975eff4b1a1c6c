/**
 * How far sampling alone moves a population figure an expectation bounds: its 95% interval on the runs
 * checked, and whether that interval holds the bound. The runs are a sample of what the settings will meet —
 * synthetic ones of their population, and recorded ones too, which a check holds up as what the next runs
 * will be — so a figure whose interval holds its bound passes or fails by which runs were drawn (bundled
 * production-mix: 8% of re-seeds failed with nothing changed). The gate stays the bound as written; the
 * result says `within sampling noise` (evaluate.ts, expectationText.ts). Each interval, by the figure:
 * - completionRate, falseStopRate: Wilson's score interval of the count (recommend.ts, as sweep's);
 * - costPerRunUsd.p50, .p95: distribution-free, from order statistics (projectConfidence.ts quantileRanks,
 *   as project's p95): an end the runs are too few for is none;
 * - costPerRunUsd.mean: project's expanded percentile bootstrap (projectConfidence.ts, seeded), from 20 runs;
 * - wastedShare, costPerCompletedUsd: ratios of sums over the runs (wasted spend / spend, spend / completed
 *   runs), by the delta method (the ratio's linearization: se² = Σ(aᵢ − R·bᵢ)² / (n(n−1)) / b̄²), from 20 runs;
 * - costPerRunUsd.max, the largest run of a sample: none (more runs only raise it).
 * Pure: no node:*, no clock; the bootstrap is seeded.
 */
import { isBrakeStop } from '../brakes/stopReasons.js';
import type { Bound } from '../scenario/expectSchema.js';
import { picoToUsd } from '../money.js';
import { wilsonInterval } from '../population/recommend.js';
import { MIN_RUNS_FOR_MEAN_INTERVAL, quantileRanks, runCostConfidence, RUNS_FOR_P95_UPPER } from '../population/projectConfidence.js';
import type { CheckedRun } from './evaluate.js';

/** The level of every interval here. */
export const EXPECT_NOISE_LEVEL = 0.95;
const Z_975 = 1.959963984540054;
/** The mean's bootstrap: its resamples (as project's default) and seed (the same runs give the same interval). */
const MEAN_RESAMPLES = 1000;
const MEAN_SEED = 1;

/** A figure's 95% interval, in its unit (a share, USD); a null end: these runs give none (`note` says why). */
export interface FigureInterval {
  interval: [number | null, number | null];
  note?: string;
}

/** What an expectation's result adds: its figure's interval and whether it holds the bound. */
export interface NoiseFields {
  /** The figure's 95% interval on these runs (a null end: none from these runs, `intervalNote`). */
  interval: [number | null, number | null];
  /** The interval holds a bound's `min` or `max`: another sample of as many runs may land on its other side. */
  withinNoise: boolean;
  intervalNote?: string;
}

/** What the figures read of the runs: counts and, per run, its cost and whether it completed. */
interface Counts {
  runs: number;
  completed: number;
  falseStops: number;
  /** Runs that complete without brakes: falseStopRate's denominator. */
  falseStopOf: number;
}

/** The runs' costs ascending, in picodollars. */
function ascendingCosts(runs: readonly CheckedRun[]): number[] {
  return runs.map((run) => run.costPico).sort((a, b) => a - b);
}

/** The order-statistic interval of the q-quantile of the runs' cost, USD. */
function quantileInterval(runs: readonly CheckedRun[], q: number): FigureInterval {
  const costs = ascendingCosts(runs);
  const { low, high } = quantileRanks(costs.length, q);
  const at = (rank: number | null) => (rank === null ? null : picoToUsd(costs[rank - 1]!));
  const upper = q === 0.95 ? `; one needs ${RUNS_FOR_P95_UPPER}` : '';
  const note = low === null ? `too few runs for an interval (${costs.length})` : high === null ? `no upper end from ${costs.length} runs${upper}` : undefined;
  return { interval: [at(low), at(high)], ...(note === undefined ? {} : { note }) };
}

function meanInterval(runs: readonly CheckedRun[]): FigureInterval {
  const confidence = runCostConfidence(ascendingCosts(runs), { seed: MEAN_SEED, resamples: MEAN_RESAMPLES });
  const [low, high] = confidence.meanPerRunUsd;
  if (low !== null && high !== null) return { interval: [low, high] };
  return { interval: [null, null], note: `too few runs for an interval of the mean (${runs.length}; it needs ${MIN_RUNS_FOR_MEAN_INTERVAL})` };
}

/** The delta-method interval of Σa / Σb over the runs (a, b per run), clipped to `range`; none below 20 runs or with Σb = 0. */
export function ratioInterval(parts: readonly { a: number; b: number }[], range: { low: number; high: number }): FigureInterval {
  const n = parts.length;
  if (n < MIN_RUNS_FOR_MEAN_INTERVAL) return { interval: [null, null], note: `too few runs for an interval (${n}; it needs ${MIN_RUNS_FOR_MEAN_INTERVAL})` };
  let sumA = 0;
  let sumB = 0;
  for (const { a, b } of parts) {
    sumA += a;
    sumB += b;
  }
  if (sumB === 0) return { interval: [null, null], note: 'no interval: the ratio has no denominator' };
  const ratio = sumA / sumB;
  let squares = 0;
  for (const { a, b } of parts) squares += (a - ratio * b) ** 2;
  const se = Math.sqrt(squares / (n * (n - 1))) / (sumB / n);
  return { interval: [Math.max(range.low, ratio - Z_975 * se), Math.min(range.high, ratio + Z_975 * se)] };
}

/** Wilson's interval of k in n, its ends exact at 0 and 1 when the count is (the formula's rounding can miss 1 by an ulp). */
function wilson(k: number, n: number): [number, number] {
  const [low, high] = wilsonInterval(k, n);
  return [k === 0 ? 0 : low, k === n ? 1 : high];
}

/** The counts of the runs the rates are made of. */
function countsOf(runs: readonly CheckedRun[]): Counts {
  const counts: Counts = { runs: runs.length, completed: 0, falseStops: 0, falseStopOf: 0 };
  for (const run of runs) {
    if (run.stopReason === 'completed') counts.completed += 1;
    if (run.baselineCompleted !== true) continue;
    counts.falseStopOf += 1;
    // As falseStopBreakdown counts them: a run that does not say is falsely stopped by any brake stop.
    if (run.falseStop ?? isBrakeStop(run.stopReason)) counts.falseStops += 1;
  }
  return counts;
}

/** The 95% interval of a population figure (evaluate.ts's names) on `runs`; undefined for one with none (the largest run). */
export function figureInterval(figure: string, runs: readonly CheckedRun[]): FigureInterval | undefined {
  if (runs.length === 0) return undefined;
  const completed = (run: CheckedRun) => run.stopReason === 'completed';
  switch (figure) {
    case 'completionRate': {
      const counts = countsOf(runs);
      return { interval: wilson(counts.completed, counts.runs) };
    }
    case 'falseStopRate': {
      const counts = countsOf(runs);
      return counts.falseStopOf === 0 ? undefined : { interval: wilson(counts.falseStops, counts.falseStopOf) };
    }
    case 'wastedShare':
      return ratioInterval(runs.map((run) => ({ a: completed(run) ? 0 : run.costPico, b: run.costPico })), { low: 0, high: 1 });
    case 'costPerCompletedUsd': {
      const ratio = ratioInterval(runs.map((run) => ({ a: run.costPico, b: completed(run) ? 1 : 0 })), { low: 0, high: Infinity });
      return { ...ratio, interval: [ratio.interval[0] === null ? null : picoToUsd(Math.round(ratio.interval[0])), ratio.interval[1] === null ? null : picoToUsd(Math.round(ratio.interval[1]))] };
    }
    case 'costPerRunUsd.mean':
      return meanInterval(runs);
    case 'costPerRunUsd.p50':
      return quantileInterval(runs, 0.5);
    case 'costPerRunUsd.p95':
      return quantileInterval(runs, 0.95);
    default:
      return undefined;
  }
}

/** The bound's ends (`min`, `max`) the interval holds: a null end of it reaches any value on its side. */
export function boundsHeld(interval: readonly [number | null, number | null], bound: Bound): number[] {
  const [low, high] = interval;
  const ends = [bound.min, bound.max].filter((end): end is number => end !== undefined);
  return ends.filter((end) => (low === null || low <= end) && (high === null || end <= high));
}

/** The interval and within-noise verdict of a population expectation; empty for a figure with none or no value. */
export function noiseFields(figure: string, bound: Bound, value: number | null, runs: readonly CheckedRun[]): NoiseFields | Record<string, never> {
  if (value === null) return {};
  const found = figureInterval(figure, runs);
  if (found === undefined) return {};
  // Shares to the billionth (as wastedShare is counted), money to the picodollar: short numbers in the report.
  const interval = found.interval.map((end) => (end === null ? null : Number(end.toFixed(figure.includes('Usd') ? 12 : 9)))) as [number | null, number | null];
  return { interval, withinNoise: boundsHeld(interval, bound).length > 0, ...(found.note === undefined ? {} : { intervalNote: found.note }) };
}

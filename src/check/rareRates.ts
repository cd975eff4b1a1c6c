/**
 * When a rate drifts (driftFigures.ts). A tolerance of 5% in points alone lets nothing rare drift: a false-stop
 * rate of 0.2% that became 1.4% (2 → 14 of 1,000 runs, seven times the false stops) moved 1.2 points. So a rate
 * (completionRate, falseStopRate, wastedShare) is past the tolerance when its change passes it in points, OR
 * when its change relative to what it is judged against passes the tolerance and at least RATE_RUNS runs changed
 * (the runs its count moved by: completions for completionRate and wastedShare — the runs whose spend moved in or
 * out of waste —, false stops for falseStopRate). A figure of runs that replay exactly (recorded, the baseline's very
 * agents, or another sample paired with them) moved with the change, not by chance: the rule alone decides. One of
 * another sample judged against the noise band must also pass its band (in points), so noise fails nothing. Pure.
 */
import type { PopulationMetrics } from '../metrics/population.js';
import type { BaselineFigures } from './baselineFile.js';

/** The fewest runs a rate's count must move by for its relative change alone to count: a rate of 1 run in 1,000 that became 2 is no drift. */
export const RATE_RUNS = 3;

/** The counts behind a rate on both sides: what its numerator was and is, in runs (a rate's drift says them). */
export interface RateRuns {
  was: number;
  is: number;
}

/** What the counts are read from: the figures judged now, what they are judged against (paired metrics, or the stored figures). */
export interface RateCounts {
  now: PopulationMetrics;
  against: { metrics: PopulationMetrics } | { figures: BaselineFigures };
  /**
   * The runs now that complete without brakes (with ground truth: whose task is done without brakes), as the
   * tally counted them (ScenarioCheck.baselineCompleted): falseStopRate's denominator.
   */
  baselineCompleted?: number;
}

/** The runs that complete without brakes now: the false-stop rate's denominator (the same on both sides of the same agents); without the tally's count (a check made elsewhere), told back from the rate where it is above 0. */
function falseStopBase(counts: RateCounts): number | undefined {
  if (counts.baselineCompleted !== undefined) return counts.baselineCompleted;
  const { falseStops, falseStopRate } = counts.now;
  return falseStopRate !== null && falseStopRate > 0 ? Math.round(falseStops / falseStopRate) : undefined;
}

/** A rate's numerator on both sides, in runs; undefined where it cannot be told (not a rate, or no runs to count). */
export function rateRuns(figure: string, counts: RateCounts): RateRuns | undefined {
  const { now, against } = counts;
  const completedThen = 'metrics' in against ? against.metrics.completed : Math.round(against.figures.completionRate * against.figures.runs);
  if (figure === 'completionRate' || figure === 'wastedShare') return { was: completedThen, is: now.completed };
  if (figure !== 'falseStopRate') return undefined;
  if ('metrics' in against) return { was: against.metrics.falseStops, is: now.falseStops };
  const base = falseStopBase(counts);
  const rate = against.figures.falseStopRate;
  return base === undefined || rate === null ? undefined : { was: Math.round(rate * base), is: now.falseStops };
}

/** Whether a rate's relative change passes the tolerance with at least RATE_RUNS runs changed (from 0: any rise of as many runs). */
export function rareRateMoved(values: { was: number | null; is: number | null }, runs: RateRuns | undefined, tolerance: number): boolean {
  const { was, is } = values;
  if (was === null || is === null || runs === undefined || Math.abs(runs.is - runs.was) < RATE_RUNS) return false;
  return was === 0 ? is !== 0 : Math.abs(is - was) / Math.abs(was) > tolerance + 1e-12;
}

/**
 * Loop-detector calibration: how well one setting of the loop detectors (the repeat and same-error
 * brakes) catches stuck runs, judged against ground truth, and what it costs good runs.
 *
 * - On synthetic runs (ground truth known): a run is **stuck** when, with no brakes, its agent gets stuck
 *   in a loop (`baseline.truth.stuckFromStep` set); it is **caught** when a loop detector (stop reason
 *   `repeat` or `error_limit`) stops it here. precision = stuck ∧ caught / caught (null: nothing caught);
 *   recall = stuck ∧ caught / stuck (null: nothing stuck); steps wasted before the catch = the steps a
 *   caught stuck run took from the step it got stuck (mean and max, over those runs).
 * - On recorded runs (no ground truth): the false-stop rate among runs that complete with no brakes (a
 *   brake of this configuration stopped them), as populationMetrics defines it.
 * Every figure can be recomputed from per-run rows (stop reason, steps, baseline truth).
 */
import { populationMetrics, type RunPair } from '../metrics/population.js';
import type { BaselineFigures } from './run.js';
import { maxOf } from '../metrics/extremes.js';

/** A run pair as the population runner gives it (synthetic runs carry their baseline's ground truth). */
export type CalibrationPair = RunPair & { baseline: BaselineFigures };

export interface CalibrationFigures {
  synthetic: {
    runs: number;
    stuck: number;
    caught: number;
    caughtStuck: number;
    precision: number | null;
    recall: number | null;
    stepsWastedBeforeCatch: { mean: number; max: number } | null;
    /** Runs that complete with no brakes, stopped by a brake here, over those runs. */
    falseStopRate: number | null;
  };
  recorded: { runs: number; completedWithoutBrakes: number; falseStops: number; falseStopRate: number | null };
}

const isLoopCatch = (reason: string): boolean => reason === 'repeat' || reason === 'error_limit';

/** The figures of one configuration: `pairs` as sweepPairs gives them, the first `recordedRuns` recorded. */
export function calibrationFigures(pairs: readonly CalibrationPair[], recordedRuns: number): CalibrationFigures {
  const recorded = populationMetrics(pairs.slice(0, recordedRuns));
  const synthetic = pairs.slice(recordedRuns);
  let stuck = 0;
  let caught = 0;
  let caughtStuck = 0;
  const wasted: number[] = [];
  for (const { run, baseline } of synthetic) {
    const stuckFrom = baseline.truth?.stuckFromStep;
    const isCaught = isLoopCatch(run.stopReason);
    if (stuckFrom !== undefined) stuck += 1;
    if (isCaught) caught += 1;
    if (isCaught && stuckFrom !== undefined) {
      caughtStuck += 1;
      wasted.push(Math.max(0, run.steps - (stuckFrom - 1)));
    }
  }
  const syntheticMetrics = populationMetrics(synthetic);
  return {
    synthetic: {
      runs: synthetic.length,
      stuck,
      caught,
      caughtStuck,
      precision: caught === 0 ? null : caughtStuck / caught,
      recall: stuck === 0 ? null : caughtStuck / stuck,
      stepsWastedBeforeCatch: wasted.length === 0 ? null : { mean: wasted.reduce((a, b) => a + b, 0) / wasted.length, max: maxOf(wasted) },
      falseStopRate: syntheticMetrics.falseStopRate,
    },
    recorded: {
      runs: recordedRuns,
      completedWithoutBrakes: pairs.slice(0, recordedRuns).filter((p) => p.baseline.stopReason === 'completed').length,
      falseStops: recorded.falseStops,
      falseStopRate: recorded.falseStopRate,
    },
  };
}

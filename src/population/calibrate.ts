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
 * Every figure can be recomputed from per-run rows (stop reason, steps, baseline truth); each is added up
 * run by run (CalibrationTally), so a grid's configurations are calibrated as a sweep runs them
 * (calibrationsOf: synthetic runs recorded once per context and swept, syntheticSweep.ts).
 * Pure: no node:*, no clock.
 */
import { StopCode, stopCodeOf } from '../kernel/stopCodes.js';
import { falseStopRate, TallyBuilder, type CodedBaseline, type RunPair } from '../metrics/population.js';
import type { CellFigures } from '../fast/sweepResult.js';
import type { PriceTable } from '../pricing/types.js';
import type { BaselineFigures, PopulationConfig } from './run.js';
import type { SweepPopulation } from './sweep.js';
import { recordedRuns } from './sweepRecorded.js';
import { syntheticRuns } from './syntheticSweep.js';

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

const isLoopCatch = (stop: StopCode): boolean => stop === StopCode.Repeat || stop === StopCode.ErrorLimit;

/** One configuration's calibration, run by run: recorded runs (false stops), synthetic runs with the step each got stuck from (if it did). */
export class CalibrationTally {
  private readonly recorded = new TallyBuilder();
  private readonly synthetic = new TallyBuilder();
  private recordedRuns = 0;
  private syntheticRuns = 0;
  private stuck = 0;
  private caught = 0;
  private caughtStuck = 0;
  /** Over the caught stuck runs: the steps wasted, summed (whole numbers: exact) and the most. */
  private wastedSteps = 0;
  private mostWasted = 0;

  addRecorded(run: RunPair['run'], baseline: RunPair['baseline']): void {
    this.recordedRuns += 1;
    this.recorded.add(run, baseline);
  }

  addRecordedCell(run: CellFigures, baseline: CodedBaseline): void {
    this.recordedRuns += 1;
    this.recorded.addCoded(run, baseline);
  }

  addSynthetic(run: RunPair['run'], baseline: RunPair['baseline'], stuckFromStep: number | undefined): void {
    this.synthetic.add(run, baseline);
    this.judge(stopCodeOf(run.stopReason), run.steps, stuckFromStep);
  }

  addSyntheticCell(run: CellFigures, baseline: CodedBaseline, stuckFromStep: number | undefined): void {
    this.synthetic.addCoded(run, baseline);
    this.judge(run.stop, run.steps, stuckFromStep);
  }

  figures(): CalibrationFigures {
    const recorded = this.recorded.finish();
    const synthetic = this.synthetic.finish();
    const { stuck, caught, caughtStuck } = this;
    return {
      synthetic: {
        runs: this.syntheticRuns,
        stuck,
        caught,
        caughtStuck,
        precision: caught === 0 ? null : caughtStuck / caught,
        recall: stuck === 0 ? null : caughtStuck / stuck,
        stepsWastedBeforeCatch: caughtStuck === 0 ? null : { mean: this.wastedSteps / caughtStuck, max: this.mostWasted },
        falseStopRate: falseStopRate(synthetic),
      },
      recorded: { runs: this.recordedRuns, completedWithoutBrakes: recorded.baselineCompleted, falseStops: recorded.falseStops, falseStopRate: falseStopRate(recorded) },
    };
  }

  private judge(stop: StopCode, steps: number, stuckFromStep: number | undefined): void {
    this.syntheticRuns += 1;
    const isCaught = isLoopCatch(stop);
    if (stuckFromStep !== undefined) this.stuck += 1;
    if (!isCaught) return;
    this.caught += 1;
    if (stuckFromStep === undefined) return;
    this.caughtStuck += 1;
    const wasted = Math.max(0, steps - (stuckFromStep - 1));
    this.wastedSteps += wasted;
    this.mostWasted = Math.max(this.mostWasted, wasted);
  }
}

/** The figures of one configuration: `pairs` as the population runner gives them, the first `recordedRuns` recorded. */
export function calibrationFigures(pairs: readonly CalibrationPair[], recordedRuns: number): CalibrationFigures {
  const tally = new CalibrationTally();
  pairs.forEach(({ run, baseline }, k) => (k < recordedRuns ? tally.addRecorded(run, baseline) : tally.addSynthetic(run, baseline, baseline.truth?.stuckFromStep)));
  return tally.figures();
}

/**
 * Each configuration's figures over the population, as a sweep runs it: recorded runs by the compiled
 * sweep, synthetic runs recorded once per context, cache, model and latency and swept (each cell's
 * baseline carries its run's ground truth), or closed loop where a configuration cannot be swept so.
 */
export function calibrationsOf(population: SweepPopulation, configs: readonly PopulationConfig[], prices: PriceTable): CalibrationFigures[] {
  const tallies = configs.map(() => new CalibrationTally());
  recordedRuns(population.recorded, configs, prices, {
    visit: (c, run, baseline) => tallies[c]!.addRecorded(run, baseline),
    visitCell: (c, run, baseline) => tallies[c]!.addRecordedCell(run, baseline),
  });
  syntheticRuns(population.synthetic, configs, prices, {
    visit: (c, run, baseline) => tallies[c]!.addSynthetic(run, baseline, baseline.truth?.stuckFromStep),
    visitCell: (c, run, baseline) => tallies[c]!.addSyntheticCell(run, baseline, baseline.stuckFromStep),
  });
  return tallies.map((tally) => tally.figures());
}

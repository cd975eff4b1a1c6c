/**
 * Loop-detector calibration: how well one setting of the loop detectors (the repeat and same-error
 * brakes) catches stuck runs, judged against ground truth, and what it costs good runs.
 *
 * - On synthetic runs (ground truth known): a run is **stuck** when, with no brakes, its agent gets stuck
 *   in a loop (`baseline.truth.stuckFromStep` set); it is **caught** when a loop detector (stop reason
 *   `repeat` or `error_limit`) stops it here. precision = stuck ∧ caught / caught (null: nothing caught);
 *   recall = stuck ∧ caught / stuck (null: nothing stuck); steps wasted before the catch = the steps a
 *   caught stuck run took from the step it got stuck (mean and max, over those runs). A **false stop**
 *   (ground truth): a brake stopped the run before the step at which, with no brakes, its task is done
 *   (`baseline.truth.doneAtStep`), among the runs whose task is done with no brakes. A run that
 *   "completes" without doing its task (a retrier that gives up) is none, and a run stopped after its task
 *   was done (stuck verifying done work) is a catch, not a false stop. The rule is src/metrics/
 *   groundTruth.ts's, which sweep, check and project count false stops by too. Generated traces
 *   (`loopcost generate`) carry their run's ground truth in their headers: they are judged as synthetic runs.
 * - On recorded runs (no ground truth), outcome-based: a brake stopped a run that completes with no
 *   brakes, among those runs, by the same rule.
 * Every figure can be recomputed from per-run rows (stop reason, steps, baseline truth); each is added up
 * run by run (CalibrationTally), so a grid's configurations are calibrated as a sweep runs them
 * (calibrationsOf: synthetic runs recorded once per context and swept, syntheticSweep.ts).
 * Pure: no node:*, no clock.
 */
import { StopCode, stopCodeOf, stopReasonOf } from '../kernel/stopCodes.js';
import type { StopReason } from '../brakes/stopReasons.js';
import { wilsonInterval } from './recommend.js';
import type { CompletionMeanings } from './completionMeanings.js';
import { falseStopRate, isFalseStop, TallyBuilder, type BaselineTruth, type CodedBaseline, type RunPair } from '../metrics/population.js';
import type { CellFigures } from '../fast/sweepResult.js';
import type { PriceTable } from '../pricing/types.js';
import type { BaselineFigures, PopulationConfig, PopulationRunFigures } from './run.js';
import type { SweepPopulation } from './sweep.js';
import { recordedRunsNamed } from './blameRun.js';
import { syntheticRuns } from './syntheticSweep.js';

/** A run pair as the population runner gives it (synthetic runs and generated traces carry their baseline's ground truth). */
export type CalibrationPair = RunPair & { baseline: BaselineFigures };

export type { BaselineTruth };

export interface CalibrationFigures {
  synthetic: {
    runs: number;
    stuck: number;
    caught: number;
    caughtStuck: number;
    precision: number | null;
    recall: number | null;
    /** 95% Wilson intervals of precision (caughtStuck of caught) and recall (caughtStuck of stuck); null as the rate is. */
    precisionInterval: [number, number] | null;
    recallInterval: [number, number] | null;
    stepsWastedBeforeCatch: { mean: number; max: number } | null;
    /** Ground truth: runs whose task is done with no brakes. */
    tasksDoneWithoutBrakes: number;
    /** Ground truth: of those, runs a brake stopped before the step their task is done at (isGroundTruthFalseStop). */
    falseStops: number;
    /** falseStops / tasksDoneWithoutBrakes (null: no task is done with no brakes). */
    falseStopRate: number | null;
    /** The false stops by the brake that stopped each (most first): the loop detectors calibrated (repeat, error_limit) or another (the step cap, …). */
    falseStopsByStop: FalseStopsByStop;
  };
  /** Outcome-based (populationMetrics): runs that complete with no brakes, those a brake stopped here, and their rate. */
  recorded: { runs: number; completedWithoutBrakes: number; falseStops: number; falseStopRate: number | null; falseStopsByStop: FalseStopsByStop };
  /** The summary calls the runs made under a summary strategy, where not 0 (as a sweep's rows: summaryCallWarning.ts reads them). */
  summaryCalls?: number;
}

/** False stops counted by the stop reason of the brake that made them, most first (then in STOP_REASONS order). */
export type FalseStopsByStop = { stopReason: StopReason; runs: number }[];

/** Counts by stop code, as FalseStopsByStop. */
function byStopOf(counts: ReadonlyMap<number, number>): FalseStopsByStop {
  return [...counts].sort(([a, m], [b, k]) => k - m || a - b).map(([code, runs]) => ({ stopReason: stopReasonOf(code), runs }));
}

const countStop = (counts: Map<number, number>, stop: number) => counts.set(stop, (counts.get(stop) ?? 0) + 1);

const isLoopCatch = (stop: StopCode): boolean => stop === StopCode.Repeat || stop === StopCode.ErrorLimit;

/**
 * A synthetic run's false stop, by its ground truth: a brake stopped it after `steps` steps, before the
 * step `doneAtStep` at which, with no brakes, its task is done (undefined: never done, so no stop of it is
 * false). groundTruth.ts's rule (isFalseStop), as every command counts it.
 */
export function isGroundTruthFalseStop(stop: StopCode, steps: number, doneAtStep: number | undefined): boolean {
  return isFalseStop(stop, steps, { stop: StopCode.None, truth: { doneAtStep } });
}

/** One configuration's calibration, run by run: recorded runs (false stops), synthetic runs with the step each got stuck from (if it did). */
export class CalibrationTally {
  private readonly recorded = new TallyBuilder();
  private recordedRuns = 0;
  private syntheticRuns = 0;
  private stuck = 0;
  private caught = 0;
  private caughtStuck = 0;
  private tasksDone = 0;
  private falseStops = 0;
  /** Over the caught stuck runs: the steps wasted, summed (whole numbers: exact) and the most. */
  private wastedSteps = 0;
  private mostWasted = 0;
  /** False stops by stop code: synthetic runs' (ground truth), recorded runs' (outcome, as the tally counts them). */
  private readonly syntheticByStop = new Map<number, number>();
  private readonly recordedByStop = new Map<number, number>();
  /** Summary calls made, over every run. */
  private summaryCalls = 0;

  addRecorded(run: PopulationRunFigures, baseline: RunPair['baseline']): void {
    this.recordedRuns += 1;
    this.summaryCalls += run.summaryCalls ?? 0;
    this.recorded.add(run, baseline);
    const stop = stopCodeOf(run.stopReason);
    if (isFalseStop(stop, run.steps, { stop: stopCodeOf(baseline.stopReason), truth: baseline.truth })) countStop(this.recordedByStop, stop);
  }

  addRecordedCell(run: CellFigures, baseline: CodedBaseline): void {
    this.recordedRuns += 1;
    this.summaryCalls += run.summaryCalls;
    this.recorded.addCoded(run, baseline);
    if (isFalseStop(run.stop, run.steps, baseline)) countStop(this.recordedByStop, run.stop);
  }

  /** A synthetic run under this configuration, judged by its no-brake run's ground truth. */
  addSynthetic(run: Pick<PopulationRunFigures, 'stopReason' | 'steps' | 'summaryCalls'>, truth: BaselineTruth | undefined): void {
    this.summaryCalls += run.summaryCalls ?? 0;
    this.judge(stopCodeOf(run.stopReason), run.steps, truth ?? {});
  }

  addSyntheticCell(run: Pick<CellFigures, 'stop' | 'steps' | 'summaryCalls'>, truth: BaselineTruth): void {
    this.summaryCalls += run.summaryCalls;
    this.judge(run.stop, run.steps, truth);
  }

  figures(): CalibrationFigures {
    const recorded = this.recorded.finish();
    const { stuck, caught, caughtStuck, tasksDone, falseStops } = this;
    return {
      synthetic: {
        runs: this.syntheticRuns,
        stuck,
        caught,
        caughtStuck,
        precision: caught === 0 ? null : caughtStuck / caught,
        recall: stuck === 0 ? null : caughtStuck / stuck,
        precisionInterval: caught === 0 ? null : wilsonInterval(caughtStuck, caught),
        recallInterval: stuck === 0 ? null : wilsonInterval(caughtStuck, stuck),
        stepsWastedBeforeCatch: caughtStuck === 0 ? null : { mean: this.wastedSteps / caughtStuck, max: this.mostWasted },
        tasksDoneWithoutBrakes: tasksDone,
        falseStops,
        falseStopRate: tasksDone === 0 ? null : falseStops / tasksDone,
        falseStopsByStop: byStopOf(this.syntheticByStop),
      },
      recorded: { runs: this.recordedRuns, completedWithoutBrakes: recorded.baselineCompleted, falseStops: recorded.falseStops, falseStopRate: falseStopRate(recorded), falseStopsByStop: byStopOf(this.recordedByStop) },
      ...(this.summaryCalls === 0 ? {} : { summaryCalls: this.summaryCalls }),
    };
  }

  private judge(stop: StopCode, steps: number, { stuckFromStep, doneAtStep }: BaselineTruth): void {
    this.syntheticRuns += 1;
    if (doneAtStep !== undefined) this.tasksDone += 1;
    if (isGroundTruthFalseStop(stop, steps, doneAtStep)) {
      this.falseStops += 1;
      countStop(this.syntheticByStop, stop);
    }
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

/** The figures of one configuration: `pairs` as the population runner gives them, the first `recordedRuns` recorded (those with ground truth, generated traces, judged as synthetic runs). */
export function calibrationFigures(pairs: readonly CalibrationPair[], recordedRuns: number): CalibrationFigures {
  const tally = new CalibrationTally();
  pairs.forEach(({ run, baseline }, k) => (k < recordedRuns && baseline.truth === undefined ? tally.addRecorded(run, baseline) : tally.addSynthetic(run, baseline.truth)));
  return tally.figures();
}

/**
 * Each configuration's figures over the population, as a sweep runs it: recorded runs by the compiled
 * sweep, synthetic runs recorded once per context, cache, model and latency and swept (each cell's
 * baseline carries its run's ground truth), or closed loop where a configuration cannot be swept so.
 */
export function calibrationsOf(population: SweepPopulation, configs: readonly PopulationConfig[], prices: PriceTable, meanings?: CompletionMeanings): CalibrationFigures[] {
  const tallies = configs.map(() => new CalibrationTally());
  // `meanings`: each run's no-brake stop and ground truth, once (the first configuration's visit of it).
  const visitors = {
    visit: (c: number, run: PopulationRunFigures, baseline: RunPair['baseline']) => {
      if (c === 0) meanings?.add(baseline.stopReason, baseline.truth);
      return baseline.truth === undefined ? tallies[c]!.addRecorded(run, baseline) : tallies[c]!.addSynthetic(run, baseline.truth);
    },
    visitCell: (c: number, run: CellFigures, baseline: CodedBaseline) => {
      if (c === 0) meanings?.add(stopReasonOf(baseline.stop), baseline.truth);
      return baseline.truth === undefined ? tallies[c]!.addRecordedCell(run, baseline) : tallies[c]!.addSyntheticCell(run, baseline.truth);
    },
  };
  // Generated traces carry their ground truth (header `synthetic`): judged as synthetic runs.
  recordedRunsNamed(population.recorded, configs, prices, visitors);
  syntheticRuns(population.synthetic, configs, prices, visitors);
  return tallies.map((tally) => tally.figures());
}

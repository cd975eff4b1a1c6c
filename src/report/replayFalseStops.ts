/**
 * replay's false stops: runs a brake stopped that complete with no brakes, judged run by run by the one rule
 * sweep and check count them by (metrics/groundTruth.ts isFalseStop, completesWithoutBrakes; the rate is
 * population.ts falseStopRate) against each run's no-brake run (its baseline, as population/run.ts makes it).
 * A run with ground truth (a scenario file's synthetic run, a trace `loopcost generate` wrote) is judged by it;
 * a recorded run by how its recording ends (replayed with no brakes, open loop: its recorded end). Pure.
 */
import { isBrakeStop, type StopReason } from '../brakes/stopReasons.js';
import { stopCodeOf } from '../kernel/stopCodes.js';
import { completesWithoutBrakes, falseStopRate, isFalseStop, type BaselineTruth } from '../metrics/population.js';
import { counted } from '../plural.js';
import { styledPercentText } from './percentText.js';

/** What the rule reads of a run replayed under the brakes. */
export interface BrakedRun {
  stopReason: StopReason;
  steps: number;
  /** Actions a repeat brake skipped: the brakes acted without stopping the run. */
  skippedActions?: number | undefined;
}

/** A run's no-brake run: how it stopped, after how many steps, and its ground truth when known. */
export interface UnbrakedRun {
  stopReason: StopReason;
  steps: number;
  truth?: BaselineTruth | undefined;
}

/** One run's part in the count: a false stop or not, whether its no-brake run completes (the rate's denominator), judged by ground truth or not. */
export interface FalseStopMark {
  falseStop: boolean;
  completesUnbraked: boolean;
  byTruth: boolean;
}

/**
 * `run` judged against its no-brake run. A run no brake acted on (no brake stop, no action skipped) made its
 * no-brake run's calls and is its own baseline (`truth`: its ground truth when known); `unbraked` is asked for
 * only where the brakes acted. `ownDone`: a closed-loop synthetic run's own ground truth (RunPair.truth).
 */
export function falseStopMark(run: BrakedRun, own: { truth?: BaselineTruth | undefined; ownDone?: boolean | undefined }, unbraked: () => UnbrakedRun): FalseStopMark {
  const acted = isBrakeStop(run.stopReason) || (run.skippedActions ?? 0) > 0;
  const base = acted ? unbraked() : { stopReason: run.stopReason, steps: run.steps, truth: own.truth };
  const baseline = { stop: stopCodeOf(base.stopReason), steps: base.steps, truth: base.truth };
  return {
    falseStop: isFalseStop(stopCodeOf(run.stopReason), run.steps, baseline, own.ownDone),
    completesUnbraked: completesWithoutBrakes(baseline),
    byTruth: base.truth !== undefined,
  };
}

/** The figures in replay's JSON summary (`falseStops`, `falseStopRate` as sweep's and check's; `falseStopsJudged`: how many runs each way). */
export interface FalseStopFigures {
  falseStops: number;
  /** Over the runs that complete with no brakes (`completeWithoutBrakes`); null: none does. */
  falseStopRate: number | null;
  completeWithoutBrakes: number;
  falseStopsJudged: { byGroundTruth: number; byRecordedEnd: number };
}

/** The marks of a replay's runs added up (runs of files left out by --skip-bad never added). */
export class FalseStopTally {
  private falseStops = 0;
  private completeWithoutBrakes = 0;
  private byGroundTruth = 0;
  private byRecordedEnd = 0;

  add(mark: FalseStopMark): void {
    if (mark.falseStop) this.falseStops += 1;
    if (mark.completesUnbraked) this.completeWithoutBrakes += 1;
    if (mark.byTruth) this.byGroundTruth += 1;
    else this.byRecordedEnd += 1;
  }

  figures(): FalseStopFigures {
    const { falseStops, completeWithoutBrakes, byGroundTruth, byRecordedEnd } = this;
    return { falseStops, falseStopRate: falseStopRate({ falseStops, baselineCompleted: completeWithoutBrakes }), completeWithoutBrakes, falseStopsJudged: { byGroundTruth, byRecordedEnd } };
  }
}

/** How the runs were judged, after the count: by ground truth, by their recordings' end, or how many each way. */
function judgedText(judged: FalseStopFigures['falseStopsJudged']): string {
  if (judged.byRecordedEnd === 0) return 'by ground truth';
  if (judged.byGroundTruth === 0) return "by their recordings' end";
  return `${judged.byGroundTruth} by ground truth, ${judged.byRecordedEnd} by their recordings' end`;
}

/**
 * The summary's `false stops` value, in sweep's and check's words: `39 (20.53% of the 190 runs that complete
 * with no brakes; by ground truth)` — the rate as check writes it (two decimals, trailing zeros dropped).
 */
export function falseStopsText(figures: FalseStopFigures): string {
  const judged = judgedText(figures.falseStopsJudged);
  if (figures.falseStopRate === null) return `${figures.falseStops} (no run completes with no brakes; ${judged})`;
  const of = figures.completeWithoutBrakes === 1 ? 'the 1 run that completes' : `the ${counted(figures.completeWithoutBrakes, 'run')} that complete`;
  return `${figures.falseStops} (${styledPercentText(figures.falseStopRate, { decimals: 2, trim: true })} of ${of} with no brakes; ${judged})`;
}

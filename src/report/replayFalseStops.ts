/**
 * replay's false stops (and tasks done: FalseStopTally.doneCounts): runs a brake stopped that complete with no
 * brakes, each run and its no-brake run (its baseline, as population/run.ts makes it) counted as sweep and check count them (metrics/tallyBuilder.ts
 * TallyBuilder; the rate is population.ts falseStopRate). A run with ground truth (a scenario file's synthetic
 * run, a trace `loopcost generate` wrote) is judged by it; a recorded run by how its recording ends (replayed
 * with no brakes, open loop: its recorded end); a session tree (`replay --tree`) by its no-brake tree's. Pure.
 */
import { isBrakeStop, type StopReason } from '../brakes/stopReasons.js';
import { stopCodeOf } from '../kernel/stopCodes.js';
import { falseStopRate, type BaselineTruth } from '../metrics/population.js';
import { TallyBuilder, type CodedBaseline, type CodedRun } from '../metrics/tallyBuilder.js';
import { counted } from '../plural.js';
import { DoneCountsBuilder, type DoneCounts, type JudgedRun } from '../population/recommendRuns.js';
import { percentText } from './percentText.js';

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

/**
 * One run's part in the count: its stop (a stop code) and steps, its no-brake run's with that run's ground truth
 * when known, and a closed-loop synthetic run's own (`ownDone`: RunPair.truth). Flat: replay keeps one per run.
 */
export interface FalseStopMark {
  stop: number;
  steps: number;
  unbrakedStop: number;
  unbrakedSteps: number;
  truth?: BaselineTruth | undefined;
  ownDone?: boolean | undefined;
}

/**
 * `run` beside its no-brake run. A run no brake acted on (no brake stop, no action skipped) made its no-brake
 * run's calls and is its own baseline (`truth`: its ground truth when known); `unbraked` is asked for only where
 * the brakes acted.
 */
export function falseStopMark(run: BrakedRun, own: { truth?: BaselineTruth | undefined; ownDone?: boolean | undefined }, unbraked: () => UnbrakedRun): FalseStopMark {
  const acted = isBrakeStop(run.stopReason) || (run.skippedActions ?? 0) > 0;
  return pairMark(run, acted ? unbraked() : { stopReason: run.stopReason, steps: run.steps, truth: own.truth }, own.ownDone);
}

/** A run and its no-brake run, as the count takes them (a session tree and its no-brake tree: always both run). */
export function pairMark(run: BrakedRun, unbraked: UnbrakedRun, ownDone?: boolean): FalseStopMark {
  const mark: FalseStopMark = { stop: stopCodeOf(run.stopReason), steps: run.steps, unbrakedStop: stopCodeOf(unbraked.stopReason), unbrakedSteps: unbraked.steps };
  if (unbraked.truth !== undefined) mark.truth = unbraked.truth;
  if (ownDone !== undefined) mark.ownDone = ownDone;
  return mark;
}

/** The figures in replay's JSON summary (`falseStops`, `falseStopRate` as sweep's and check's; `falseStopsJudged`: how many runs each way). */
export interface FalseStopFigures {
  falseStops: number;
  /** Over the runs that complete with no brakes (`completeWithoutBrakes`); null: none does. */
  falseStopRate: number | null;
  completeWithoutBrakes: number;
  falseStopsJudged: { byGroundTruth: number; byRecordedEnd: number };
}

/**
 * The marks of a replay's runs added up (runs of files left out by --skip-bad never added): each pair into a
 * population tally (TallyBuilder: false stops and runs that complete with no brakes counted as sweep's and
 * check's), which reads only stops and steps here (money and tokens 0); and the runs with ground truth judged
 * done or not as a sweep's tallies judge them (recommendRuns.ts DoneCountsBuilder: the summary's tasks done).
 */
export class FalseStopTally {
  private readonly tally = new TallyBuilder();
  private readonly done = new DoneCountsBuilder(1);
  private readonly run: CodedRun = { stop: 0, steps: 0, costPico: 0, inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, overshootPico: 0 };
  private readonly baseline: CodedBaseline = { stop: 0, steps: 0, costPico: 0 };
  private byGroundTruth = 0;
  private byRecordedEnd = 0;
  /** Each run as judged for tasks done, in the order added (undefined: no ground truth): the by-input table's (byInputSummary.ts). */
  private readonly judged: (JudgedRun | undefined)[] = [];

  add(mark: FalseStopMark): void {
    this.judged.push(mark.truth === undefined ? undefined : { stop: mark.stop, steps: mark.steps, truth: mark.truth, ownDone: mark.ownDone });
    this.run.stop = mark.stop;
    this.run.steps = mark.steps;
    this.baseline.stop = mark.unbrakedStop;
    this.baseline.steps = mark.unbrakedSteps;
    this.baseline.truth = mark.truth;
    this.tally.addCoded(this.run, this.baseline, mark.ownDone);
    this.done.judge(0, mark);
    if (mark.truth !== undefined) this.byGroundTruth += 1;
    else this.byRecordedEnd += 1;
  }

  /** The runs with ground truth, as a sweep row counts them (the summary's `tasksDone`: recommendRuns.ts tasksDoneOf); undefined when none carries any. Read once. */
  doneCounts(): DoneCounts | undefined {
    const counts = this.done.take(0);
    return counts.groundTruthRuns === 0 ? undefined : counts;
  }

  /** Each run added as judged for tasks done (undefined where it carries no ground truth), in the order added. */
  judgedRuns(): readonly (JudgedRun | undefined)[] {
    return this.judged;
  }

  figures(): FalseStopFigures {
    const { falseStops, baselineCompleted } = this.tally.finish();
    const { byGroundTruth, byRecordedEnd } = this;
    return { falseStops, falseStopRate: falseStopRate({ falseStops, baselineCompleted }), completeWithoutBrakes: baselineCompleted, falseStopsJudged: { byGroundTruth, byRecordedEnd } };
  }
}

/** How the runs were judged, after the count: by ground truth, by their recordings' end, or how many each way. */
function judgedText(judged: FalseStopFigures['falseStopsJudged']): string {
  if (judged.byRecordedEnd === 0) return 'by ground truth';
  if (judged.byGroundTruth === 0) return "by their recordings' end";
  return `${judged.byGroundTruth} by ground truth, ${judged.byRecordedEnd} by their recordings' end`;
}

/**
 * The summary's `false stops` value, in sweep's and check's words: `39 (20.5% of the 190 runs that complete
 * with no brakes; by ground truth)` — the rate as sweep and calibrate write it (percentText: one decimal from 1% up; check alone writes two);
 * `unit` `tree` for session trees (`replay --tree`: each tree one run, as sweep --tree counts them).
 */
export function falseStopsText(figures: FalseStopFigures, unit: 'run' | 'tree' = 'run'): string {
  const judged = judgedText(figures.falseStopsJudged);
  if (figures.falseStopRate === null) return `${figures.falseStops} (no ${unit} completes with no brakes; ${judged})`;
  const of = figures.completeWithoutBrakes === 1 ? `the 1 ${unit} that completes` : `the ${counted(figures.completeWithoutBrakes, unit)} that complete`;
  return `${figures.falseStops} (${percentText(figures.falseStopRate)} of ${of} with no brakes; ${judged})`;
}

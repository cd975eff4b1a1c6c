/**
 * whatif's tasks done, where runs carry ground truth (a scenario file's synthetic runs, traces `loopcost
 * generate` wrote): each run under its baseline and under each setting judged by the rule replay's summary
 * and sweep's rows count by (groundTruth.ts countsAsDone, as recommendRuns.ts DoneCountsBuilder.judge applies
 * it) and counted as they count it (DoneCountsBuilder, tasksDoneOf): runs with ground truth when their task is
 * done, the others (recordings) when their stop reason is `completed`. So whatif's tasks done under a setting
 * is sweep's for the same brakes and runs. Pure.
 */
import { countsAsDone, type BaselineTruth } from '../metrics/groundTruth.js';
import { stopCodeOf } from '../kernel/stopCodes.js';
import type { StopReason } from '../brakes/stopReasons.js';
import { DoneCountsBuilder, tasksDoneOf } from '../population/recommendRuns.js';
import type { TasksDone } from '../population/sweep.js';

/** A replay's ground truth: a closed-loop synthetic run's own under the brakes it ran with (`taskDone`: whether it did its task). */
export type ReplayTruth = BaselineTruth & { taskDone?: boolean };

/**
 * Whether a run replayed under some brakes did its task: judged by its own ground truth where the replay gives
 * one (a closed-loop synthetic run, as sweep judges one: its `taskDone`), else by its recording's (`recorded`: a
 * generated trace's header, the step its task is done at); `{}` with neither (a recording: no ground truth).
 */
export function taskDoneOf(run: { stopReason: StopReason; steps: number; truth?: ReplayTruth | undefined }, recorded: BaselineTruth | undefined): { taskDone?: boolean } {
  const truth = run.truth ?? recorded;
  if (truth === undefined) return {};
  return { taskDone: countsAsDone(stopCodeOf(run.stopReason), run.steps, truth, run.truth?.taskDone) };
}

/**
 * The tasks done of some runs, counted as a sweep row and replay's summary count them, in the pass that
 * totals the runs (whatifTotals.ts): each run added, then taken with the runs' totals (their number, those
 * that ended `completed`, their spend), which the tally does not count again.
 */
export class TasksDoneTally {
  private readonly counts = new DoneCountsBuilder(1);

  /** A run (`completed`: it ended `completed`; `taskDone`: whether it did its task), counted where it carries ground truth. */
  add(completed: boolean, taskDone: boolean | undefined): void {
    if (taskDone !== undefined) this.counts.add(0, completed, taskDone);
  }

  /** The runs' tasks done, from their totals; undefined when no run carries ground truth. */
  take(totals: { runs: number; completed: number; totalPico: bigint }): TasksDone | undefined {
    const done = this.counts.take(0);
    return done.groundTruthRuns === 0 ? undefined : tasksDoneOf(totals, done);
  }
}

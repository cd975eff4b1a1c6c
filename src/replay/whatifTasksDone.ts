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

/** What tasksDoneOfRuns reads of a run: its stop, spend, and `taskDone` where it carries ground truth. */
export interface DoneJudgedRun {
  stopReason: StopReason;
  costPico: number;
  taskDone?: boolean;
}

/** The runs' tasks done, counted as a sweep row and replay's summary count them; undefined when no run carries ground truth. */
export function tasksDoneOfRuns(runs: readonly DoneJudgedRun[]): TasksDone | undefined {
  const counts = new DoneCountsBuilder(1);
  let completed = 0;
  let totalPico = 0n;
  for (const run of runs) {
    const ended = run.stopReason === 'completed';
    if (ended) completed += 1;
    totalPico += BigInt(run.costPico);
    if (run.taskDone !== undefined) counts.add(0, ended, run.taskDone);
  }
  const done = counts.take(0);
  return done.groundTruthRuns === 0 ? undefined : tasksDoneOf({ runs: runs.length, completed, totalPico }, done);
}

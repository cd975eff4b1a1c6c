/**
 * "Completed" means two things in loopcost's reports: a run whose stop reason is `completed` (completion
 * rate, cost per completed run) and, where ground truth is known (synthetic runs, generated traces), a run
 * whose task is done with no brakes (false stops, calibrate, --suggest-cap). They differ by runs that end
 * `completed` without doing their task (an agent that gives up and answers anyway) and runs that do it but
 * end otherwise (trace_end, a hard cap). CompletionMeanings counts both over the no-brake runs with ground
 * truth, and completionMeaningsLine says it in one line. Pure.
 */
import type { StopReason } from '../brakes/stopReasons.js';
import type { BaselineTruth } from '../metrics/groundTruth.js';
import { counted } from '../plural.js';

export interface CompletionCounts {
  /** No-brake runs with ground truth. */
  runs: number;
  /** Of those, runs whose stop reason is `completed`. */
  completed: number;
  /** Of those, runs whose task is done (ground truth). */
  tasksDone: number;
  /** Completed without doing the task. */
  completedNotDone: number;
  /** Did the task but ended otherwise, by stop reason (most first). */
  doneNotCompleted: { stopReason: StopReason; runs: number }[];
}

/** The no-brake runs with ground truth, added one by one. */
export class CompletionMeanings {
  private runs = 0;
  private completed = 0;
  private tasksDone = 0;
  private completedNotDone = 0;
  private readonly doneOtherwise = new Map<StopReason, number>();

  /** A run's no-brake stop and ground truth (none: not counted). */
  add(stop: StopReason, truth: BaselineTruth | undefined): void {
    if (truth !== undefined) this.addRuns(stop, truth.doneAtStep !== undefined, 1);
  }

  /** `runs` no-brake runs with ground truth that stopped by `stop`, their task done or not (runs a sweep counted: noBrakeRuns.ts). */
  addRuns(stop: StopReason, done: boolean, runs: number): void {
    if (runs === 0) return;
    this.runs += runs;
    if (stop === 'completed') this.completed += runs;
    if (done) this.tasksDone += runs;
    if (stop === 'completed' && !done) this.completedNotDone += runs;
    if (stop !== 'completed' && done) this.doneOtherwise.set(stop, (this.doneOtherwise.get(stop) ?? 0) + runs);
  }

  counts(): CompletionCounts {
    const doneNotCompleted = [...this.doneOtherwise].sort(([a, m], [b, k]) => k - m || (a < b ? -1 : 1)).map(([stopReason, runs]) => ({ stopReason, runs }));
    return { runs: this.runs, completed: this.completed, tasksDone: this.tasksDone, completedNotDone: this.completedNotDone, doneNotCompleted };
  }
}

/**
 * One line: `"Completed" two ways (the 200 runs with ground truth, with no brakes): 148 completed (stop reason: …), 151 tasks done (ground truth: …):
 * 2 completed without doing the task, 5 did it but ended trace_end.` `uses`: which of the report's figures read
 * each. Undefined without runs with ground truth.
 */
export function completionMeaningsLine(c: CompletionCounts, uses: { completed: string; done: string }): string | undefined {
  if (c.runs === 0) return undefined;
  const otherwise = c.doneNotCompleted.reduce((sum, entry) => sum + entry.runs, 0);
  const ended = c.doneNotCompleted.map((entry) => (c.doneNotCompleted.length === 1 ? entry.stopReason : `${entry.stopReason} ${entry.runs}`)).join(', ');
  const gaps = [
    ...(c.completedNotDone === 0 ? [] : [`${c.completedNotDone} completed without doing the task`]),
    ...(otherwise === 0 ? [] : [`${otherwise} did it but ended ${ended}`]),
  ];
  return (
    `"Completed" two ways (the ${counted(c.runs, 'run')} with ground truth, with no brakes): ${c.completed} completed (stop reason completed: ${uses.completed}), ` +
    `${c.tasksDone} tasks done (ground truth: ${uses.done})${gaps.length === 0 ? ': the same runs' : `: ${gaps.join(', ')}`}.`
  );
}

/**
 * replay's summary where runs carry ground truth (a scenario file's synthetic runs, traces `loopcost generate`
 * wrote): its tasks done and cost per task done, counted as a sweep row counts them (recommendRuns.ts
 * DoneCountsBuilder.judge and tasksDoneOf: the summary's `tasksDone`), so the figure a sweep's pick names is the
 * one its `To reproduce it` command shows. Without ground truth, completion is the stop reason's (cost per
 * completed run). Pure.
 */
import type { TasksDone } from '../population/sweep.js';
import { counted } from '../plural.js';
import { percentText } from './percentText.js';

/**
 * The summary's `tasks done` value, `189 (63.0%; by ground truth: 4 did their task but ended otherwise)`: where
 * the count parts from the runs that ended `completed`, and (beside recorded runs, which carry none) that
 * those are counted by their stop reason.
 */
export function tasksDoneText(tasks: TasksDone, runs: number): string {
  const parts: string[] = [];
  if (tasks.completedNotDone > 0) parts.push(`${tasks.completedNotDone} ended \`completed\` without doing ${tasks.completedNotDone === 1 ? 'it' : 'theirs'}`);
  if (tasks.doneNotCompleted > 0) parts.push(`${tasks.doneNotCompleted} did ${tasks.doneNotCompleted === 1 ? 'its task' : 'their task'} but ended otherwise`);
  const howJudged = parts.length === 0 ? 'by ground truth: the runs that ended `completed`' : `by ground truth: ${parts.join(', ')}`;
  const others = runs - tasks.groundTruthRuns;
  const recorded = others === 0 ? '' : `; the ${counted(others, 'recorded run')} without it by stop reason`;
  return `${tasks.done} (${percentText(tasks.doneRate)}; ${howJudged}${recorded})`;
}

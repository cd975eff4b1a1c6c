/**
 * What a sweep's recommendation counts as completed where some runs carry ground truth (synthetic runs,
 * generated traces): tasks done (recommend.ts countedRow), not runs that merely ended `completed` — a
 * retrier that gives up and answers anyway ends `completed` with its task undone. The report says so in one
 * line (`completionCounted`): how many runs that ended `completed` without doing their task are not counted,
 * of the configuration recommended, or of the one counting by stop reason would pick instead (where none of
 * its are, why the pick differs: runs that did the task but ended otherwise count as done); beside recorded
 * runs (no ground truth), that those are counted by their stop reason. Pure.
 */
import { recommendedIndex, type CountedRow, type RecommendRule } from '../population/recommend.js';
import type { TasksDone } from '../population/sweep.js';
import { counted } from '../plural.js';
import { usdOrDash } from './money.js';
import { percentText } from './percentText.js';

/** What the recommendation counted as completed, and the line that says it (JSON `completionCounted`). */
export interface CompletionCounted {
  /** `tasks done`: every run carries ground truth; `tasks done, else completed`: the runs without (recorded runs) by stop reason. */
  by: 'tasks done' | 'tasks done, else completed';
  /** Runs judged by ground truth, and runs by their stop reason. */
  groundTruthRuns: number;
  stopReasonRuns: number;
  /** The configuration the line counts: the recommendation, or the one stop reasons would pick instead (null: neither). */
  settings: string | null;
  /** Its runs that ended `completed` without doing their task (not counted); 0 when no configuration is named. */
  completedNotDone: number;
  text: string;
}

type Row = CountedRow & { settings: string };

/** Whether a sweep's recommendation counts tasks done: some of its runs carry ground truth. */
export function countsTasksDone(rows: readonly Pick<CountedRow, 'tasksDone'>[]): boolean {
  return rows.some((row) => row.tasksDone !== undefined);
}

/** How the recommendation says completion, by what it counts (tasks done where runs carry ground truth). */
export interface CompletionWords {
  /** `For at least 85.0% <target>`. */
  target: string;
  /** `839/1000 <count> (83.9%)`. */
  count: string;
  /** `$0.22 <per>`. */
  per: string;
  /** `Halving its step cap to 30 <half(790, 1000)>`. */
  half: (completed: number, runs: number) => string;
  /** `How far to trust it: on 1000 runs, <rate> is …`. */
  rate: string;
  /** `No configuration <none> 85.0% <noneOf>`. */
  none: string;
  noneOf: string;
}

const COMPLETED_WORDS: CompletionWords = { target: 'of runs completed', count: 'complete', per: 'per completed run', half: (n, runs) => `would complete ${n}/${runs}`, rate: 'its completion rate', none: 'completes at least', noneOf: 'of runs' };
const DONE_WORDS: CompletionWords = { target: 'of tasks done', count: 'tasks done', per: 'per task done', half: (n, runs) => `would get ${n}/${runs} tasks done`, rate: 'its rate of tasks done', none: 'gets at least', noneOf: 'of tasks done' };

export function completionWords(tasksDone: boolean): CompletionWords {
  return tasksDone ? DONE_WORDS : COMPLETED_WORDS;
}

/** What the table's and chart's completion figures are called, and what they count (one source with the pick and the frontier: countedRow). */
export interface CountedLabels {
  /** The table's columns: `tasks done`, `per task done` (else `completed`, `per completed`). */
  count: string;
  per: string;
  /** The chart's titles. */
  rate: string;
  perRun: string;
  /** The legend under the table: the frontier, and with ground truth what a task done is. */
  legend: string;
  /** With ground truth, what a task done is (and how recorded runs beside are counted): the chart's legend. */
  meaning?: string;
}

/** What a task done is, and where recorded runs carry no ground truth, how theirs are counted. */
function doneMeaning(rows: readonly Pick<CountedRow, 'runs' | 'tasksDone'>[]): string {
  const first = rows.find((row) => row.tasksDone !== undefined)!;
  const stopReasonRuns = first.runs - first.tasksDone!.groundTruthRuns;
  const recorded = stopReasonRuns === 0 ? '' : `; the ${counted(stopReasonRuns, 'recorded run')}, which carry none, when their stop reason is \`completed\``;
  return `tasks done: runs whose task is done by their ground truth, not every run that ended \`completed\` (an agent may answer without doing it)${recorded}: JSON and CSV \`tasksDone.done\`, where \`completed\` counts stop reasons.`;
}

/** The labels of completion where the rows count it (tasks done where runs carry ground truth: countsTasksDone). */
export function countedLabels(rows: readonly Pick<CountedRow, 'runs' | 'tasksDone'>[]): CountedLabels {
  if (!countsTasksDone(rows)) return { count: 'completed', per: 'per completed', rate: 'completion rate (%)', perRun: 'cost per completed run (USD)', legend: '* on the frontier: no other configuration is both cheaper per completed run and completes more.' };
  const meaning = doneMeaning(rows);
  const legend = `* on the frontier: no other configuration is both cheaper per task done and gets more tasks done. ${meaning}`;
  return { count: 'tasks done', per: 'per task done', rate: 'tasks done (%)', perRun: 'cost per task done (USD)', legend, meaning };
}

/**
 * Why stop reasons alone would pick `named` over `pick` when none of `named`'s `completed` runs left its task
 * undone: runs that did the task yet were ended by a brake or their trace's end count as tasks done, not as
 * completed — so `pick` misses the target by stop reason, or its cost per completed run exceeds its cost per task done.
 */
function pickedByStopReasonText(named: Row, pick: Row, target: number): string {
  const lead = `By stop reason, ${named.settings} would be picked instead`;
  const ended = 'that did the task but ended by a brake or their trace\'s end count as tasks done, not as completed';
  const doneOf = (row: Row): TasksDone => row.tasksDone!;
  if (pick.completionRate < target) {
    return `${lead} (${named.completed}/${named.runs} complete): by stop reason ${pick.settings} completes ${pick.completed}/${pick.runs} (${percentText(pick.completionRate)}), below the target of ${percentText(target)}, but it gets ${doneOf(pick).done}/${pick.runs} tasks done: runs ${ended} (${doneOf(pick).doneNotCompleted} of its runs).`;
  }
  return `${lead} (${named.completed}/${named.runs} complete at ${usdOrDash(named.costPerCompletedUsd)} per completed run, against ${usdOrDash(pick.costPerCompletedUsd)} for ${pick.settings}): per task done, ${pick.settings} costs ${usdOrDash(doneOf(pick).costPerDoneUsd)} against ${usdOrDash(doneOf(named).costPerDoneUsd)} for ${named.settings}, as runs ${ended} (${doneOf(pick).doneNotCompleted} of ${pick.settings}'s, ${doneOf(named).doneNotCompleted} of ${named.settings}'s).`;
}

/**
 * The line under the recommendation (`pick`: its row, undefined when none reaches the target; `rule`: how it
 * was chosen, its tie order and false-stop bound); undefined when no run carries ground truth (the
 * recommendation counts stop reasons, as it always did).
 */
export function completionCountedOf(rows: readonly Row[], over: { target: number; pick: number | undefined; rule: RecommendRule }): CompletionCounted | undefined {
  const first = rows.find((row) => row.tasksDone !== undefined);
  if (first === undefined) return undefined;
  const groundTruthRuns = first.tasksDone!.groundTruthRuns;
  const stopReasonRuns = first.runs - groundTruthRuns;
  const by = stopReasonRuns === 0 ? 'tasks done' : 'tasks done, else completed';
  const base =
    stopReasonRuns === 0
      ? 'Completion here counts tasks done (ground truth)'
      : `Completion here counts tasks done for the ${counted(groundTruthRuns, 'run')} with ground truth, and stop reason \`completed\` for the ${counted(stopReasonRuns, 'recorded run')} (they carry none)`;
  const { pick } = over;
  // The configuration stop reasons alone would recommend (the rows' own completion rate and cost per completed run), by the same rule (within --max-false-stops).
  const byStop = recommendedIndex(rows, over.target, over.rule);
  const named = byStop !== undefined && byStop !== pick ? byStop : pick;
  const row = named === undefined ? undefined : rows[named]!;
  const notDone = row?.tasksDone?.completedNotDone ?? 0;
  let text: string;
  if (row === undefined) text = `${base}: runs that ended \`completed\` without doing their task are not counted.`;
  else if (named === pick && notDone === 0) text = `${base}: no run of ${row.settings} ended \`completed\` without doing the task.`;
  else if (named === pick) text = `${base}: ${counted(notDone, 'run')} of ${row.settings} that ended \`completed\` without doing the task ${notDone === 1 ? 'is' : 'are'} not counted.`;
  else if (notDone === 0 && pick !== undefined) text = `${base}. ${pickedByStopReasonText(row, rows[pick]!, over.target)}`;
  else {
    const instead = pick === undefined ? '' : ' instead';
    text = `${base}: runs that ended \`completed\` without doing their task are not counted. By stop reason, ${row.settings} would be picked${instead} (${row.completed}/${row.runs} complete), but ${notDone} of those runs did not do the task.`;
  }
  return { by, groundTruthRuns, stopReasonRuns, settings: row?.settings ?? null, completedNotDone: notDone, text };
}

/**
 * replay's summary counts tasks done where runs carry ground truth, by the sweep's rule (review 3, finding 1):
 * a sweep's pick said "189/300 tasks done at $0.00649 per task done" and the replay its text prints to
 * reproduce it said "completed 185 (61.7%)", "cost per completed task $0.00663" — stop reasons, under the
 * word task. Now replay's JSON `summary.tasksDone` is the sweep row's `tasksDone` (recommendRuns.ts
 * DoneCountsBuilder.judge, tasksDoneOf), the table shows `tasks done` and `cost per task done`, and without
 * ground truth the stop reasons' figure is called what it is: `cost per completed run`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tasksDoneText } from '../../src/report/replayTasksDone.js';
import { cli, cliJson, tempDir } from '../cli/run.js';
import { RETRIERS_SCENARIO } from '../cli/retriersScenario.js';

const MIX = ['scenarios/production-mix.yaml', '--runs', '150', '--seed', '3'];
const RECORDED = 'test/fixtures/mini-swe-agent';
const flat = (text: string) => text.replace(/\s+/g, ' ');

let dir = '';
let retriers = '';

beforeAll(() => {
  dir = tempDir();
  retriers = join(dir, 'retriers.yaml');
  writeFileSync(retriers, RETRIERS_SCENARIO);
});

/** The sweep's one configuration and replay's summary, under the same flags. */
async function sweepAndReplay(inputs: readonly string[], flags: readonly string[]) {
  const grid = flags.flatMap((flag, i) => (flag.startsWith('--') ? ['--grid', `${flag.slice(2)}=${flags[i + 1]}`] : []));
  const sweep = await cliJson('sweep', ...inputs, ...grid, '--workers', '1');
  const replay = await cliJson('replay', ...inputs, ...flags);
  return { row: sweep.configurations[0], summary: replay.summary };
}

describe("replay's summary: tasks done as the sweep counts them", () => {
  it("the sweep's pick replays to its tasks done and cost per task done (the review's mix)", async () => {
    const flags = ['--max-steps', '20', '--max-repeat', '2'];
    const { row, summary } = await sweepAndReplay(MIX, flags);
    expect(summary.tasksDone).toEqual(row.tasksDone);
    expect(summary.tasksDone.groundTruthRuns).toBe(150);
    // The stop reasons' figures stay, under their own name.
    expect([summary.completed, summary.costPerCompletedRunUsd]).toEqual([row.completed, row.costPerCompletedUsd]);
    expect(summary).not.toHaveProperty('costPerCompletedTaskUsd');
    const table = (await cli('replay', ...MIX, ...flags)).stdout;
    expect(table).toMatch(new RegExp(`^tasks done +${row.tasksDone.done} \\(`, 'm'));
    expect(table).toMatch(/^cost per task done +\$/m);
    expect(table).not.toContain('cost per completed');
  });

  it('retriers that answer without doing their task: counted out, and the table says how many', async () => {
    const flags = ['--max-steps', '60', '--max-same-error', '100'];
    const { row, summary } = await sweepAndReplay([retriers], flags);
    expect(summary.tasksDone).toEqual(row.tasksDone);
    expect([summary.completed, summary.tasksDone.done, summary.tasksDone.completedNotDone]).toEqual([200, 169, 31]);
    const table = flat((await cli('replay', retriers, ...flags)).stdout);
    expect(table).toContain('tasks done 169 (84.5%; by ground truth: 31 ended `completed` without doing theirs)');
  });

  it('generated traces beside recorded runs: theirs by ground truth, the recorded ones by stop reason, as the sweep', async () => {
    const generated = join(dir, 'generated.jsonl');
    expect((await cli('generate', retriers, '--runs', '40', '--out', generated)).code).toBe(0);
    const flags = ['--max-steps', '30'];
    const { row, summary } = await sweepAndReplay([generated, RECORDED], flags);
    expect(summary.tasksDone).toEqual(row.tasksDone);
    expect(summary.tasksDone.groundTruthRuns).toBe(40);
    const recorded = summary.runs - 40;
    expect(flat((await cli('replay', generated, RECORDED, ...flags)).stdout)).toContain(`; the ${recorded} recorded runs without it by stop reason)`);
  });

  it('recorded runs alone carry no ground truth: no tasks done, and cost per completed run', async () => {
    const summary = (await cliJson('replay', RECORDED)).summary;
    expect(summary).not.toHaveProperty('tasksDone');
    expect(summary.costPerCompletedRunUsd).toBeGreaterThan(0);
    const table = (await cli('replay', RECORDED)).stdout;
    expect(table).toMatch(/^cost per completed run +\$/m);
    expect(table).not.toMatch(/tasks done|completed task/);
  });

  it("the tasks-done line's words", () => {
    const tasks = { done: 7, doneRate: 0.7, costPerDoneUsd: 1, groundTruthRuns: 10, completedNotDone: 0, doneNotCompleted: 0 };
    expect(tasksDoneText(tasks, 10)).toBe('7 (70.0%; by ground truth: the runs that ended `completed`)');
    expect(tasksDoneText({ ...tasks, completedNotDone: 1, doneNotCompleted: 1 }, 12)).toBe('7 (70.0%; by ground truth: 1 ended `completed` without doing it, 1 did its task but ended otherwise; the 2 recorded runs without it by stop reason)');
    expect(tasksDoneText({ ...tasks, completedNotDone: 2, doneNotCompleted: 3 }, 10)).toBe('7 (70.0%; by ground truth: 2 ended `completed` without doing theirs, 3 did their task but ended otherwise)');
  });
});

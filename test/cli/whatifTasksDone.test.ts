/**
 * whatif counts completion as replay's summary and sweep's rows do where runs carry ground truth (scenario
 * files' synthetic runs, generated traces): tasks done (replay/whatifTasksDone.ts), so whatif and sweep give
 * one count for one setting and the same runs. Before, whatif's table said `completed` by stop reason:
 * 150/300 on production-mix under max-steps=10, where sweep said 156/300 tasks done (6 runs did their task
 * and ended otherwise); and on retriers that give up and answer anyway, every run `completed`. Recorded runs
 * alone (no ground truth) keep the `completed` column, with no new field; beside them, they count by stop reason.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, cliJson, tempDir } from './run.js';
import { RETRIERS_SCENARIO } from './retriersScenario.js';

interface TasksDone { done: number; groundTruthRuns: number; completedNotDone: number; doneNotCompleted: number }
interface WhatIfTotal { setting: string; runs: number; completed: number; tasksDone?: TasksDone }
interface WhatIfJson { baseline: { runs: number; completed: number; tasksDone?: TasksDone }; totals: WhatIfTotal[]; runs: { setting: string; taskDone?: boolean; baselineTaskDone?: boolean }[] }
interface SweepJson { configurations: { settings: string; completed: number; tasksDone?: TasksDone }[] }

const MIX = ['scenarios/production-mix.yaml', '--runs', '300'];
const RECORDED = ['scenarios/recorded-pair.jsonl', 'scenarios/long-exploration.jsonl'];

/** Each whatif setting's tasks done beside the sweep row of the same brakes (`grid`: the sweep's, one row per try, in order). */
async function bothCounts(inputs: string[], tries: string[], grid: string[]) {
  const whatif = (await cliJson('whatif', ...inputs, ...tries.flatMap((t) => ['--try', t]))) as WhatIfJson;
  const sweep = (await cliJson('sweep', ...inputs, ...grid, '--workers', '1')) as SweepJson;
  return { whatif, sweep };
}

/** The whatif table's line of a row (its name first), split on runs of two spaces or more. */
const tableCells = (table: string, name: string): string[] => table.split('\n').map((line) => line.trim().split(/\s{2,}/)).find((cells) => cells[0] === name)!;

describe('whatif counts tasks done as sweep does, for the same setting and runs', () => {
  it('production-mix: max-steps=10 and max-steps=60, each setting the count of the sweep row of the same brakes', async () => {
    const { whatif, sweep } = await bothCounts(MIX, ['max-steps=10', 'max-steps=60'], ['--grid', 'max-steps=10,60']);
    expect(whatif.totals.map((t) => t.tasksDone)).toEqual(sweep.configurations.map((row) => row.tasksDone));
    expect(whatif.totals.map((t) => t.completed)).toEqual(sweep.configurations.map((row) => row.completed));
    // The input tells the two counts apart: under max-steps=10 runs did their task and ended otherwise; under 60, runs ended `completed` undone.
    expect(whatif.totals[0]!.tasksDone!.done).not.toBe(whatif.totals[0]!.completed);
    expect(whatif.totals[1]!.tasksDone!.completedNotDone).toBeGreaterThan(0);
  });

  it("the text table heads the count `tasks done` and shows sweep's figure; per run, JSON and CSV say which runs did their task", async () => {
    const sweep = (await cliJson('sweep', ...MIX, '--grid', 'max-steps=10', '--workers', '1')) as SweepJson;
    const done = sweep.configurations[0]!.tasksDone!.done;
    const text = await cli('whatif', ...MIX, '--try', 'max-steps=10');
    expect(text.code).toBe(0);
    expect(tableCells(text.stdout, 'setting')[1]).toBe('tasks done');
    expect(tableCells(text.stdout, 'max-steps=10')[1]).toBe(`${done}/300`);
    expect(text.stdout.replace(/\s+/g, ' ')).toContain('tasks done: runs whose task is done by their ground truth');
    const csv = await cli('whatif', ...MIX, '--try', 'max-steps=10', '--format', 'csv');
    const [header, ...lines] = csv.stdout.trim().split('\n');
    const column = header!.split(',').indexOf('taskDone');
    expect(column).toBeGreaterThan(0);
    expect(lines.filter((line) => line.split(',')[column] === '1')).toHaveLength(done);
    const json = (await cliJson('whatif', ...MIX, '--try', 'max-steps=10')) as WhatIfJson;
    expect(json.runs.filter((run) => run.taskDone === true)).toHaveLength(done);
  });

  it("the baseline's tasks done is replay's summary's for the same runs under their file's brakes", async () => {
    const whatif = (await cliJson('whatif', ...MIX, '--try', 'max-steps=10')) as WhatIfJson;
    const replay = (await cliJson('replay', ...MIX)) as { summary: { tasksDone: TasksDone } };
    expect(whatif.baseline.tasksDone).toEqual(replay.summary.tasksDone);
    expect(whatif.runs.filter((run) => run.baselineTaskDone === true)).toHaveLength(replay.summary.tasksDone.done);
  });

  it('retriers that give up and answer anyway: runs that ended `completed` undone are not counted, as in sweep', async () => {
    const scenario = join(tempDir(), 'retriers.yaml');
    writeFileSync(scenario, RETRIERS_SCENARIO);
    const { whatif, sweep } = await bothCounts([scenario], ['max-steps=60,max-same-error=100'], ['--grid', 'max-steps=60', '--grid', 'max-same-error=100']);
    expect(whatif.totals[0]!.tasksDone).toEqual(sweep.configurations[0]!.tasksDone);
    expect(whatif.totals[0]!.tasksDone!.completedNotDone).toBeGreaterThan(0);
  });

  it('generated traces (ground truth in their headers): the same count as sweep', async () => {
    const out = join(tempDir(), 'generated.jsonl');
    expect((await cli('generate', 'scenarios/production-mix.yaml', '--runs', '200', '--out', out)).code).toBe(0);
    const { whatif, sweep } = await bothCounts([out], ['preset=none,max-steps=10'], ['--grid', 'max-steps=10']);
    expect(whatif.totals[0]!.tasksDone).toEqual(sweep.configurations[0]!.tasksDone);
    expect(whatif.totals[0]!.tasksDone!.done).not.toBe(whatif.totals[0]!.completed);
  });
});

describe('runs without ground truth', () => {
  it('recorded runs alone: the `completed` column, no tasks done in JSON or CSV', async () => {
    const text = await cli('whatif', ...RECORDED, '--try', 'max-steps=10');
    expect(tableCells(text.stdout, 'setting')[1]).toBe('completed');
    expect(text.stdout).not.toContain('tasks done');
    const json = await cli('whatif', ...RECORDED, '--try', 'max-steps=10', '--format', 'json');
    expect(json.stdout).not.toMatch(/tasksDone|taskDone/);
    const csv = await cli('whatif', ...RECORDED, '--try', 'max-steps=10', '--format', 'csv');
    expect(csv.stdout.split('\n')[0]).not.toMatch(/taskDone/);
  });

  it('beside synthetic runs: tasks done counts the recorded runs by their stop reason (tasks done, else completed)', async () => {
    const mixed = (await cliJson('whatif', 'scenarios/production-mix.yaml', '--runs', '40', ...RECORDED, '--try', 'max-steps=10')) as WhatIfJson;
    const synthetic = (await cliJson('whatif', 'scenarios/production-mix.yaml', '--runs', '40', '--try', 'max-steps=10')) as WhatIfJson;
    const recorded = (await cliJson('whatif', ...RECORDED, '--try', 'max-steps=10')) as WhatIfJson;
    expect(mixed.totals[0]!.tasksDone!.groundTruthRuns).toBe(40);
    expect(mixed.totals[0]!.tasksDone!.done).toBe(synthetic.totals[0]!.tasksDone!.done + recorded.totals[0]!.completed);
    expect(mixed.baseline.tasksDone!.done).toBe(synthetic.baseline.tasksDone!.done + recorded.baseline.completed);
    const text = await cli('whatif', 'scenarios/production-mix.yaml', '--runs', '40', ...RECORDED, '--try', 'max-steps=10');
    expect(text.stdout.replace(/\s+/g, ' ')).toContain('the 3 recorded runs, which carry none, when they ended `completed`');
  });
});

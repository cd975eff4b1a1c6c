/**
 * sweep's table and chart count completion as the pick and the frontier do (recommend.ts countedRow): where
 * runs carry ground truth, tasks done, labelled so; before, the table's `completed` column counted stop
 * reasons, so on the same row it said 200/200 where the pick said 169/200 tasks done. A population of
 * retriers that give up after 40 attempts and answer anyway (every run ends `completed`, 31 with the task
 * undone): the table, the chart and the CSV's tasksDone agree; the JSON keeps `completed` by stop reason;
 * recorded runs alone (no ground truth) keep the `completed` column; beside them, the legend says how
 * recorded runs are counted.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';
import { RETRIERS_SCENARIO } from './retriersScenario.js';

const SCENARIO = RETRIERS_SCENARIO;
const GRID = ['--grid', 'max-steps=40,60', '--grid', 'max-same-error=3,100', '--workers', '1'];
const LOOSE = 'max-steps=60,max-same-error=100';

interface Row { settings: string; runs: number; completed: number; costPerCompletedUsd: number | null; tasksDone: { done: number; costPerDoneUsd: number | null; completedNotDone: number } }
const oneLine = (text: string) => text.replace(/\s+/g, ' ');
/** A CSV line's cells (quoted ones unquoted: settings hold commas). */
const cellsOf = (line: string): string[] => [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(?:,|$)/g)].map((m) => m[1]!.replace(/^"|"$/g, '').replace(/""/g, '"')).slice(0, -1);
/** The table's line of a configuration: its grid values then its cells, split on runs of two spaces or more. */
const tableCells = (table: string, values: string[]): string[] | undefined =>
  table
    .split('\n')
    .map((line) => line.trim().split(/\s{2,}/))
    .find((cells) => cells[0]!.replace(/^[*→]+/, '') === values[0] && cells[1] === values[1]);

let scenario = '';

beforeAll(() => {
  scenario = join(tempDir(), 'retriers.yaml');
  writeFileSync(scenario, SCENARIO);
});

describe("sweep's table counts tasks done where runs carry ground truth", () => {
  it('the loose row: 169/200 tasks done in the table (the pick\'s figure), 200 completed by stop reason in JSON', async () => {
    const json = await cli('sweep', scenario, ...GRID, '--target-completion', '0.85', '--format', 'json');
    expect(json.code, json.stderr).toBe(0);
    const rows = (JSON.parse(json.stdout) as { configurations: Row[] }).configurations;
    const loose = rows.find((row) => row.settings === LOOSE)!;
    // Every run ended `completed`; 31 retriers did not do their task.
    expect([loose.completed, loose.tasksDone.done, loose.tasksDone.completedNotDone]).toEqual([200, 169, 31]);
    const table = await cli('sweep', scenario, ...GRID, '--target-completion', '0.85');
    expect(table.code, table.stderr).toBe(0);
    const header = tableCells(table.stdout, ['max-steps', 'max-same-error'])!;
    expect(header.slice(2, 4)).toEqual(['tasks done', 'per task done']);
    expect(tableCells(table.stdout, ['60', '100'])!.slice(2, 4)).toEqual(['169/200 84.5%', `$${loose.tasksDone.costPerDoneUsd!.toFixed(4)}`]);
    expect(table.stdout.split('\n').filter((line) => line.includes('200/200 100.0%'))).toEqual([]);
    // The table and the line under the pick say the same: no configuration reaches 85% of tasks done.
    expect(oneLine(table.stdout)).toContain('No configuration gets at least 85.0% of tasks done.');
    expect(oneLine(table.stdout)).toContain('* on the frontier: no other configuration is both cheaper per task done and gets more tasks done. tasks done: runs whose task is done by their ground truth, not every run that ended `completed` (an agent may answer without doing it): JSON and CSV `tasksDone.done`, where `completed` counts stop reasons.');
    expect(oneLine(table.stdout)).toContain("what JSON's and CSV's completed, completionRate and costPerCompletedUsd count");
    expect(oneLine(table.stdout)).toContain("what the table's tasks done, the frontier, the recommendation and synthetic runs' false stops are judged by");
  });

  it('every row as the CSV\'s tasksDone.done; the chart plots tasks done', async () => {
    const [head, ...lines] = (await cli('sweep', scenario, ...GRID, '--format', 'csv')).stdout.trim().split('\n');
    const names = cellsOf(head!);
    const table = (await cli('sweep', scenario, ...GRID)).stdout;
    for (const line of lines) {
      const cells = cellsOf(line);
      const at = (name: string) => cells[names.indexOf(name)]!;
      const values = [...at('settings').matchAll(/=(\d+)/g)].map((m) => m[1]!);
      expect(tableCells(table, values)![2]).toBe(`${at('tasksDone.done')}/${at('runs')} ${(Number(at('tasksDone.doneRate')) * 100).toFixed(1)}%`);
    }
    const chart = (await cli('sweep', scenario, ...GRID, '--format', 'chart')).stdout;
    expect(chart).toContain('tasks done (%) against max-steps');
    expect(chart).toContain('cost per task done (USD) against max-steps');
    expect(chart).toMatch(/^ +84\.5 ┤/m);
    expect(chart).not.toMatch(/^ +100\.0 ┤/m);
  });

  it('recorded runs alone keep `completed`; beside synthetic runs, the legend says how they are counted', async () => {
    const recorded = await cli('sweep', 'scenarios/recorded-pair.jsonl', '--grid', 'max-steps=5,10');
    expect(recorded.code, recorded.stderr).toBe(0);
    expect(tableCells(recorded.stdout, ['max-steps', 'completed'])).toBeDefined();
    expect(oneLine(recorded.stdout)).toContain('* on the frontier: no other configuration is both cheaper per completed run and completes more. false stop:');
    expect(recorded.stdout).not.toContain('tasks done');
    const both = await cli('sweep', 'scenarios/recorded-pair.jsonl', scenario, ...GRID);
    expect(both.code, both.stderr).toBe(0);
    expect(tableCells(both.stdout, ['max-steps', 'max-same-error'])!.slice(2, 4)).toEqual(['tasks done', 'per task done']);
    expect(oneLine(both.stdout)).toContain('(an agent may answer without doing it); the 2 recorded runs, which carry none, when their stop reason is `completed`: JSON and CSV');
    // The chart says it too, under its x axis (its titles say tasks done).
    const chart = await cli('sweep', 'scenarios/recorded-pair.jsonl', scenario, ...GRID, '--format', 'chart');
    expect(oneLine(chart.stdout)).toContain('tasks done: runs whose task is done by their ground truth, not every run that ended `completed` (an agent may answer without doing it); the 2 recorded runs, which carry none, when their stop reason is `completed`');
    expect((await cli('sweep', 'scenarios/recorded-pair.jsonl', '--grid', 'max-steps=5,10', '--format', 'chart')).stdout).not.toContain('tasks done');
  });
});

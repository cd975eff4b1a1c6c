/**
 * whatif's per-run text table says whether each run did its task under the setting, as its JSON and CSV do
 * (`taskDone`): a `task done` column (`yes`, `no`; `-` for a recorded run beside synthetic ones, which
 * carries no ground truth). Before, the text table had no such column. Runs without ground truth: no column.
 */
import { describe, expect, it } from 'vitest';
import { cli, cliJson } from './run.js';

interface RunRow { source: string; setting: string; stopReason: string; taskDone?: boolean }
const TRIES = ['--try', 'max-steps=5', '--try', 'max-steps=10'];
const RECORDED = ['scenarios/recorded-pair.jsonl', 'scenarios/long-exploration.jsonl'];

/** The per-run table's rows: the lines under its header (the line starting `run `) and rule, to the first blank line. */
function perRunLines(text: string): { header: string[]; rows: string[] } {
  const lines = text.split('\n');
  const at = lines.findIndex((line) => line.startsWith('run '));
  expect(at, text).toBeGreaterThan(0);
  const rows = lines.slice(at + 2);
  return { header: [lines[at - 1]!, lines[at]!], rows: rows.slice(0, rows.indexOf('')) };
}

/** Each row's cell under the `task done` header (its two lines: `task` over `done`; left-aligned, so it starts where they do). */
function taskDoneCells(text: string): string[] {
  const { header, rows } = perRunLines(text);
  const at = header[1]!.search(/ done( |$)/) + 1;
  expect(header[0]!.slice(at, at + 4)).toBe('task');
  return rows.map((row) => row.slice(at).split(' ')[0]!);
}

const said = (taskDone: boolean | undefined) => (taskDone === undefined ? '-' : taskDone ? 'yes' : 'no');

describe("whatif's per-run text table: whether each run did its task", () => {
  it('synthetic runs: each row says what its JSON row says, in the order of the rows', async () => {
    const args = ['whatif', 'scenarios/production-mix.yaml', ...TRIES];
    const json = (await cliJson(...args)) as { runs: RunRow[] };
    const text = (await cli(...args, '--per-run')).stdout;
    const cells = taskDoneCells(text);
    expect(cells).toEqual(json.runs.map((row) => said(row.taskDone)));
    // The input tells it from the stop reason: a run that ended otherwise did its task, or one that ended `completed` did not (or both).
    expect(json.runs.some((row) => (row.stopReason === 'completed') !== row.taskDone)).toBe(true);
    expect(new Set(cells)).toEqual(new Set(['yes', 'no']));
  });

  it('recorded runs beside synthetic ones: `-` on theirs', async () => {
    const args = ['whatif', ...RECORDED, 'scenarios/production-mix.yaml', '--runs', '5', '--try', 'max-steps=10'];
    const json = (await cliJson(...args)) as { runs: RunRow[] };
    const cells = taskDoneCells((await cli(...args, '--per-run')).stdout);
    expect(cells).toEqual(json.runs.map((row) => said(row.taskDone)));
    expect(cells.slice(0, 3)).toEqual(['-', '-', '-']);
  });

  it('recorded runs alone (no ground truth): no task done column, as their JSON and CSV have no taskDone', async () => {
    const text = (await cli('whatif', ...RECORDED, ...TRIES, '--per-run')).stdout;
    const { header } = perRunLines(text);
    expect(header.join('\n')).not.toMatch(/task|done/);
  });
});

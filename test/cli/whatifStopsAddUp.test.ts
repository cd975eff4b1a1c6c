/**
 * whatif's and sweep's tables: a row's stop counts add up to its runs. Where runs carry ground truth the first
 * count is tasks done (by ground truth), and the stop columns left out `completed`: production-mix's baseline
 * read `120/200 … max_steps 42, repeat 13, trace_end 30`, 205 of 200 runs (115 ended `completed`; 5 more did
 * their task and ended trace_end). The stop counts now hold `completed` too (`stops`), tasks done stays the
 * ground-truth count, and the note under the table says so. Recorded runs alone (no ground truth: the first
 * column counts `completed`, so the row adds up already) keep `other stops`.
 */
import { describe, expect, it } from 'vitest';
import { cli, cliJson } from './run.js';

interface Counts { runs: number; completed: number; tasksDone?: { done: number }; stopReasons: Record<string, number> }
const MIX = ['scenarios/production-mix.yaml'];
const RECORDED = ['scenarios/recorded-pair.jsonl', 'scenarios/long-exploration.jsonl'];
const flat = (text: string) => text.replace(/\s+/g, ' ');

/** A table line's cells (split on runs of two spaces or more), the line found by its first cell. */
const rowCells = (text: string, first: string): string[] => text.split('\n').map((line) => line.trim().split(/\s{2,}/)).find((cells) => cells[0] === first)!;

/** The stop counts in a row's stop cells: one `completed 115, max_steps 42` cell, or a count per reason column (no reason holds a digit). */
const stopSum = (cells: readonly string[]): number => cells.flatMap((cell) => cell.match(/\d+/g) ?? []).reduce((sum, n) => sum + Number(n), 0);

describe("whatif's summary: a row's stop counts add up to its runs", () => {
  it('production-mix: tasks done by ground truth, and every stop reason, `completed` among them', async () => {
    const tries = ['--try', 'max-steps=5', '--try', 'max-steps=10'];
    const json = (await cliJson('whatif', ...MIX, ...tries)) as { baseline: Counts; totals: (Counts & { setting: string })[] };
    const text = (await cli('whatif', ...MIX, ...tries)).stdout;
    const rows: [string, Counts][] = [['baseline', json.baseline], ...json.totals.map((t): [string, Counts] => [t.setting, t])];
    for (const [name, counts] of rows) {
      const cells = rowCells(text, name);
      // setting, tasks done, completions stopped, caught (saved), spend, Δ spend, then the stop counts.
      expect(cells[1]).toBe(`${counts.tasksDone!.done}/${counts.runs}`);
      expect(stopSum(cells.slice(6)), `${name}: ${cells.join(' | ')}`).toBe(counts.runs);
      expect(counts.tasksDone!.done).not.toBe(counts.completed);
    }
    expect(rowCells(text, 'baseline').slice(0, 2)).toEqual(['baseline', '120/200']);
    expect(flat(text)).toContain('the stop counts hold every run by its stop reason, `completed` among them (JSON `completed`, `stopReasons`), so a row\'s add up to its runs.');
  });

  it('where the counts fit in one column (--wide), it is headed `stops` and lists `completed`', async () => {
    const text = (await cli('whatif', ...MIX, '--try', 'max-steps=5', '--wide')).stdout;
    expect(text.split('\n')[0]).toMatch(/\s{2}stops$/);
    expect(rowCells(text, 'baseline').at(-1)).toBe('completed 115, max_steps 42, repeat 13, trace_end 30');
  });

  it('where every row\'s tasks done are exactly its completed runs, the counts keep `other stops` and their room', async () => {
    const args = ['whatif', 'scenarios/flight-search.yaml', '--runs', '20', '--try', 'max-steps=5'];
    const json = (await cliJson(...args)) as { baseline: Counts & { tasksDone: { completedNotDone: number; doneNotCompleted: number } } };
    expect(json.baseline.tasksDone).toMatchObject({ done: json.baseline.completed, completedNotDone: 0, doneNotCompleted: 0 });
    const text = (await cli(...args)).stdout;
    expect(text.split('\n')[0]).toMatch(/\s{2}other stops$/);
    const cells = rowCells(text, 'baseline');
    expect(cells.at(-1)).toBe('max_steps 5');
    // Tasks done and the other stops add up to the runs already.
    expect(json.baseline.completed + stopSum([cells.at(-1)!])).toBe(json.baseline.runs);
  });

  it('recorded runs alone: `completed` counts stop reasons, the stop counts stay `other stops`', async () => {
    const text = (await cli('whatif', ...RECORDED, '--try', 'max-steps=10')).stdout;
    expect(text.split('\n')[0]).toMatch(/^setting\s+completed\s.*\s{2}other stops$/);
    expect(rowCells(text, 'baseline (recorded limits)').at(-1)).toBe('trace_end 1');
    expect(text).not.toContain('`completed` among them');
  });
});

describe("sweep's table: a row's stop counts add up to its runs", () => {
  it('production-mix over max-steps=5,10,20: tasks done by ground truth, `completed` among the stop counts', async () => {
    const grid = ['--runs', '200', '--grid', 'max-steps=5,10,20'];
    const json = (await cliJson('sweep', ...MIX, ...grid)) as { configurations: Counts[] };
    const text = (await cli('sweep', ...MIX, ...grid)).stdout;
    // The reasons some row has (JSON lists every one, in the kernel's order: `completed` first).
    const reasons = Object.keys(json.configurations[0]!.stopReasons).filter((reason) => json.configurations.some((row) => row.stopReasons[reason]! > 0));
    expect(reasons[0]).toBe('completed');
    json.configurations.forEach((row, i) => {
      const cells = rowCells(text.replace(/^\*/gm, ''), ['5', '10', '20'][i]!);
      // max-steps, tasks done, per task done, spend, p95/run, false stops, caught, saved, then a count per reason.
      expect(cells[1]).toMatch(new RegExp(`^${row.tasksDone!.done}/200 `));
      expect(cells.slice(8).map(Number)).toEqual(reasons.map((reason) => row.stopReasons[reason]));
      expect(stopSum(cells.slice(8))).toBe(row.runs);
    });
    expect(flat(text)).toMatch(/compl… = completed, .*: runs that ended with that stop reason \(a row's add up to its runs\)\./);
  });

  it('recorded runs alone keep the stop counts other than completion', async () => {
    const text = (await cli('sweep', 'scenarios/recorded-pair.jsonl', '--grid', 'max-steps=5,10')).stdout;
    expect(text).not.toMatch(/\bcompl…|`completed` among them|a row's add up/);
  });
});

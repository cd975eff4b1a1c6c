/**
 * Reports scripts read (review): a sweep's CSV header and its JSON stop counts, and a what-if's, never
 * change with the data — every stop reason the kernel knows, in its order, 0 where none — and
 * `sweep --shard K/N` writes the JSON merge reads without being told to.
 */
import { describe, expect, it } from 'vitest';
import { STOP_REASONS } from '../../src/brakes/stopReasons.js';
import { cli } from './run.js';

const M = 'test/fixtures/mini-swe-agent';

const headerOf = (csv: string): string => csv.split('\n')[0]!;

describe('stable columns for scripts', () => {
  it('sweep CSV: the same header whatever stops the runs had', async () => {
    const short = await cli('sweep', M, '--grid', 'max-steps=3,4', '--format', 'csv');
    const long = await cli('sweep', M, '--grid', 'max-steps=300', '--format', 'csv');
    expect(short.code, short.stderr).toBe(0);
    expect(long.code, long.stderr).toBe(0);
    expect(headerOf(long.stdout)).toBe(headerOf(short.stdout));
    const columns = headerOf(short.stdout).split(',');
    expect(columns.filter((c) => c.startsWith('stopReasons.'))).toEqual(STOP_REASONS.map((r) => `stopReasons.${r}`));
    const at = columns.indexOf('stopReasons.timeout');
    for (const line of short.stdout.trim().split('\n').slice(1)) expect(line.split(',')[at]).toBe('0');
  });

  it('sweep JSON: every configuration lists every stop reason, in order, 0 where none', async () => {
    const { code, stdout, stderr } = await cli('sweep', M, '--grid', 'max-steps=3,300', '--format', 'json');
    expect(code, stderr).toBe(0);
    const rows = JSON.parse(stdout).configurations as { stopReasons: Record<string, number>; runs: number; completed: number }[];
    for (const row of rows) {
      expect(Object.keys(row.stopReasons)).toEqual([...STOP_REASONS]);
      expect(Object.values(row.stopReasons).reduce((a, b) => a + b, 0)).toBe(row.runs);
      expect(row.stopReasons.completed).toBe(row.completed);
    }
    expect(rows[0]!.stopReasons.completed).toBe(0);
  });

  it('whatif JSON: the baseline and every setting list every stop reason', async () => {
    const { code, stdout, stderr } = await cli('whatif', M, '--try', 'max-steps=3', '--try', 'max-cost=5', '--format', 'json');
    expect(code, stderr).toBe(0);
    const report = JSON.parse(stdout) as { baseline: { stopReasons: object }; totals: { stopReasons: object }[] };
    expect(Object.keys(report.baseline.stopReasons)).toEqual([...STOP_REASONS]);
    for (const total of report.totals) expect(Object.keys(total.stopReasons)).toEqual([...STOP_REASONS]);
  });
});

describe('sweep --shard', () => {
  it('writes JSON without --format, as its help says; another format asked for is refused', async () => {
    const plain = await cli('sweep', M, '--grid', 'max-steps=3,4', '--shard', '1/2');
    expect(plain.code, plain.stderr).toBe(0);
    expect(JSON.parse(plain.stdout).shard).toMatchObject({ index: 1, of: 2 });
    const table = await cli('sweep', M, '--grid', 'max-steps=3,4', '--shard', '1/2', '--format', 'table');
    expect([table.code, table.stderr]).toEqual([2, expect.stringContaining("a shard's report is JSON")]);
    const help = await cli('sweep', '--help');
    expect(help.stdout.replace(/\s+/g, ' ')).toContain('JSON without --format; an --out must be named .json');
  });
});

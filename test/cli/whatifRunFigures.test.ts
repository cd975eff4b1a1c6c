/**
 * `whatif`'s per-run rows carry the strategy figures its summary rows carry (summary calls and cost,
 * cache hits lost, skipped actions): in JSON, in CSV (valid: read back and written again by csv-stringify,
 * the same text) and in the per-run table. Every row carries the same figures, 0 where its run had none,
 * and a setting's per-run figures add up to its summary row, the baseline's to the baseline row.
 */
import { describe, expect, it } from 'vitest';
import { formatUsdNumber } from '../../src/report/money.js';
import { parseCsv } from './csv.js';
import { cli } from './run.js';

/** Four real mini-swe-agent runs (copied from the shared traces), priced as recorded. */
const RUNS = ['test/fixtures/mini-swe-agent', '--prices', 'test/fixtures/prices/deepseek-recorded.json'];
/** max-steps=3 stops every run before its first summary; max-steps=1000 lets each run to its end. */
const TRIES = ['--try', 'max-steps=3', '--try', 'max-steps=1000'];
const SUMMARY = ['--context', 'summary:trigger=4000,keep=2,tokens=200', '--cache', 'on'];
const MASK = ['--context', 'mask:2', '--cache', 'on'];
const FIGURES = ['summaryCalls', 'summaryCostUsd', 'strategyCacheLostTokens', 'skippedActions'] as const;
const baselineName = (key: string): string => `baseline${key[0]!.toUpperCase()}${key.slice(1)}`;

type Row = Record<string, any>;

async function run(...argv: string[]): Promise<string> {
  const { code, stdout, stderr } = await cli('whatif', ...RUNS, ...TRIES, ...argv);
  expect(code, stderr).toBe(0);
  return stdout;
}

/** A figure in comparable units: USD as integer picodollars (per-run USD add up exactly, floats need not). */
const exact = (key: string, value: number): number => (key.endsWith('Usd') ? Math.round(value * 1e12) : value);

function sumOf(rows: readonly Row[], key: string): number {
  return rows.reduce((sum, row) => sum + exact(key, row[key]), 0);
}

describe('whatif: per-run rows carry the strategy figures, adding up to the summary rows', () => {
  for (const [name, context, expected] of [
    ['summary', SUMMARY, 'summaryCalls'],
    ['mask', MASK, 'strategyCacheLostTokens'],
  ] as const) {
    it(`--context ${name}: JSON and CSV per-run figures, every row alike, sum to each setting's and the baseline's totals`, async () => {
      const report = JSON.parse(await run(...context, '--format', 'json'));
      const keys = FIGURES.filter((key) => [report.baseline, ...report.totals].some((row: Row) => row[key] !== undefined));
      expect(keys).toContain(expected);
      expect(report.totals[0][expected]).toBeUndefined(); // max-steps=3: none, yet its rows carry the columns (0)
      expect(report.totals[1][expected]).toBeGreaterThan(0);
      const columns = [...keys.map(baselineName), ...keys];
      const runs: Row[] = report.runs;
      for (const row of runs) expect(Object.keys(row).filter((key) => /summary|strategy|skipped/i.test(key))).toEqual(columns);
      for (const total of report.totals) {
        const rows = runs.filter((row) => row.setting === total.setting);
        expect(rows).toHaveLength(4);
        for (const key of FIGURES) {
          if (!keys.includes(key)) continue;
          expect(sumOf(rows, key), `${total.setting} ${key}`).toBe(exact(key, total[key] ?? 0));
          expect(sumOf(rows, baselineName(key)), `baseline ${key}`).toBe(exact(key, report.baseline[key] ?? 0));
        }
      }

      const text = await run(...context, '--format', 'csv');
      const [header, ...lines] = parseCsv(text);
      const { stringify } = await import('csv-stringify/sync');
      expect(stringify([header!, ...lines])).toBe(text);
      expect(lines).toHaveLength(runs.length);
      for (const column of columns) expect(header).toContain(column);
      expect(header!.indexOf(baselineName(keys[0]!))).toBe(header!.indexOf('baselineCostUsd') + 1);
      expect(header!.indexOf(keys[0]!)).toBe(header!.indexOf('savedUsd') + 1);
      lines.forEach((line, r) => {
        for (const column of columns) expect(Number(line[header!.indexOf(column)]), `${r} ${column}`).toBe(runs[r]![column]);
      });
    });
  }

  it('the per-run table shows each row its figures: beside the rows (--wide), else in a table of their own within 120 columns', async () => {
    const runLines = (text: string): string[] => text.split('\n').filter((line) => /^(deepseek|django)/.test(line));
    const masked = JSON.parse(await run(...MASK, '--format', 'json')).runs as Row[];
    const wide = await run(...MASK, '--wide');
    expect(wide).not.toContain('strategy figures per run and setting');
    expect(wide.split('\n').find((line) => line.startsWith('run '))).toMatch(/completion stopped\s+cache lost$/);
    expect(runLines(wide).map((line) => Number(line.split(/\s+/).pop()))).toEqual(masked.map((row) => row.strategyCacheLostTokens));

    const text = await run(...SUMMARY);
    const summarised = JSON.parse(await run(...SUMMARY, '--format', 'json')).runs as Row[];
    expect(summarised.some((row) => row.summaryCalls > 0)).toBe(true);
    const [rows, own] = text.split('strategy figures per run and setting:\n');
    expect(runLines(rows!)).toHaveLength(summarised.length);
    expect(own!.split('\n')[0]).toMatch(/^run\s+setting\s+summaries\s+summary cost\s+cache lost$/);
    const figures = runLines(own!).map((line) => line.split(/\s+/).slice(-3).join(' '));
    expect(figures).toEqual(summarised.map((row) => `${row.summaryCalls} ${formatUsdNumber(row.summaryCostUsd)} ${row.strategyCacheLostTokens}`));
    for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(120);
  });

  it('a report without strategy figures has none on its per-run rows (JSON and CSV as before)', async () => {
    const report = JSON.parse(await run('--format', 'json'));
    expect(report.runs.every((row: Row) => Object.keys(row).every((key) => !/summary|strategy|skipped/i.test(key)))).toBe(true);
    const header = (await run('--format', 'csv')).split('\n')[0];
    expect(header).toMatch(/^source,setting,baselineStopReason,baselineSteps,baselineCostUsd,stopReason,steps,costUsd,falseStop,baselineCompletionStopped,savedUsd,cache,pricedAsOf,/);
  });
});

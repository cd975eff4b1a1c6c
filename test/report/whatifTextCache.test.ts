/**
 * whatif's per-run rows carry the cache each run took in JSON and CSV (`cache`: recorded, on, off), but its
 * text table had no cache column, so text did not say what the CSV says. The column now follows the
 * setting (a session tree's rows, which carry none, have none), and the table stays within 120 columns.
 */
import { describe, expect, it } from 'vitest';
import { renderWhatIfTable, type WhatIfReport } from '../../src/report/whatifReport.js';
import { widestLine } from '../../src/report/table.js';
import { cli, oneEntryScenario, tempDir } from '../cli/run.js';
import { pricesRecord } from '../../src/report/pricedModels.js';

const PAIR = 'scenarios/recorded-pair.jsonl';

/** Each per-run row's cell under the `cache` header (left-aligned: it starts where the header does). */
function cacheCells(text: string): string[] {
  const lines = text.split('\n');
  const header = lines.findIndex((line) => line.startsWith('run '));
  expect(header, text).toBeGreaterThanOrEqual(0);
  const at = lines[header]!.search(/ cache( |$)/) + 1;
  expect(at, lines[header]).toBeGreaterThan(0);
  const rows = lines.slice(header + 2);
  return rows.slice(0, rows.indexOf('')).map((line) => line.slice(at).split(' ')[0]!);
}

describe('whatif text per-run table: the cache column the JSON and CSV have', () => {
  it('each row says the cache its JSON row carries: recorded for a recorded trace, on and off for scenario files', async () => {
    const dir = tempDir();
    const on = oneEntryScenario(dir, 'on.yaml', { runs: '2', context: '{ context: full, cache: on }' });
    const off = oneEntryScenario(dir, 'off.yaml', { runs: '2' });
    const args = ['whatif', PAIR, on, off, '--try', 'max-steps=2', '--try', 'max-steps=5'];
    const json = JSON.parse((await cli(...args, '--format', 'json')).stdout) as WhatIfReport;
    const text = (await cli(...args, '--per-run')).stdout;
    expect(json.runs.map((row) => row.cache)).toEqual(['recorded', 'recorded', 'recorded', 'recorded', 'on', 'on', 'on', 'on', 'off', 'off', 'off', 'off']);
    expect(cacheCells(text)).toEqual(json.runs.map((row) => row.cache));
    expect(widestLine(text)).toBeLessThanOrEqual(120);
  });

  it('long run names and settings: within 120 columns, the cache whole; rows without a cache (session trees): no column', () => {
    const row = (i: number, cache?: 'recorded') => ({
      source: `/very/long/path/to/some/recorded/sessions/of/the/team/session-${i}-with-a-long-name.jsonl`,
      setting: 'max-steps=50,max-cost=0.5,budget-mode=predict',
      baselineStopReason: 'completed',
      baselineSteps: 120,
      baselineCostUsd: 1.2345,
      stopReason: 'same_error',
      steps: 100,
      costUsd: 1.1,
      baselineCompletionStopped: true,
      falseStop: true,
      savedUsd: 0,
      ...(cache === undefined ? {} : { cache }),
    });
    const report = (cache?: 'recorded'): WhatIfReport => ({
      tool: { name: 'loopcost', version: '0' },
      settings: { brakes: 'recorded', context: 'full', cache: 'as recorded', latency: 'as recorded' },
      prices: pricesRecord({ name: 'test', version: 'file', hash: '0' }, { models: [] }),
      baseline: { runs: 2, completed: 2, costUsd: 2.469, stopReasons: { completed: 2 } },
      totals: [{ setting: 'max-steps=50,max-cost=0.5,budget-mode=predict', onBaseline: true, runs: 2, completed: 0, baselineCompletionsStopped: 2, falseStops: 2, caughtRuns: 0, costUsd: 2.2, savedUsd: 0, stopReasons: { same_error: 2 } }],
      runs: [row(1, cache), row(2, cache)],
      warnings: [],
    });
    const text = renderWhatIfTable(report('recorded'), { width: 120, wide: false, perRun: true });
    expect(widestLine(text)).toBeLessThanOrEqual(120);
    expect(cacheCells(text)).toEqual(['recorded', 'recorded']);
    const tree = renderWhatIfTable(report(), { width: 120, wide: false, perRun: true });
    expect(tree.split('\n').find((line) => line.startsWith('run '))).not.toMatch(/ cache( |$)/);
  });
});

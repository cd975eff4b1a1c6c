/**
 * Dated prices default to the day a run was recorded (trace `header.recordedAt`), else to the bundled
 * table's release day: never the wall clock, never a price announced for later. Reports say which.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importMiniSweAgent } from '../../src/import/miniSweAgent.js';
import { BUNDLED_RELEASE, GenaiPriceTable, loadPriceTable } from '../../src/pricing/index.js';
import { cli, tempDir } from '../cli/run.js';
import { gunzipSync } from 'node:zlib';

describe('dated prices', () => {
  const table = new GenaiPriceTable();

  it('a price announced for after the release day is not charged (gemini-3.6-flash doubles on 2027-01-01)', () => {
    const released = table.resolve('gemini-3.6-flash');
    expect(released.base.input).toBe(750_000);
    expect(released.source).toMatchObject({ asOf: BUNDLED_RELEASE.day, dating: 'release' });
    expect(table.resolve('gemini-3.6-flash', undefined, '2027-01-02T10:00:00Z').base.input).toBe(1_500_000);
  });

  it("a run is priced as of the day it was recorded (UTC), before and after o3's 2025-06-10 price cut", () => {
    expect(table.resolve('o3', undefined, '2025-06-09T23:59:59Z').base.input).toBe(10_000_000);
    expect(table.resolve('o3', undefined, '2025-06-09T23:30:00-01:00').base.input).toBe(2_000_000); // 00:30 UTC on the 10th
    const recorded = table.resolve('o3', undefined, '2025-06-01T08:00:00Z');
    expect(recorded.source).toMatchObject({ asOf: '2025-06-01', dating: 'recorded' });
  });

  it('--prices-as-of wins over the recording day', () => {
    const asOf = loadPriceTable({ asOf: new Date('2025-06-20T00:00:00Z') });
    expect(asOf.resolve('o3', undefined, '2025-06-01T08:00:00Z').base.input).toBe(2_000_000);
    expect(asOf.resolve('o3', undefined, '2025-06-01T08:00:00Z').source).toMatchObject({ asOf: '2025-06-20', dating: 'as-of' });
  });

  it('replay prices each run as of its recording day and says so', async () => {
    const dir = tempDir();
    const lines = readFileSync('scenarios/reference-sum-of-squares.jsonl', 'utf8').trim().split('\n');
    const header = JSON.parse(lines[0]!);
    const run = (recordedAt?: string) => [JSON.stringify({ ...header, model: 'o3', ...(recordedAt ? { recordedAt } : {}) }), ...lines.slice(1)].join('\n') + '\n';
    writeFileSync(join(dir, 'before-cut.jsonl'), run('2025-06-01T12:00:00Z'));
    writeFileSync(join(dir, 'after-cut.jsonl'), run('2025-07-01T12:00:00Z'));
    writeFileSync(join(dir, 'undated.jsonl'), run());
    const json = JSON.parse((await cli('replay', dir, '--format', 'json')).stdout);
    const cost = Object.fromEntries(json.runs.map((r: { source: string; costUsd: number; pricedAsOf: string }) => [r.source.split('/').pop(), [r.costUsd, r.pricedAsOf]]));
    expect(cost['before-cut.jsonl'][1]).toBe('2025-06-01');
    expect(cost['after-cut.jsonl'][1]).toBe('2025-07-01');
    expect(cost['undated.jsonl'][1]).toBe(BUNDLED_RELEASE.day);
    expect(cost['before-cut.jsonl'][0]).toBeGreaterThan(cost['after-cut.jsonl'][0]);
    expect(cost['undated.jsonl'][0]).toBe(cost['after-cut.jsonl'][0]);
    expect(json.prices.days).toEqual({ recordedRuns: 2, firstDay: '2025-06-01', lastDay: '2025-07-01', undatedRuns: 1, releaseDay: BUNDLED_RELEASE.day });
    const text = (await cli('replay', dir)).stdout;
    expect(text.replace(/\s+/g, ' ')).toMatch(/dated prices as in effect on the day each run was recorded, else on the table's release day 2026-09-23; 2 runs priced as of the day recorded \(2025-06-01 to 2025-07-01\); 1 run has no recording date: priced as of 2026-09-23, the table's release day/);
  });

  it('the mini-swe-agent importer records when the run was recorded (its first extra.timestamp)', () => {
    const path = '../shared/traces/mini-swe-agent/deepseek_chat_dev/sqlfluff__sqlfluff-1517.traj.json.gz';
    const [trace] = importMiniSweAgent(gunzipSync(readFileSync(path)).toString('utf8'), path);
    expect(trace!.header.recordedAt).toBe('2026-04-09T06:27:25.418Z');
  });
});

/**
 * `compare` of a run where only some calls recorded a cost compares those calls, as the price-gap warning
 * does (pricing/recordedCost.ts), and says so (before: "none with a recorded cost … 0 disagree", verdict
 * `no recorded cost`, beside a warning of a 100% gap).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../cli/run.js';

const HEADER = '{"type":"header","schema":"loopcost.trace/1","model":"claude-sonnet-4-20250514","provider":"anthropic","systemTokens":100,"goalTokens":10,"origin":"recorded","recordedAt":"2025-06-01T00:00:00Z"}';
const PARTIAL = [
  HEADER,
  '{"type":"call","inputTokens":1000,"outputTokens":100,"webSearchRequests":2,"latencyMs":1000,"recordedCostUsd":5,"toolCalls":[{"name":"x","arguments":{"a":1},"resultTokens":10}]}',
  '{"type":"call","inputTokens":1200,"outputTokens":50,"latencyMs":900,"final":true}',
  '{"type":"end","outcome":"completed"}',
].join('\n');

function write(name: string, text: string): string {
  const path = join(tempDir(), name);
  writeFileSync(path, `${text}\n`);
  return path;
}

describe('compare: a run where only some calls recorded a cost', () => {
  it('compares those calls, and disagrees where the warning shows the gap', async () => {
    const r = await cli('compare', write('partial-cost.jsonl', PARTIAL), '--per-run');
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toMatch(/^1 run, 1 disagree with what was recorded/);
    // The table's price of the call that recorded a cost ($0.0245: 1,000 in, 100 out, 2 searches) beside its $5.
    expect(r.stdout).toMatch(/^claude-sonnet-4-0\s+1\s+1\s+\$0\.0245\s+\$5\.0000\s+-99\.5%$/m);
    expect(r.stdout).toMatch(/\$5\.0000 \(1 of 2 calls\)\s+-99\.5%\s+disagrees: cost off by -99\.5/);
    expect(r.stdout).not.toMatch(/no recorded cost/);
  });

  it('JSON: the run is cost-compared and says over which calls', async () => {
    const r = await cli('compare', write('partial-cost.jsonl', PARTIAL), '--format', 'json');
    const report = JSON.parse(r.stdout) as { summary: object; runs: { recordedCostUsd: number; costCompared: boolean; agrees: boolean; costComparedCalls: object }[] };
    expect(report.summary).toEqual({ runs: 1, costCompared: 1, disagreements: 1 });
    expect(report.runs[0]).toMatchObject({ recordedCostUsd: 5, costCompared: true, agrees: false, costComparedCalls: { compared: 1, calls: 2, computedCostUsd: 0.0245 } });
    expect((report.runs[0] as unknown as { problems: string }).problems).toMatch(/^cost off by -99\.5\d+% over the 1 of 2 calls that recorded a cost$/);
  });

  it('a run whose every call recorded its cost is compared as before (no costComparedCalls)', async () => {
    const every = PARTIAL.replace('"latencyMs":900,', '"latencyMs":900,"recordedCostUsd":0.00435,').replace('"recordedCostUsd":5', '"recordedCostUsd":0.0245');
    const report = JSON.parse((await cli('compare', write('every.jsonl', every), '--format', 'json')).stdout) as { runs: { agrees: boolean; costComparedCalls: unknown; recordedCostUsd: number }[] };
    expect(report.runs[0]).toMatchObject({ agrees: true, costComparedCalls: null, recordedCostUsd: 0.02885 });
  });

  it('CSV: the calls compared, of how many, and their computed cost; empty where every call recorded its cost', async () => {
    const every = PARTIAL.replace('"latencyMs":900,', '"latencyMs":900,"recordedCostUsd":0.00435,');
    const csv = (await cli('compare', write('partial-cost.jsonl', PARTIAL), write('every.jsonl', every), '--format', 'csv')).stdout.trim().split('\n');
    const header = csv[0]!.split(',');
    const cell = (line: string, name: string) => line.split(',')[header.indexOf(name)];
    expect(header).toEqual(expect.arrayContaining(['costComparedCalls', 'costComparedOfCalls', 'costComparedComputedUsd']));
    const partial = csv.find((line) => line.includes('partial-cost.jsonl'))!;
    expect([cell(partial, 'costComparedCalls'), cell(partial, 'costComparedOfCalls'), cell(partial, 'costComparedComputedUsd')]).toEqual(['1', '2', '0.0245']);
    const whole = csv.find((line) => line.includes('every.jsonl'))!;
    expect([cell(whole, 'costComparedCalls'), cell(whole, 'costComparedOfCalls'), cell(whole, 'costComparedComputedUsd')]).toEqual(['', '', '']);
  });
});

/**
 * `loopcost compare` says which runs it could not hold to a recorded cost: their verdict is not `ok`,
 * the summary counts the runs that had one, and the JSON and CSV carry the same (costCompared).
 */
import { describe, expect, it } from 'vitest';
import { cli } from './run.js';

const CASSETTES = '../shared/traces/cassettes';
const MINI = '../shared/traces/mini-swe-agent';

interface Run {
  recordedCostUsd: number | null;
  agrees: boolean;
  costCompared: boolean;
}

describe('compare: runs without a recorded cost', () => {
  it('the summary line counts the runs with a recorded cost', async () => {
    const r = await cli('compare', CASSETTES, '--per-run');
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toMatch(/^36 runs, 2 with a recorded cost, 0 disagree with what was recorded/);
  });

  it("a run with no recorded cost is not 'ok': its verdict says why", async () => {
    const text = (await cli('compare', CASSETTES, '--per-run')).stdout;
    const rows = text.split('\n').filter((line) => /^\S+\s+\d+\/\d+\s/.test(line));
    expect(rows).toHaveLength(36);
    const ok = rows.filter((line) => /\sok$/.test(line));
    const noCost = rows.filter((line) => /\sno recorded cost$/.test(line));
    expect(ok).toHaveLength(2);
    expect(noCost).toHaveLength(34);
    // ok only where a recorded cost stands beside the computed one.
    for (const line of ok) expect(line).toMatch(/\$[\d.]+\s+\$[\d.]+\s+[+-]?[\d.]+%\s+ok$/);
    for (const line of noCost) expect(line).toMatch(/\s-\s+-\s+no recorded cost$/);
  });

  it('JSON: costCompared per run and in the summary; agrees keeps its meaning', async () => {
    const report = JSON.parse((await cli('compare', CASSETTES, '--format', 'json')).stdout) as { runs: Run[]; summary: { runs: number; costCompared: number; disagreements: number } };
    expect(report.summary).toEqual({ runs: 36, costCompared: 2, disagreements: 0 });
    for (const run of report.runs) expect(run.costCompared).toBe(run.recordedCostUsd !== null);
    expect(report.runs.every((run) => run.agrees)).toBe(true);
    const csv = (await cli('compare', CASSETTES, '--format', 'csv')).stdout.split('\n');
    const column = csv[0]!.split(',').indexOf('costCompared');
    expect(column).toBeGreaterThan(0);
    expect(csv.slice(1).filter((line) => line !== '' && line.split(',')[column] === '1')).toHaveLength(2);
  });

  it('runs that recorded nothing at all say so; none with a cost is said in the summary', async () => {
    const text = (await cli('compare', 'scenarios/reference-sum-of-squares.jsonl', 'scenarios/recorded-pair.jsonl')).stdout;
    // No cost was compared: said so, and what was (the calls and tokens of the runs that recorded them).
    expect(text.split('\n')[0]).toMatch(/^3 runs, none with a recorded cost, so no cost was compared; 0 of the 2 runs with recorded calls or tokens disagree with them$/);
    expect(text).toMatch(/^reference-sum-of-squares\s.*\snothing recorded$/m);
    expect(text).toMatch(/^recorded-pair#1\s.*\sno recorded cost$/m);
    expect(text).not.toMatch(/\sok$/m);
  });

  it('when every run recorded its cost the summary line is as before', async () => {
    const text = (await cli('compare', MINI, '--prices-as-of', '2025-08-01')).stdout; // DeepSeek's prices before its cuts: the runs were billed less
    expect(text.split('\n')[0]).toMatch(/^38 runs, 33 disagree with what was recorded/);
    const one = (await cli('compare', 'scenarios/reference-sum-of-squares.jsonl')).stdout;
    // A run that recorded nothing: nothing was compared, not "0 disagree".
    expect(one.split('\n')[0]).toMatch(/^1 run, none with a recorded cost, calls or tokens: nothing was compared/);
  });
});

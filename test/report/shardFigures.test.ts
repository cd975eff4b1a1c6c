/**
 * A shard's money must agree with itself, as sweep writes it (src/metrics/population.ts): costUsd is
 * costPerRunUsd.mean × runs (within half a picodollar a run) and no more than max × runs, wastedUsd is at
 * most costUsd and all of it when no run completed. A shard that contradicts itself is refused naming the
 * field; every shard a real `sweep --shard` writes passes (a property over seeds, grids and shard counts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readSweepShard } from '../../src/report/sweepShard.js';
import { cli, tempDir } from '../cli/run.js';

const HOSTILE_SHARD = {
  tool: { name: 'loopcost', version: '0.1.0' },
  command: 'sweep',
  settings: { brakes: 'none', context: 'full', cache: 'off', latency: 'as recorded' },
  prices: { name: '@pydantic/genai-prices', version: '0.1.8', hash: '0c9da2297434f9f0', releasedOn: '2026-09-23', source: { name: '@pydantic/genai-prices', version: '0.1.8', hash: '0c9da2297434f9f0', releasedOn: '2026-09-23' }, models: [] },
  grid: [{ key: 'max-steps', values: ['5', '10', '20'] }],
  inputs: { recordedRuns: 1, syntheticRuns: 0, scenarios: [] },
  notes: [],
  warnings: [],
  shard: { index: 1, of: 2, from: 0, to: 1, configurations: 3, inputs: [] },
  configurations: [
    {
      settings: 'max-steps=5', flags: '--max-steps 5', brakes: 'max-steps=5', context: 'full', cache: 'off',
      runs: 1, completed: 0, completionRate: 0, costUsd: 0.0825,
      costPerRunUsd: { mean: 0.0825, p50: 0.0825, p95: 0.0825, max: 0.0825 },
      costPerCompletedUsd: null, wastedUsd: 0.0825, wastedShare: 1, falseStops: 1, falseStopRate: 1, caughtEarly: 0,
      savedUsd: 0, stopReasons: { max_steps: 1 }, tokens: { input: 28000, cached: 0, output: 1250 }, overshootUsd: 0, baselineCostUsd: 4.45925,
    },
  ],
};

type Row = (typeof HOSTILE_SHARD)['configurations'][number];

function issuesOf(edit: (row: Row) => void) {
  const shard = structuredClone(HOSTILE_SHARD);
  edit(shard.configurations[0]!);
  return readSweepShard(JSON.stringify(shard), 's.json').issues ?? [];
}

describe('a shard whose money contradicts itself is refused', () => {
  it('the untampered shard reads', () => {
    expect(issuesOf(() => {})).toEqual([]);
  });

  it.each<[string, (row: Row) => void, string, RegExp]>([
    ['costUsd 999 for one run of at most $0.0825', (r) => (r.costUsd = 999), 'configurations[0].costUsd', /is 999, not costPerRunUsd\.mean × runs \(0\.0825 × 1\)/],
    ['costUsd below mean × runs', (r) => ((r.runs = 2), (r.stopReasons.max_steps = 2)), 'configurations[0].costUsd', /not costPerRunUsd\.mean × runs \(0\.0825 × 2\)/],
    ['wasted $0.01 when nothing completed and $0.0825 was spent', (r) => (r.wastedUsd = 0.01), 'configurations[0].wastedUsd', /is 0\.01, not costUsd 0\.0825: no run completed/],
    ['wasted above the cost', (r) => (r.wastedUsd = 1), 'configurations[0].wastedUsd', /is 1, more than costUsd 0\.0825/],
  ])('%s', (_name, edit, field, message) => {
    const issues = issuesOf(edit);
    expect(issues.map((i) => i.field)).toContain(field);
    expect(issues.find((i) => i.field === field)!.message).toMatch(message);
  });

  it('a mean rounded half up to the picodollar still agrees (3 runs of $1/3 in all)', () => {
    // 333333333334 pico over 3 runs: mean 111111111111.33 rounds to 111111111111 pico; 3 × mean is 1 pico short.
    const issues = issuesOf((r) => {
      Object.assign(r, { runs: 3, costUsd: 0.333333333334, wastedUsd: 0.333333333334, falseStops: 0, stopReasons: { max_steps: 3 } });
      r.costPerRunUsd = { mean: 0.111111111111, p50: 0.111111111111, p95: 0.111111111112, max: 0.111111111112 };
    });
    expect(issues).toEqual([]);
  });
});

describe('every shard a real sweep writes passes the checks', () => {
  it('over seeds, run counts, grids and shard counts', async () => {
    const dir = tempDir();
    let made = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 1000 }),
        fc.integer({ min: 1, max: 12 }),
        fc.constantFrom('max-steps=2,5,40', 'max-cost=0.001,0.01,1', 'context=full,window:3', 'max-repeat=2,4'),
        fc.integer({ min: 1, max: 3 }),
        async (seed, runs, grid, of) => {
          const common = ['sweep', 'test/fixtures/mini-swe-agent', 'scenarios/keeps-asking.yaml', 'scenarios/production-mix.yaml', '--runs', String(runs), '--seed', String(seed), '--grid', grid, '--workers', '1'];
          for (let k = 1; k <= of; k++) {
            const out = join(dir, `s${made++}.json`);
            const result = await cli(...common, '--shard', `${k}/${of}`, '--out', out);
            expect(result.code, result.stderr).toBe(0);
            const read = readSweepShard(readFileSync(out, 'utf8'), out);
            expect(read.issues, `${grid} seed ${seed} runs ${runs} shard ${k}/${of}`).toBeUndefined();
          }
        },
      ),
      { numRuns: 8, seed: 19 },
    );
  }, 120_000);
});

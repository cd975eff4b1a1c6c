/**
 * An `expect:` bound is compared with no allowance for sampling noise (a review: the bundled production mix
 * failed ~8% of re-seeds with nothing changed; seed 1079 failed three bounds). The gate stays the bound as
 * written; each population expectation says when its figure's 95% interval holds the bound (src/check/expectNoise.ts).
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, tempDir } from '../cli/run.js';
import { boundsHeld, figureInterval, noiseFields } from '../../src/check/expectNoise.js';
import { noiseIntervalText, resultText } from '../../src/check/expectationText.js';
import type { CheckedRun, ExpectationResult } from '../../src/check/evaluate.js';
import { nearestRank } from '../../src/metrics/population.js';
import { Rng, STREAM } from '../../src/synthetic/random.js';

const run = (costPico: number, stopReason: CheckedRun['stopReason'] = 'completed'): CheckedRun => ({ source: 's', stopReason, steps: 3, costPico });

describe('an expectation within sampling noise', () => {
  it('the production mix re-seeded (1079) fails three bounds, each within sampling noise: its 95% interval holds the bound', async () => {
    const r = await cli('check', 'scenarios/production-mix.yaml', '--seed', '1079');
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^loopcost check: FAIL: 1 scenario, 5 expectations, 3 failed \(3 within sampling noise\)/);
    expect(r.stdout).toMatch(/population\.completionRate +50% +≥ 55% +FAIL\*$/m);
    expect(r.stdout).toContain('* within sampling noise: its figure’s 95% interval holds the bound (each said below)');
    // A bound well outside the interval: a plain pass.
    expect(r.stdout).toMatch(/population\.costPerRunUsd\.p95 +\$0\.00800 +≤ \$0\.01 +pass$/m);
    const flat = r.stdout.replace(/\s+/g, ' ');
    // 100 of 200 completed: Wilson 43.14%–56.86%.
    expect(flat).toContain('population.completionRate measured 50%, limit ≥ 55% (within sampling noise: 95% 43.14%–56.86% holds 55%; more runs tell)');
    expect(flat).toContain('(36 of 138 runs that complete without brakes stopped by a brake: max_steps 35 (completes 34, backtracker 1); repeat 1 (completes 1); within sampling noise: 95% 19.48%–33.99% holds 25%; more runs tell)');
    expect(flat).toContain('population.wastedShare measured 61.79%, limit ≤ 60% (within sampling noise: 95% 54.07%–69.5% holds 60%; more runs tell)');
    expect(flat).toContain('passed within sampling noise: production mix: population.costPerCompletedUsd measured $0.00732, limit ≤ $0.008 (within sampling noise: 95% $0.00592–$0.00873 holds $0.008; more runs tell)');
    expect(flat).toContain('sampling noise: the runs are a sample — synthetic ones of their population, recorded ones of the runs to come');
    const json = JSON.parse((await cli('check', 'scenarios/production-mix.yaml', '--seed', '1079', '--format', 'json')).stdout);
    const [completion, , p95] = json.scenarios[0].expectations;
    expect(completion).toMatchObject({ pass: false, withinNoise: true, interval: [0.43136086, 0.56863914] });
    // The p95's distribution-free interval (order statistics of 200 runs) is below the $0.01 bound.
    expect(p95).toMatchObject({ pass: true, withinNoise: false, interval: [0.00757065, 0.009078] });
    // JUnit's failure message says it too (a CI shows that message, not the report).
    const junit = join(tempDir(), 'check.xml');
    await cli('check', 'scenarios/production-mix.yaml', '--seed', '1079', '--junit', junit);
    expect(readFileSync(junit, 'utf8')).toContain('message="population.completionRate: measured 50%, limit ≥ 55% (within sampling noise: 95% 43.14%–56.86% holds 55%; more runs tell)"');
  });

  it('a failure far past its bound is not within noise; recorded runs are a sample too (3 runs cannot show a 0% rate)', async () => {
    const r = await cli('check', 'scenarios/production-mix.yaml', '--max-steps', '4');
    expect(r.stdout).toMatch(/population\.completionRate +15\.5% +≥ 55% +FAIL$/m);
    expect(r.stdout).toMatch(/^loopcost check: FAIL: 1 scenario, 5 expectations, 4 failed \(1 within sampling noise\)/);
    const recorded = await cli('check', 'scenarios/healthy-recordings.check.yaml');
    expect(recorded.code).toBe(0);
    expect(recorded.stdout).toMatch(/population\.falseStopRate +0% +≤ 0% +pass\*$/m);
    expect(recorded.stdout.replace(/\s+/g, ' ')).toContain('(within sampling noise: 95% 0%–');
  });

  it('each interval as its figure needs: Wilson for a rate, order statistics for a quantile (no upper end below 72 runs for the p95), none for the mean below 20 runs', () => {
    const half = Array.from({ length: 200 }, (_, i) => run(1_000_000, i % 2 === 0 ? 'completed' : 'max_steps'));
    expect(figureInterval('completionRate', half)!.interval.map((end) => end!.toFixed(4))).toEqual(['0.4314', '0.5686']);
    const fifty = Array.from({ length: 50 }, (_, i) => run((i + 1) * 1_000_000));
    const p95 = figureInterval('costPerRunUsd.p95', fifty)!;
    expect(p95).toEqual({ interval: [0.000044, null], note: 'no upper end from 50 runs; one needs 72' });
    // Any most above its lower end may be the population's p95.
    expect(boundsHeld(p95.interval, { max: 1 })).toEqual([1]);
    expect(boundsHeld(p95.interval, { max: 0.00004 })).toEqual([]);
    const fields = { ...noiseFields('costPerRunUsd.p95', { max: 1 }, 0.000048, fifty), limitMax: 1, limitUnit: 'USD' as const };
    expect(noiseIntervalText(fields)).toBe('95% $0.0000440 or more (no upper end from 50 runs; one needs 72) holds $1');
    const ten = fifty.slice(0, 10);
    expect(noiseFields('costPerRunUsd.mean', { max: 0.1 }, 0.0000055, ten)).toEqual({ interval: [null, null], withinNoise: true, intervalNote: 'too few runs for an interval of the mean (10; it needs 20)' });
    // The largest run of a sample has none (more runs only raise it), nor does a figure with no value.
    expect(figureInterval('costPerRunUsd.max', fifty)).toBeUndefined();
    expect(noiseFields('costPerCompletedUsd', { max: 1 }, null, fifty)).toEqual({});
    const result: ExpectationResult = { expectation: 'population.costPerRunUsd.mean', measured: 0.0000055, measuredText: '', limit: '', limitMax: 0.1, limitUnit: 'USD', pass: true, ...noiseFields('costPerRunUsd.mean', { max: 0.1 }, 0.0000055, ten) };
    expect(resultText(result)).toBe('pass*');
  });

  it('the intervals hold the population’s figure about 95% of the time (400 seeded samples of 100 runs)', () => {
    // Runs complete with p 0.6; a run's cost is lognormal, twice as dear when it does not complete.
    const draw = (rng: Rng): CheckedRun => {
      const completed = rng.chance(0.6);
      return run(Math.round((completed ? 1e9 : 2e9) * Math.exp(0.8 * rng.normal())), completed ? 'completed' : 'max_steps');
    };
    const big = Array.from({ length: 400_000 }, (_, i) => draw(Rng.stream(99, i, STREAM.checkBootstrap)));
    const costs = big.map((r) => r.costPico).sort((a, b) => a - b);
    const mean = (1.4e9 * Math.exp(0.32)) / 1e12;
    const truth: Record<string, number> = {
      completionRate: 0.6,
      wastedShare: 0.8 / 1.4,
      costPerCompletedUsd: mean / 0.6,
      'costPerRunUsd.mean': mean,
      'costPerRunUsd.p50': nearestRank(costs, 0.5)! / 1e12,
      'costPerRunUsd.p95': nearestRank(costs, 0.95)! / 1e12,
    };
    const held: Record<string, number> = Object.fromEntries(Object.keys(truth).map((figure) => [figure, 0]));
    for (let s = 0; s < 400; s++) {
      const sample = Array.from({ length: 100 }, (_, i) => draw(Rng.stream(s, i, STREAM.checkBootstrap)));
      for (const [figure, value] of Object.entries(truth)) if (boundsHeld(figureInterval(figure, sample)!.interval, { max: value }).length === 1) held[figure]! += 1;
    }
    for (const [figure, count] of Object.entries(held)) expect([figure, count >= 364 && count <= 396]).toEqual([figure, true]);
  });
});

/** The projection: its mean matches runs × days × mean cost, its quantiles are ordered below the worst case, seeded output repeats. */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES, REFERENCE_PRESET } from '../../src/brakes/config.js';
import { capBoundShare, largestCallPico, projectSpend, runsToClaim, suggestCapPico, worstCaseRun } from '../../src/population/project.js';
import { MINI } from '../helpers.js';
import { cli } from '../cli/run.js';

describe('projection', () => {
  // A lopsided population: most runs cheap, a few loop and cost ten times more.
  const costs = Array.from({ length: 60 }, (_, i) => (i % 15 === 0 ? 90_000_000_000 : 5_000_000_000 + i * 100_000_000));
  const mean = costs.reduce((a, b) => a + b, 0) / costs.length / 1e12;

  it('mean period spend = runs/day × days × mean cost per run within 1%, quantiles ordered', () => {
    const p = projectSpend(costs, { runsPerDay: 500, days: 30, seed: 3, trials: 300 });
    expect(Math.abs(p.perPeriod.mean - 500 * 30 * mean) / (500 * 30 * mean)).toBeLessThan(0.01);
    expect(Math.abs(p.perDay.mean - 500 * mean) / (500 * mean)).toBeLessThan(0.01);
    expect(p.perPeriod.p50).toBeLessThanOrEqual(p.perPeriod.p95);
    expect(p.perPeriod.p95).toBeLessThanOrEqual(p.perPeriod.p99);
    const worst = worstCaseRun(REFERENCE_PRESET, [MINI]).perRunUsd!;
    expect(p.perPeriod.p99).toBeLessThanOrEqual(worst * 500 * 30);
    expect(p.confidence.meanPerRunUsd[0]).toBeLessThanOrEqual(mean);
    expect(p.confidence.meanPerRunUsd[1]).toBeGreaterThanOrEqual(mean);
    expect(projectSpend(costs, { runsPerDay: 500, days: 30, seed: 3, trials: 300 })).toEqual(p);
    expect(projectSpend(costs, { runsPerDay: 500, days: 30, seed: 4, trials: 300 })).not.toEqual(p);
  });

  it('worst case per run: budget + largest call (check), budget (predict), step cap × largest call, else unbounded', () => {
    const largest = largestCallPico(MINI)!;
    expect(largest).toBe(128_000 * MINI.base.input + 4096 * MINI.base.output);
    expect(worstCaseRun({ ...NO_BRAKES, maxCostPico: 1e12 }, [MINI]).perRunUsd).toBe((1e12 + largest) / 1e12);
    expect(worstCaseRun({ ...NO_BRAKES, maxCostPico: 1e12, budgetMode: 'predict' }, [MINI]).perRunUsd).toBe(1);
    expect(worstCaseRun({ ...NO_BRAKES, maxSteps: 3 }, [MINI]).perRunUsd).toBe((3 * largest) / 1e12);
    expect(worstCaseRun(NO_BRAKES, [MINI]).perRunUsd).toBeNull();
  });

  it('the distribution-free bound and a suggested cap', () => {
    expect(capBoundShare(20)).toBeCloseTo(0.139, 3);
    expect(runsToClaim(0.02)).toBe(149);
    expect(capBoundShare(149)).toBeLessThanOrEqual(0.02);
    // At most 2% of 100 completing runs above the cap: the 98th smallest.
    const completed = Array.from({ length: 100 }, (_, i) => (i + 1) * 1000);
    expect(suggestCapPico(completed, 0.02)).toBe(98_000);
  });

  it('loopcost project: same seed, byte-identical report', async () => {
    const args = ['project', 'scenarios/production-mix.yaml', '--runs', '40', '--preset', 'reference', '--runs-per-day', '100', '--days', '7', '--trials', '50', '--seed', '5', '--suggest-cap', '0.05', '--format', 'json'];
    const a = await cli(...args);
    const b = await cli(...args);
    expect(a.code, a.stderr).toBe(0);
    expect(b.stdout).toBe(a.stdout);
    const report = JSON.parse(a.stdout);
    expect(Object.keys(report)).toEqual(expect.arrayContaining(['perDay', 'perPeriod', 'worstCaseUsd', 'runsPerDay', 'days', 'seed']));
    expect(report.perPeriod.p99).toBeLessThanOrEqual(report.worstCaseUsd);
  });
});

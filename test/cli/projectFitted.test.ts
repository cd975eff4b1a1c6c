/**
 * `project` of a fitted profile: its synthetic runs stand for the recorded runs it was fitted to in "How far
 * to trust it" (projectConfidence.ts strata), so --runs cannot shrink the band at will; the line says so and
 * repeats the profile's own small-sample caveat. Before, the mean's interval narrowed as √(runs drawn).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCostConfidence } from '../../src/population/projectConfidence.js';
import { fitRunsIn } from '../../src/scenario/fitWarnings.js';
import { cli, tempDir } from './run.js';

const width = (c: { meanPerRunUsd: [number, number] }) => c.meanPerRunUsd[1] - c.meanPerRunUsd[0];

describe('project of a fitted profile', () => {
  it('the mean interval does not narrow with --runs past the runs it was fitted to; the p95 has no upper end from 30 of them; the caveat is said', async () => {
    const dir = tempDir();
    const recorded = join(dir, 'gen.jsonl');
    const profile = join(dir, 'prof.yaml');
    expect((await cli('generate', 'scenarios/flight-search.yaml', '--runs', '30', '--out', recorded)).code).toBe(0);
    expect((await cli('fit', recorded, '--out', profile)).code).toBe(0);
    const project = async (runs: string) => {
      const r = await cli('project', profile, '--runs', runs, '--trials', '20', '--format', 'json');
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout);
    };
    const few = await project('200');
    const many = await project('2000');
    // Drawn from 2000 runs as 2000 samples, the band would be ~1/√10 of 200's; as 30 runs both are ~30 runs' wide.
    expect(width(many.confidence)).toBeGreaterThan(0.7 * width(few.confidence));
    expect(many.confidence.standsFor).toBe(30);
    expect(many.confidence.p95PerRunUsd[1]).toBeNull();
    expect(many.fittedProfiles).toEqual([{ source: profile, fittedOnRuns: 30, syntheticRuns: 2000, caveat: expect.stringMatching(/^Fitted on 30 runs, fewer than 70: p50s carry/) }]);
    // The band of 30 runs drawn from the profile's own runs: what the fit's sampling gives the mean (within the bootstrap's noise).
    const costs = (await cli('replay', profile, '--runs', '2000', '--per-run', '--format', 'json')).stdout;
    const own = JSON.parse(costs).runs.map((run: { costUsd: number }) => Math.round(run.costUsd * 1e12));
    const asThirty = runCostConfidence([...own].sort((a, b) => a - b), { seed: 1, resamples: 1000, strata: [{ costsPico: own, sampleRuns: 30 }] });
    expect(many.confidence.meanPerRunUsd).toEqual(asThirty.meanPerRunUsd);
    const text = (await cli('project', profile, '--runs', '2000', '--trials', '20')).stdout.replace(/\s+/g, ' ');
    expect(text).toContain(`These count ${profile}'s 2000 synthetic runs as the 30 recorded runs it was fitted to`);
    expect(text).toContain('not how far the profile\'s runs differ from them (fit --report measures that)');
    expect(text).toContain(`${profile}: Fitted on 30 runs, fewer than 70`);
    expect(text).toContain('no upper bound from 30 runs');
  });

  it('a file fit did not write stands for its own runs (the interval as before)', async () => {
    const r = JSON.parse((await cli('project', 'scenarios/production-mix.yaml', '--runs', '40', '--trials', '20', '--format', 'json')).stdout);
    expect(r.confidence.standsFor).toBeUndefined();
    expect(r.fittedProfiles).toBeUndefined();
  });
});

describe('the runs a profile was fitted to, and intervals of runs that stand for fewer', () => {
  it("reads fit's first comment line only", () => {
    expect(fitRunsIn('# Fitted by loopcost fit to 38 recorded runs (28 completed).\n# x\nscenario: loopcost.scenario/1\n')).toBe(38);
    expect(fitRunsIn('# Fitted by loopcost fit to 1 recorded run (1 completed).\n')).toBe(1);
    expect(fitRunsIn('# A hand-written file, fitted by loopcost fit to 38 recorded runs\n')).toBeUndefined();
  });

  const costs = Array.from({ length: 2000 }, (_, i) => 1_000_000 + ((i * 7919) % 2000) * (i % 13 === 0 ? 5000 : 500));
  const ascending = [...costs].sort((a, b) => a - b);

  it('parts that stand for all their runs give the plain interval; one that stands for fewer a wider one, as wide as that many runs', () => {
    const plain = runCostConfidence(ascending, { seed: 2, resamples: 400 });
    expect(runCostConfidence(ascending, { seed: 2, resamples: 400, strata: [{ costsPico: costs, sampleRuns: 2000 }] })).toEqual(plain);
    const asForty = runCostConfidence(ascending, { seed: 2, resamples: 400, strata: [{ costsPico: costs, sampleRuns: 40 }] });
    // Standard error ∝ 1/√n: 40 runs' band is ~√(2000/40) ≈ 7 times 2000's.
    expect(width(asForty as never) / width(plain as never)).toBeGreaterThan(5);
    expect(asForty.standsFor).toBe(40);
    // Fewer than 20 runs stood for: no interval of the mean, said why.
    const asTen = runCostConfidence(ascending, { seed: 2, resamples: 400, strata: [{ costsPico: costs, sampleRuns: 10 }] });
    expect(asTen.meanPerRunUsd).toEqual([null, null]);
    expect(asTen.reasons.meanPerRunUsd).toMatch(/a part stands for 10/);
  });
});

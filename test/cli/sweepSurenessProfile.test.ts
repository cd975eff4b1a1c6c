/**
 * sweep's recommendation on a fitted profile counts its synthetic runs as the recorded runs it was fitted to
 * (population/standingRuns.ts, project's rule): the Wilson interval is of those runs and the paired resamples
 * are that size, so --runs cannot narrow either. Before, `sweep profile.yaml --runs 2000` said 70.2%–74.1% at
 * 95% confidence and "picked in 100.0% of 200 paired resamples of these runs", the 2000 synthetic runs of 38
 * recorded ones each counted as a sample. A hand-written scenario's sweep says project's caveat; recorded runs
 * are their own sample, as before.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { wilsonInterval } from '../../src/population/recommend.js';
import { resampleCounts } from '../../src/population/recommendBootstrap.js';
import { cli, tempDir } from './run.js';
import type { SweepRecommendation } from '../../src/report/sweepReport.js';

const MINI = '../shared/traces/mini-swe-agent';

async function recommendation(...args: string[]): Promise<SweepRecommendation> {
  const r = await cli('sweep', ...args, '--target-completion', '0.5', '--format', 'json');
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout).recommendation;
}

const width = (rec: SweepRecommendation) => rec.completionRateInterval[1] - rec.completionRateInterval[0];
const flat = (text: string) => text.replace(/\s+/g, ' ');

describe("sweep's How far to trust it and How sure: a fitted profile's runs stand for its recorded runs", () => {
  let profile = '';
  beforeAll(async () => {
    profile = join(tempDir(), 'prof.yaml');
    const fit = await cli('fit', MINI, '--out', profile);
    expect(fit.code, fit.stderr).toBe(0);
  });

  it('the interval is as wide as 38 runs give, at --runs 400 as at 2000', async () => {
    for (const runs of ['400', '2000']) {
      const rec = await recommendation(profile, '--runs', runs);
      const rate = rec.completionRate;
      // The interval of the rate over 38 runs (about ±14 points), not over the runs drawn (±2 at 2000).
      const of38 = wilsonInterval(Math.round(rate * 38), 38);
      expect(rec.completionRateInterval[0]).toBeCloseTo(of38[0], 1);
      expect(rec.completionRateInterval[1]).toBeCloseTo(of38[1], 1);
      expect(width(rec)).toBeGreaterThan(0.2);
      expect(flat(rec.text)).toContain(`on ${runs} runs standing for 38 (this counts ${profile}'s ${runs} synthetic runs as the 38 recorded runs it was fitted to`);
      expect(flat(rec.howSure!.text)).toContain('of 200 paired resamples of 38 runs, the runs these stand for');
    }
  });

  it("a hand-written scenario's sweep says project's caveat: no interval measures its weights", async () => {
    const rec = await recommendation('scenarios/production-mix.yaml', '--runs', '60');
    expect(flat(rec.howSure!.text)).toContain("Hand-written scenarios: scenarios/production-mix.yaml's 60 synthetic runs are drawn from the behaviours, weights and sizes written in the file, fitted to no recorded runs");
    expect(flat(rec.howSure!.text)).toContain('no interval measures them');
    expect(rec.text).not.toContain('standing for');
    expect(rec.completionRateInterval).toEqual(wilsonInterval(Math.round(rec.completionRate * 60), 60));
  });

  it('recorded runs are their own sample: no caveat, resamples of these runs', async () => {
    const rec = await recommendation(MINI);
    expect(rec.text).not.toContain('standing for');
    expect(flat(rec.howSure!.text)).toContain('paired resamples of these runs');
    expect(rec.howSure!.text).not.toContain('Hand-written');
  });
});

describe('resampleCounts with parts standing for fewer runs', () => {
  it('draws as many runs as a part stands for, each counted for its share, every part keeping its runs', () => {
    const parts = [{ runs: 10, standsFor: 10 }, { runs: 1000, standsFor: 20 }];
    for (const counts of resampleCounts(1010, { seed: 3, resamples: 20, parts })) {
      const recorded = counts.slice(0, 10);
      const profile = counts.slice(10);
      expect(recorded.reduce((a, b) => a + b, 0)).toBe(10);
      expect(profile.reduce((a, b) => a + b, 0)).toBe(1000);
      // At most 20 of the profile's runs drawn: a resample varies as 20 runs do.
      expect(profile.filter((c) => c > 0).length).toBeLessThanOrEqual(20);
    }
  });

  it('parts that stand for their own runs draw as one sample did', () => {
    const plain = resampleCounts(50, { seed: 1, resamples: 5 });
    expect(resampleCounts(50, { seed: 1, resamples: 5, parts: [{ runs: 20, standsFor: 20 }, { runs: 30, standsFor: 30 }] })).toEqual(plain);
  });
});

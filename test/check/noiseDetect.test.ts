/**
 * A check judged against noise bands has little power at a few hundred runs (a review: +14.9% on the mean,
 * band ±18.9% at 200 runs, caught in 14 of 40 re-seeded checks; ~540 runs for 80% power against 15%). The
 * `noise:` line says the smallest change the check can see, from the bands it has (src/check/noiseDetect.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cli } from '../cli/run.js';
import { gate, withoutAgents } from './gateFixture.js';
import { detectable, normalQuantile } from '../../src/check/noiseDetect.js';

/** The population's two stuck entries swapped: the same population, another sample of it (as gateSignal.test.ts). */
function swapEntries(text: string): string {
  const [a, b, c] = ['  - behaviour: perfectionist', '  - behaviour: retrier', '  - behaviour: asker'].map((mark) => text.indexOf(mark));
  return text.slice(0, a) + text.slice(b!, c) + text.slice(a, b) + text.slice(c);
}

describe('what a check against noise bands can see', () => {
  it('the normal quantiles the power is figured with', () => {
    expect(normalQuantile(0.975)).toBeCloseTo(1.959964, 6);
    expect(normalQuantile(0.8)).toBeCloseTo(0.841621, 6);
    expect(normalQuantile(0.025)).toBeCloseTo(-1.959964, 6);
    // The band's level, 1 − 5%/8 for 8 figures together: its two-sided z.
    expect(normalQuantile(1 - 0.00625 / 2)).toBeCloseTo(2.734, 3);
  });

  it('the review’s numbers: a ±18.9% band at 200 runs sees 18.9% half the time, ~24.7% 4 times in 5; ~540 runs see 15% so', () => {
    const seen = detectable(0.189, 0.05);
    expect(seen.half).toBe(0.189);
    expect(seen.fourInFive).toBeCloseTo(0.2472, 3);
    expect(seen.runsToTolerance).toBeCloseTo(14.29, 2);
    // Bands narrow as 1/√runs: the runs whose 4-in-5 size is 15%.
    expect(Math.round(200 * (seen.fourInFive / 0.15) ** 2)).toBeGreaterThan(530);
    expect(Math.round(200 * (seen.fourInFive / 0.15) ** 2)).toBeLessThan(550);
    // A band within the tolerance: the tolerance decides.
    expect(detectable(0.03, 0.05)).toMatchObject({ half: 0.05, runsToTolerance: expect.closeTo(0.36, 6) });
  });

  it('the noise: line of a re-seeded check (a baseline without agents) says it, from the mean’s band', async () => {
    const { file, baseline } = await gate();
    withoutAgents(baseline);
    writeFileSync(file, swapEntries(readFileSync(file, 'utf8')));
    const r = await cli('check', file, '--baseline', baseline, '--format', 'json');
    const mean = JSON.parse(r.stdout).drift.rows.find((row: { figure: string }) => row.figure === 'costPerRunUsd.mean');
    const band = mean.noise / mean.baseline;
    const seen = detectable(band, 0.05);
    const text = (await cli('check', file, '--baseline', baseline)).stdout.replace(/\s+/g, ' ');
    const pct = (share: number) => `±${(share * 100).toFixed(1)}%`;
    expect(text).toContain(
      `what it can see: at 500 runs a move within its band passes as noise — costPerRunUsd.mean fails half the time moved ${pct(seen.half)}, 4 times in 5 moved ${pct(seen.fourInFive)}; ~`,
    );
    const [, runs, times] = /~([\d,]+) runs \((\d+)× these, in the check and in its baseline\) bring its band to the 5% tolerance/.exec(text)!;
    expect(Number(times)).toBe(Math.round(seen.runsToTolerance));
    expect(Number(runs!.replace(/,/g, ''))).toBe(Number((seen.runsToTolerance * 500).toPrecision(2)));
  });
});

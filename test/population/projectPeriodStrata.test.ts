/**
 * `project`'s periods of runs that stand for fewer (a fitted profile's synthetic runs stand for the recorded
 * runs it was fitted to): each period resamples every part at the runs it stands for and weights it by its
 * runs (projectDays.ts StratifiedPeriodDraws), as the per-run interval does (projectConfidence.ts), so more
 * --runs do not narrow the per-day and per-period spread. Before, the period's bootstrap drew as many runs as
 * were simulated, and the p95 − mean of a day shrank as --runs grew.
 */
import { describe, expect, it } from 'vitest';
import { projectSpend, type Projection } from '../../src/population/project.js';
import { COUNTS_FROM_RUNS_PER_COST, StratifiedPeriodDraws } from '../../src/population/projectDays.js';
import { Rng } from '../../src/synthetic/random.js';

/** `n` lopsided costs (picodollars), seeded: most runs $0.01–$0.03, one in ten loops at ~$0.20 more. */
function lopsided(n: number, seed: number): number[] {
  const rng = Rng.stream(seed, 0, 101);
  return Array.from({ length: n }, () => 10_000_000_000 + Math.floor(rng.next() * 20_000_000_000) + (rng.next() < 0.1 ? 180_000_000_000 : 0));
}
const meanOf = (costs: readonly number[]) => costs.reduce((a, b) => a + b, 0) / costs.length;
const sdOf = (costs: readonly number[]) => Math.sqrt(costs.reduce((a, b) => a + (b - meanOf(costs)) ** 2, 0) / costs.length);
const base = lopsided(500, 1);
const FITTED_ON = 38;

const spread = (p: Projection) => (p.perDay.p95 - p.perDay.mean) * 1e12;
// 10 days a period: its days share its resample, so the spread of days is mostly that of the 2,000 periods.
const project = (costs: number[], options: { runsPerDay: number; stands?: boolean; trials?: number }) =>
  projectSpend(costs, { runsPerDay: options.runsPerDay, days: 10, seed: 1, trials: options.trials ?? 2000, resamples: 10, ...(options.stands === false ? {} : { strata: [{ costsPico: costs, sampleRuns: FITTED_ON }] }) });

describe("a period's resample of runs that stand for fewer", () => {
  // A day of N runs from a resample of m runs of sd σ: variance N·σ²·(1 − 1/m) (the day's draws) + N²·σ²/m (the
  // resample's mean), whatever the runs drawn; from n runs each their own sample, N·σ²·(1 − 1/n) + N²·σ²/n.
  const daySd = (costs: readonly number[], runsPerDay: number, m: number) => sdOf(costs) * Math.sqrt(runsPerDay * (1 - 1 / m) + (runsPerDay * runsPerDay) / m);
  /** p95 − mean of a day in units of what 38 runs of these costs give it (~1.645 sd of such a day). */
  const asFitted = (p: Projection, costs: readonly number[], runsPerDay: number) => spread(p) / (1.645 * daySd(costs, runsPerDay, FITTED_ON));

  it.each([
    ['run by run', 1000],
    ['by counts', 2000],
  ])('days %s: p95 − mean of a day is the same from 500 and 5,000 runs of one population, that of the 38 runs stood for', (_way, runsPerDay) => {
    expect(runsPerDay >= COUNTS_FROM_RUNS_PER_COST * FITTED_ON).toBe(runsPerDay === 2000);
    const many = lopsided(5000, 2);
    const fromFew = project(base, { runsPerDay });
    const fromMany = project(many, { runsPerDay });
    // Each against its own runs' sd (500 such runs know theirs within ~10%: the tail is one run in ten). Over
    // 2,000 periods a p95 of ~normal periods is known within ~0.07 sd (√(0.95·0.05/2000)/φ(1.645)), p95 − mean
    // within ~4%: two differ by ≤ 15% at ~3 standard errors (over ten seeded pairs of populations they were
    // within 2%). The resample's mean of 38 lopsided runs skews right, so the p95 sits a little past 1.645 sd
    // (1.05–1.07 of it over those populations).
    expect(Math.abs(asFitted(fromMany, many, runsPerDay) / asFitted(fromFew, base, runsPerDay) - 1)).toBeLessThan(0.15);
    for (const [p, costs] of [[fromFew, base], [fromMany, many]] as const) {
      expect(asFitted(p, costs, runsPerDay)).toBeGreaterThan(0.85);
      expect(asFitted(p, costs, runsPerDay)).toBeLessThan(1.3);
      // The mean day stays the runs' mean: 2,000 periods' resamples of 38 know it within N·σ/√(38·2000).
      expect(Math.abs(p.perDay.mean * 1e12 - runsPerDay * meanOf(costs))).toBeLessThan((4 * runsPerDay * sdOf(costs)) / Math.sqrt(FITTED_ON * 2000));
    }
    // Resampled as 5,000 runs each its own sample (recorded runs, a hand-written file), the day's spread is
    // √((N + N²/5000)/(N + N²/38)) of 38 runs': 0.23 at 1,000 a day, 0.19 at 2,000.
    expect(asFitted(project(many, { runsPerDay, stands: false, trials: 300 }), many, runsPerDay)).toBeLessThan(0.4);
  });

  it('each part is weighted by its runs, not by the runs it stands for: 40 cheap recorded runs beside 4,000 dear fitted ones', () => {
    const cheap = Array.from({ length: 40 }, (_, i) => 1_000_000_000 + i * 1_000_000);
    const dear = Array.from({ length: 4000 }, (_, i) => 50_000_000_000 + (i % 97) * 100_000_000);
    const costs = [...cheap, ...dear];
    const strata = [
      { costsPico: cheap, sampleRuns: cheap.length },
      { costsPico: dear, sampleRuns: FITTED_ON },
    ];
    const p = projectSpend(costs, { runsPerDay: 500, days: 10, seed: 2, trials: 400, resamples: 10, strata });
    const weighted = costs.reduce((a, b) => a + b, 0) / costs.length;
    // Weighted by the runs stood for it would be ~half cheap: (40·$0.001 + 38·$0.05)/78 a run, $12.4 a day.
    expect(Math.abs(p.perDay.mean * 1e12 - 500 * weighted) / (500 * weighted)).toBeLessThan(0.02);
  });

  it('parts that stand for all their runs leave the projection as it was (the bootstrap of every run)', () => {
    const options = { runsPerDay: 300, days: 5, seed: 4, trials: 50, resamples: 20 };
    const half = base.length / 2;
    const strata = [
      { costsPico: base.slice(0, half), sampleRuns: half },
      { costsPico: base.slice(half), sampleRuns: half },
    ];
    expect(projectSpend(base, { ...options, strata })).toEqual(projectSpend(base, options));
  });

  it('seeded and independent of the order of the parts and their runs (days by counts and run by run)', () => {
    const cheap = base.slice(0, 100);
    const fitted = base.slice(100);
    for (const runsPerDay of [60, 20_000]) {
      const options = { runsPerDay, days: 5, seed: 6, trials: 40, resamples: 20 };
      const forward = projectSpend(base, { ...options, strata: [{ costsPico: cheap, sampleRuns: 100 }, { costsPico: fitted, sampleRuns: 30 }] });
      const reversed = projectSpend([...base].reverse(), { ...options, strata: [{ costsPico: [...fitted].reverse(), sampleRuns: 30 }, { costsPico: [...cheap].reverse(), sampleRuns: 100 }] });
      expect(reversed).toEqual(forward);
      expect(projectSpend(base, { ...options, strata: [{ costsPico: cheap, sampleRuns: 100 }, { costsPico: fitted, sampleRuns: 30 }] })).toEqual(forward);
      expect(projectSpend(base, { ...options, seed: 7, strata: [{ costsPico: cheap, sampleRuns: 100 }, { costsPico: fitted, sampleRuns: 30 }] }).perDay).not.toEqual(forward.perDay);
    }
  });

  it.each([
    ['run by run', 20],
    ['by counts', 100_000],
  ])('a day %s is exact past 2^53 picodollars', (_way, runsPerDay) => {
    // By counts from 32 runs a day per distinct cost a part's resample can hold (each part's share of the runs a day).
    for (const share of [4 / 7, 3 / 7]) expect(runsPerDay * share >= COUNTS_FROM_RUNS_PER_COST * 2).toBe(runsPerDay === 100_000);
    const cost = 2 ** 52 + 1;
    // Two parts, each of two costs: every run costs cost or cost + 2, so a day is runsPerDay × cost plus an even amount up to 2 × runsPerDay.
    const strata = [
      { costsPico: [cost, cost, cost + 2, cost + 2], sampleRuns: 2 },
      { costsPico: [cost, cost + 2, cost + 2], sampleRuns: 3 },
    ];
    const draws = new StratifiedPeriodDraws(strata, runsPerDay);
    for (let period = 0; period < 20; period++) {
      const rng = Rng.stream(3, period, 101);
      const spend = draws.spender(rng);
      for (let day = 0; day < 5; day++) {
        const above = spend(rng) - BigInt(runsPerDay) * BigInt(cost);
        expect(above % 2n).toBe(0n);
        expect(above >= 0n && above <= BigInt(2 * runsPerDay)).toBe(true);
      }
    }
    // One cost in every part: each day is exactly runsPerDay × it (a float sum rounds to a multiple of 1,024 up there).
    const one = new StratifiedPeriodDraws([{ costsPico: [cost, cost, cost], sampleRuns: 2 }, { costsPico: [cost, cost], sampleRuns: 1 }], runsPerDay);
    const rng = Rng.stream(3, 99, 101);
    const spend = one.spender(rng);
    for (let day = 0; day < 5; day++) expect(spend(rng)).toBe(BigInt(runsPerDay) * BigInt(cost));
  });

  it('seeded days are pinned (a change to the stratified draws changes every fitted projection)', () => {
    const strata = [
      { costsPico: [3_000, 5_000, 7_000, 90_000], sampleRuns: 4 },
      { costsPico: Array.from({ length: 50 }, (_, i) => 1_000 * (i + 1)), sampleRuns: 5 },
    ];
    const drawn = (runsPerDay: number) => {
      const rng = Rng.stream(1, 0, 101);
      const spend = new StratifiedPeriodDraws(strata, runsPerDay).spender(rng);
      return [spend(rng), spend(rng), spend(rng)].map(Number);
    };
    expect([drawn(20), drawn(5000)]).toMatchInlineSnapshot(`
      [
        [
          747000,
          577000,
          708000,
        ],
        [
          155539000,
          155217000,
          153823000,
        ],
      ]
    `);
  });
});

/**
 * `project`'s days drawn as multinomial counts against run by run: the same law (mean, variance and a
 * two-sample Kolmogorov–Smirnov test on seeded days), exact past 2^53 picodollars, the choice between
 * them by runs a day per distinct cost, and the counts' draws pinned; and the intervals of the mean and p95
 * per run against a sort of each resample and the binomial ranks.
 */
import { describe, expect, it } from 'vitest';
import { costCounts, COUNTS_FROM_RUNS_PER_COST, daySpender, resampledCounts, spendByCounts, spendRunByRun, type DaySpender } from '../../src/population/projectDays.js';
import { projectSpend } from '../../src/population/project.js';
import { Rng, STREAM } from '../../src/synthetic/random.js';

function days(spend: DaySpender, count: number, seed: number): number[] {
  return Array.from({ length: count }, (_, day) => Number(spend(Rng.stream(seed, day, 101))));
}

/** The largest gap between two samples' empirical distribution functions. */
function ksDistance(a: number[], b: number[]): number {
  const x = [...a].sort((p, q) => p - q);
  const y = [...b].sort((p, q) => p - q);
  let i = 0;
  let j = 0;
  let gap = 0;
  while (i < x.length && j < y.length) {
    const at = Math.min(x[i]!, y[j]!);
    while (i < x.length && x[i] === at) i++;
    while (j < y.length && y[j] === at) j++;
    gap = Math.max(gap, Math.abs(i / x.length - j / y.length));
  }
  return gap;
}

describe('project days', () => {
  // A lopsided population: most runs cheap, a few loop and cost ten times more (some costs repeated).
  const costs = Array.from({ length: 60 }, (_, i) => (i % 15 === 0 ? 90_000_000_000 : 5_000_000_000 + (i % 20) * 100_000_000));
  const mean = costs.reduce((a, b) => a + b, 0) / costs.length;
  const variance = costs.reduce((a, b) => a + (b - mean) ** 2, 0) / costs.length;

  it('distinct costs ascending, with their runs', () => {
    expect(costCounts([5, 3, 5, 9, 3, 5])).toEqual({ costsPico: [3, 5, 9], runs: [2, 3, 1] });
    expect(costCounts([])).toEqual({ costsPico: [], runs: [] });
  });

  it.each([40, 2000])('%d runs a day: days by counts and run by run have the same law (mean, variance, two-sample KS at α = 0.001)', (runsPerDay) => {
    const n = 4000;
    const byCounts = days(spendByCounts(costCounts(costs), runsPerDay), n, 7);
    const byRuns = days(spendRunByRun(costs, runsPerDay), n, 8);
    for (const sample of [byCounts, byRuns]) {
      const m = sample.reduce((a, b) => a + b, 0) / n;
      const v = sample.reduce((a, b) => a + (b - m) ** 2, 0) / (n - 1);
      expect(Math.abs(m - runsPerDay * mean)).toBeLessThan(4 * Math.sqrt((runsPerDay * variance) / n));
      expect(Math.abs(v / (runsPerDay * variance) - 1)).toBeLessThan(0.1);
    }
    // Two-sample KS at α = 0.001: c(α)·√(2/n), c = 1.949.
    expect(ksDistance(byCounts, byRuns)).toBeLessThan(1.949 * Math.sqrt(2 / n));
  });

  it('the KS test can fail: days of 2,000 runs against days of 2,010', () => {
    const a = days(spendByCounts(costCounts(costs), 2000), 4000, 7);
    const b = days(spendRunByRun(costs, 2010), 4000, 8);
    expect(ksDistance(a, b)).toBeGreaterThan(1.949 * Math.sqrt(2 / 4000));
  });

  it('a day by counts is exact past 2^53 picodollars: count × cost as BigInt when the product is not safe', () => {
    const cost = 2 ** 52 + 1;
    const spend = spendByCounts(costCounts([cost, cost + 2]), 1000);
    for (const day of Array.from({ length: 50 }, (_, d) => spend(Rng.stream(1, d, 101)))) {
      const above = day - 1000n * BigInt(cost);
      // Each run costs cost or cost + 2: the day is 1,000 × cost plus twice the runs of the dearer cost.
      expect(above % 2n).toBe(0n);
      expect(above >= 0n && above <= 2000n).toBe(true);
    }
    const one = spendByCounts(costCounts([cost]), 64)(Rng.stream(1, 0, 101));
    expect(one).toBe(64n * BigInt(cost));
  });

  it(`a projection draws its days by counts from ${COUNTS_FROM_RUNS_PER_COST} runs a day per distinct cost (the same seed, the same figures)`, () => {
    // Two distinct costs: 63 runs a day are drawn run by run, 64 by counts (a seed's days then differ).
    const two = [1_000_000_000, 3_000_000_000];
    const sameDays = (runsPerDay: number) => days(daySpender(two, runsPerDay), 5, 3).join() === days(spendRunByRun(two, runsPerDay), 5, 3).join();
    expect(sameDays(2 * COUNTS_FROM_RUNS_PER_COST - 1)).toBe(true);
    expect(sameDays(2 * COUNTS_FROM_RUNS_PER_COST)).toBe(false);
    const p = projectSpend(costs, { runsPerDay: 100_000, days: 30, seed: 3, trials: 200, resamples: 10 });
    // Each of the 200 periods resamples the 60 runs first: the mean day is off the population's by that
    // resample's mean, whose spread over 200 periods is √(variance / 60 / 200) a run (4 of those).
    expect(Math.abs(p.perDay.mean - (100_000 * mean) / 1e12)).toBeLessThan((4 * 100_000 * Math.sqrt(variance / 60 / 200)) / 1e12);
    expect(projectSpend(costs, { runsPerDay: 100_000, days: 30, seed: 3, trials: 200, resamples: 10 })).toEqual(p);
  });

  it('a period resamples its population first: n runs kept, each cost drawn at its share, the same seed the same draw', () => {
    const counts = costCounts(costs);
    const drawn = Array.from({ length: 2000 }, (_, k) => resampledCounts(counts, Rng.stream(9, k, 101)));
    for (const d of drawn) expect(d.runs.reduce((a, b) => a + b, 0)).toBe(costs.length);
    // The dear runs are 4 of 60: over 2,000 resamples their mean count is 4 (±4 standard errors of √(60·p(1−p)/2000)).
    const dear = drawn.map((d) => d.runs[d.costsPico.indexOf(90_000_000_000)] ?? 0);
    const share = 4 / 60;
    expect(Math.abs(dear.reduce((a, b) => a + b, 0) / 2000 - 4)).toBeLessThan(4 * Math.sqrt((60 * share * (1 - share)) / 2000));
    expect(resampledCounts(counts, Rng.stream(9, 3, 101))).toEqual(drawn[3]);
  });

  it("a day's p95 carries the sample's uncertainty: 60 runs say the mean within ±σ/√60, not the ±σ√N/N of N runs a day drawn from a known population", () => {
    const runsPerDay = 100_000;
    const p = projectSpend(costs, { runsPerDay, days: 1, seed: 4, trials: 1000, resamples: 10 });
    // Drawn from the 60 runs as the population, p95 − p50 of a day was 1.645·σ·√N (~0.5% of the mean day);
    // resampled first, it is ~1.645·N·σ/√60: at least half that.
    expect((p.perDay.p95 - p.perDay.p50) * 1e12).toBeGreaterThan(0.5 * 1.645 * runsPerDay * Math.sqrt(variance / 60));
    expect((p.perDay.p95 - p.perDay.p50) * 1e12).toBeLessThan(2 * 1.645 * runsPerDay * Math.sqrt(variance / 60));
  });

  it('days drawn run by run resample too: their variance is ~N·σ²·(1 + N/n), not N·σ² (N runs a day, n runs)', () => {
    const runsPerDay = 600;
    expect(runsPerDay).toBeLessThan(COUNTS_FROM_RUNS_PER_COST * costCounts(costs).costsPico.length);
    const p = projectSpend(costs, { runsPerDay, days: 1, seed: 6, trials: 2000, resamples: 10 });
    // 1 + 600/60 = 11 times a known population's day variance: at least 5 (its p95 − p50 at least √5 as wide).
    const knownSpread = 1.645 * Math.sqrt(runsPerDay * variance);
    expect((p.perDay.p95 - p.perDay.p50) * 1e12).toBeGreaterThan(Math.sqrt(5) * knownSpread);
  });

  it("the mean's interval is the nearest ranks of each resample's mean widened around the runs' mean; the p95's the runs at the order-statistic ranks", () => {
    const population = Array.from({ length: 997 }, (_, i) => 1_000_000 + ((i * 7919) % 997) * 13_000 + (i % 50 === 0 ? 9e8 : 0));
    const ascending = [...population].sort((x, y) => x - y);
    const n = population.length;
    const resamples = 200;
    const means: number[] = [];
    for (let b = 0; b < resamples; b++) {
      const rng = Rng.stream(5, b, STREAM.projectBootstrap);
      // projectSpend draws from the costs in ascending order (whatever order the runs came in).
      const sample = Array.from({ length: n }, () => ascending[rng.below(n)]!);
      means.push(Math.floor((sample.reduce((a, c) => a + c, 0) * 2 + n) / (2 * n)));
    }
    const rank = (values: number[], p: number) => values.sort((x, y) => x - y)[Math.ceil(p * values.length) - 1]!;
    const centre = Math.floor((population.reduce((a, c) => a + c, 0) * 2 + n) / (2 * n));
    // √(n/(n−1))·t(0.975, 996)/z: t of 996 degrees of freedom is 1.962349.
    const widen = (Math.sqrt(n / (n - 1)) * 1.962349) / 1.959964;
    const p = projectSpend(population, { runsPerDay: 10, days: 1, seed: 5, trials: 1, resamples });
    const [low, high] = p.confidence.meanPerRunUsd;
    expect(low! * 1e12).toBeCloseTo(centre - widen * (centre - rank(means, 0.025)), -2);
    expect(high! * 1e12).toBeCloseTo(centre + widen * (rank(means, 0.975) - centre), -2);
    // Binomial(997, 0.95): P(B ≤ 932) ≤ 2.5% < P(B ≤ 933) and P(B ≤ 960) ≥ 97.5% > P(B ≤ 959).
    expect(p.confidence.p95PerRunUsd).toEqual([ascending[932]! / 1e12, ascending[960]! / 1e12]);
  });

  it('seeded days by counts are pinned (a change to the chain of binomials changes every projection drawn by counts)', () => {
    expect(days(spendByCounts(costCounts(costs), 5000), 4, 1)).toMatchInlineSnapshot(`
      [
        60169100000000,
        58662800000000,
        59886300000000,
        58403300000000,
      ]
    `);
  });
});

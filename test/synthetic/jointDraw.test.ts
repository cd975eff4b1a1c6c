/** Steps and size scale drawn together: both marginals as given, the rank correlation as asked, seeded. */
import { describe, expect, it } from 'vitest';
import { quantile, type DistributionSpec } from '../../src/synthetic/distributions.js';
import { drawStepsAndScale, latentFromRankCorrelation, normalCdf } from '../../src/synthetic/jointDraw.js';
import { Rng } from '../../src/synthetic/random.js';
import { meanKeepingEmpirical, rankCorrelation, upperMean } from '../../src/scenario/fitSummary.js';

const N = 100_000;
const steps: DistributionSpec = { kind: 'empirical', quantiles: [31, 45, 60, 72, 80, 95, 113, 176] };
const sizeScale: DistributionSpec = { kind: 'lognormal', median: 1, p95: 1.5 };

function sample(rankCorrelation: number, seed = 11, n = N) {
  const rng = new Rng(seed);
  return Array.from({ length: n }, () => drawStepsAndScale(rng, { steps, sizeScale, rankCorrelation }));
}

describe('steps and size scale drawn together (Gaussian copula)', () => {
  it('Φ matches known values to 1e-7', () => {
    for (const [z, p] of [[0, 0.5], [1.6448536269514722, 0.95], [-1.959963984540054, 0.025], [3, 0.9986501019683699]] as const) expect(Math.abs(normalCdf(z) - p)).toBeLessThan(1e-7);
  });

  for (const rho of [-0.5, 0, 0.28, 0.8]) {
    it(`rank correlation ${rho}: reproduced within 0.02, marginals as given`, () => {
      const draws = sample(rho);
      expect(Math.abs(rankCorrelation(draws.map((d) => d.steps), draws.map((d) => d.sizeScale)) - rho)).toBeLessThan(0.02);
      const s = draws.map((d) => d.steps).sort((a, b) => a - b);
      for (const p of [0.1, 0.5, 0.9]) expect(Math.abs(quantile(s, p) - quantile((steps as { quantiles: number[] }).quantiles, p))).toBeLessThanOrEqual(1);
      const scales = draws.map((d) => d.sizeScale).sort((a, b) => a - b);
      expect(quantile(scales, 0.5)).toBeCloseTo(1, 1);
      expect(quantile(scales, 0.95)).toBeCloseTo(1.5, 1);
    });
  }

  it('the latent correlation for a rank correlation is 2 sin(πρ/6): 0 → 0, 1 → 1', () => {
    expect(latentFromRankCorrelation(0)).toBe(0);
    expect(latentFromRankCorrelation(1)).toBeCloseTo(1, 12);
  });

  it('same seed, same draws; another seed, others', () => {
    expect(sample(0.3, 4, 50)).toEqual(sample(0.3, 4, 50));
    expect(sample(0.3, 5, 50)).not.toEqual(sample(0.3, 4, 50));
  });
});

describe("fit's quantile summary keeps the mean", () => {
  // A long right tail like tool results: most small, a few huge.
  const rng = new Rng(3);
  const values = Array.from({ length: 7000 }, () => Math.round(40 * Math.exp(1.1 * rng.normal())));
  const sampleMean = values.reduce((s, v) => s + v, 0) / values.length;
  const meanOf = (q: number[]) => q.slice(1).reduce((s, v, i) => s + (v + q[i]!) / 2, 0) / (q.length - 1);

  it('41 quantiles with the maximum as the last knot overstate the mean; with the mean-keeping top knot within 1%', () => {
    const sorted = [...values].sort((a, b) => a - b);
    const naive = Array.from({ length: 41 }, (_, i) => quantile(sorted, i / 40));
    expect(meanOf(naive) / sampleMean - 1).toBeGreaterThan(0.05);
    const kept = meanKeepingEmpirical(values, 1e6, 41).quantiles;
    expect(Math.abs(meanOf(kept) / sampleMean - 1)).toBeLessThan(0.01);
    expect(kept.slice(0, 40)).toEqual(naive.slice(0, 40).map((q) => Math.round(q * 1e6) / 1e6));
    expect(kept[40]!).toBeGreaterThan(kept[39]!);
  });

  it('upperMean is the mean of the interpolated quantile function over [from, 1]', () => {
    expect(upperMean([0, 10], 0)).toBe(5);
    expect(upperMean([0, 10], 0.5)).toBe(7.5);
    expect(upperMean([0, 10, 20], 0.25)).toBe((7.5 * 0.5 + 15 * 1) / 1.5);
  });

  it('a sample no larger than the points is kept whole', () => {
    expect(meanKeepingEmpirical([3, 1, 2], 1, 41).quantiles).toEqual([1, 2, 3]);
  });

  it("Spearman's rank correlation: ties share their rank; a constant side gives 0", () => {
    expect(rankCorrelation([1, 2, 3, 4], [10, 20, 30, 40])).toBe(1);
    expect(rankCorrelation([1, 2, 3, 4], [4, 3, 2, 1])).toBe(-1);
    expect(rankCorrelation([1, 1, 2, 2], [1, 1, 2, 2])).toBeCloseTo(1, 12);
    expect(rankCorrelation([1, 2, 3], [5, 5, 5])).toBe(0);
  });
});

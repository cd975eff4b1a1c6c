/** Every distribution on large seeded samples: means and quantiles against their definitions. */
import { describe, expect, it } from 'vitest';
import { drawCount, drawReal, quantile, Z95, type DistributionSpec } from '../../src/synthetic/distributions.js';
import { Rng, streamSeed, STREAM } from '../../src/synthetic/random.js';

const N = 200_000;

function sample(spec: DistributionSpec, seed = 7): number[] {
  const rng = new Rng(seed);
  return Array.from({ length: N }, () => drawCount(spec, rng)).sort((a, b) => a - b);
}

const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
const variance = (xs: number[]) => {
  const m = mean(xs);
  return xs.reduce((s, x) => s + (x - m) ** 2, 0) / (xs.length - 1);
};

describe('random streams', () => {
  it('draws uniformly in [0, 1) with the mean and variance of a uniform', () => {
    const rng = new Rng(1);
    const xs = Array.from({ length: N }, () => rng.next());
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(mean(xs)).toBeCloseTo(0.5, 2);
    expect(variance(xs)).toBeCloseTo(1 / 12, 3);
  });

  it('standard normal draws have mean 0, sd 1, and 5% above 1.645', () => {
    const rng = new Rng(2);
    const xs = Array.from({ length: N }, () => rng.normal());
    expect(mean(xs)).toBeCloseTo(0, 2);
    expect(Math.sqrt(variance(xs))).toBeCloseTo(1, 2);
    expect(xs.filter((x) => x > Z95).length / N).toBeCloseTo(0.05, 2);
  });

  it('a stream depends only on (seed, run, purpose, index): other values give other streams', () => {
    const seeds = new Set<number>();
    for (let run = 0; run < 200; run++) for (const purpose of Object.values(STREAM)) for (let i = 0; i < 20; i++) seeds.add(streamSeed(1, run, purpose, i));
    expect(seeds.size).toBe(200 * Object.values(STREAM).length * 20);
    expect(streamSeed(1, 5, STREAM.action, 3)).toBe(streamSeed(1, 5, STREAM.action, 3));
    expect(streamSeed(2 ** 40 + 1, 0, STREAM.plan)).not.toBe(streamSeed(1, 0, STREAM.plan));
    expect(Rng.stream(9, 3, STREAM.plan).next()).toBe(Rng.stream(9, 3, STREAM.plan).next());
  });
});

describe('distributions (200k seeded draws each)', () => {
  it('fixed: always the value (a bare number too)', () => {
    expect(new Set(sample({ kind: 'fixed', value: 450 }))).toEqual(new Set([450]));
    expect(new Set(sample(600))).toEqual(new Set([600]));
  });

  it('uniform: every whole number from min to max equally likely', () => {
    const xs = sample({ kind: 'uniform', min: 10, max: 20 });
    expect(xs[0]).toBe(10);
    expect(xs[xs.length - 1]).toBe(20);
    expect(mean(xs)).toBeCloseTo(15, 1);
    expect(variance(xs)).toBeCloseTo((11 ** 2 - 1) / 12, 1);
    for (let v = 10; v <= 20; v++) expect(xs.filter((x) => x === v).length / N).toBeCloseTo(1 / 11, 2);
  });

  it('normal: mean, sd and quantiles; never below 0', () => {
    const xs = sample({ kind: 'normal', mean: 500, sd: 100 });
    expect(mean(xs) / 500).toBeCloseTo(1, 2);
    expect(Math.sqrt(variance(xs)) / 100).toBeCloseTo(1, 2);
    expect(quantile(xs, 0.5)).toBeCloseTo(500, -1);
    expect(quantile(xs, 0.95) / (500 + Z95 * 100)).toBeCloseTo(1, 2);
    expect(sample({ kind: 'normal', mean: 10, sd: 50 })[0]).toBe(0);
  });

  it('lognormal by median and p95: those quantiles, and the mean exp(σ²/2) × median', () => {
    const xs = sample({ kind: 'lognormal', median: 400, p95: 2000 });
    const sigma = Math.log(2000 / 400) / Z95;
    expect(quantile(xs, 0.5) / 400).toBeCloseTo(1, 1);
    expect(quantile(xs, 0.95) / 2000).toBeCloseTo(1, 1);
    expect(quantile(xs, 0.05) / (400 * Math.exp(-Z95 * sigma))).toBeCloseTo(1, 1);
    expect(mean(xs) / (400 * Math.exp((sigma * sigma) / 2))).toBeCloseTo(1, 1);
    expect(new Set(sample({ kind: 'lognormal', median: 300, p95: 300 }))).toEqual(new Set([300]));
  });

  it('empirical quantiles: interpolated linearly, so a sample given whole is reproduced (type-7 quantiles)', () => {
    const spec: DistributionSpec = { kind: 'empirical', quantiles: [0, 10, 100] };
    const real = Array.from({ length: N }, ((rng) => () => drawReal(spec, rng))(new Rng(3))).sort((a, b) => a - b);
    expect(quantile(real, 0.25)).toBeCloseTo(5, 0);
    expect(quantile(real, 0.5)).toBeCloseTo(10, 0);
    expect(quantile(real, 0.75) / 55).toBeCloseTo(1, 1);
    expect(mean(real) / 30).toBeCloseTo(1, 2);
    const recorded = [3, 8, 8, 20, 41, 55, 90, 160];
    const xs = sample({ kind: 'empirical', quantiles: recorded });
    // Draws are whole numbers: each quantile within rounding of the sample's.
    for (const p of [0.1, 0.5, 0.9, 0.95]) expect(Math.abs(quantile(xs, p) - quantile(recorded, p))).toBeLessThanOrEqual(1);
    expect(xs[0]).toBe(3);
    expect(xs[xs.length - 1]).toBe(160);
  });
});

/**
 * The binomial sampler (inversion below a mean of 10, BTRS from it, p > ½ by symmetry): seeded draws fit
 * the exact binomial law (chi-square against densities from the recurrence, not from the sampler's
 * Stirling series), its Stirling tail equals log(k!) minus Stirling's formula, and its draws are pinned.
 */
import { describe, expect, it } from 'vitest';
import { binomialDraw, btrs, logRatioToMode, stirlingTail } from '../../src/metrics/binomial.js';
import { Rng } from '../../src/synthetic/random.js';

/** log(k!) summed term by term. */
function logFactorial(k: number): number {
  let sum = 0;
  for (let i = 2; i <= k; i++) sum += Math.log(i);
  return sum;
}

/** The binomial's densities, k = 0…n, by the ratio f(k+1)/f(k) = (n − k)/(k + 1) · p/(1 − p), in logs. */
function densities(n: number, p: number): Float64Array {
  const out = new Float64Array(n + 1);
  let log = n * Math.log1p(-p);
  for (let k = 0; k <= n; k++) {
    out[k] = Math.exp(log);
    log += Math.log((n - k) / (k + 1)) + Math.log(p / (1 - p));
  }
  return out;
}

/** Chi-square of `draws` against Bin(n, p), cells merged until each expects at least 5; and its degrees of freedom. */
function chiSquare(draws: readonly number[], n: number, p: number): { statistic: number; freedom: number } {
  const f = densities(n, p);
  const seen = new Float64Array(n + 1);
  for (const k of draws) seen[k]! += 1;
  const cells: { expected: number; observed: number }[] = [];
  let cell = { expected: 0, observed: 0 };
  for (let k = 0; k <= n; k++) {
    cell.expected += f[k]! * draws.length;
    cell.observed += seen[k]!;
    if (cell.expected >= 5) {
      cells.push(cell);
      cell = { expected: 0, observed: 0 };
    }
  }
  // The tail left over joins the last cell.
  cells[cells.length - 1]!.expected += cell.expected;
  cells[cells.length - 1]!.observed += cell.observed;
  const statistic = cells.reduce((sum, c) => sum + (c.observed - c.expected) ** 2 / c.expected, 0);
  return { statistic, freedom: cells.length - 1 };
}

/** The chi-square's 99.9th percentile (Wilson–Hilferty): a wrong law passes it with odds far below 1 in 1,000 at these sizes. */
function chiSquareCritical(freedom: number): number {
  const z = 3.09;
  const h = 2 / (9 * freedom);
  return freedom * (1 - h + z * Math.sqrt(h)) ** 3;
}

describe('binomialDraw', () => {
  it("Stirling's tail: log(k!) − [(k + ½)·log(k + 1) − (k + 1) + ½·log(2π)], by table and by series", () => {
    for (let k = 0; k <= 60; k++) {
      const exact = logFactorial(k) - ((k + 0.5) * Math.log(k + 1) - (k + 1) + 0.5 * Math.log(2 * Math.PI));
      // The table to its digits; the series (from 10) to its first left-out term, 1/(1680·(k + 1)^7).
      expect(Math.abs(stirlingTail(k) - exact)).toBeLessThan(k < 10 ? 1e-14 : 1 / (1680 * (k + 1) ** 7) + 1e-13);
    }
  });

  const btrsCases: [n: number, p: number][] = [
    [200, 0.05],
    [1000, 0.4],
    [100_000, 0.0003],
    [3_000_000, 0.5],
  ];
  it.each(btrsCases)('BTRS Bin(%d, %d): log f(k)/f(mode) by Stirling equals it by log-factorials', (n, p) => {
    const s = btrs(n, p);
    const logF = (k: number) => logFactorial(n) - logFactorial(k) - logFactorial(n - k) + k * Math.log(p) + (n - k) * Math.log1p(-p);
    const sd = Math.sqrt(n * p * (1 - p));
    for (const k of [0, 1, 9, 10, s.mode - Math.round(3 * sd), s.mode - 1, s.mode, s.mode + 1, s.mode + Math.round(5 * sd), n - 1, n]) {
      if (k < 0 || k > n || n > 200_000) continue;
      expect(Math.abs(logRatioToMode(s, k) - (logF(k) - logF(s.mode)))).toBeLessThan(1e-8 * Math.max(1, Math.abs(logF(k) - logF(s.mode))));
    }
  });

  it.each(btrsCases)('BTRS Bin(%d, %d): every pair its squeeze accepts, the density ratio accepts too (an inner bound)', (n, p) => {
    const s = btrs(n, p);
    const rng = Rng.stream(3, n, 1);
    let squeezed = 0;
    for (let i = 0; i < 20_000; i++) {
      const u = rng.next() - 0.5;
      const v = rng.next();
      const us = 0.5 - Math.abs(u);
      const k = Math.floor(((2 * s.a) / us + s.b) * u + s.c);
      if (!(us >= 0.07 && v <= s.squeezeV && k >= 0 && k <= n)) continue;
      squeezed += 1;
      expect(Math.log((v * s.alpha) / (s.a / (us * us) + s.b))).toBeLessThanOrEqual(logRatioToMode(s, k));
    }
    expect(squeezed).toBeGreaterThan(5000);
  });

  it('edge cases: no trials, p = 0 and p = 1 draw no uniform', () => {
    const never = { next: () => expect.unreachable('no uniform is needed') as never };
    expect(binomialDraw(0, 0.4, never)).toBe(0);
    expect(binomialDraw(50, 0, never)).toBe(0);
    expect(binomialDraw(50, 1, never)).toBe(50);
  });

  // Each regime: inversion (n·p < 10), BTRS (n·p ≥ 10, at its threshold too), p > ½ by symmetry, large n.
  const cases: [n: number, p: number][] = [
    [20, 0.3],
    [1_000_000, 2e-6],
    [200, 0.05],
    [1000, 0.4],
    [50, 0.9],
    [100_000, 0.0003],
    [5000, 0.5],
  ];
  it.each(cases)('Bin(%d, %d): 20,000 seeded draws fit the law (chi-square at the 99.9th percentile, mean and variance)', (n, p) => {
    const rng = Rng.stream(11, n, 1);
    const draws = Array.from({ length: 20_000 }, () => binomialDraw(n, p, rng));
    for (const k of draws) expect(Number.isInteger(k) && k >= 0 && k <= n).toBe(true);
    const { statistic, freedom } = chiSquare(draws, n, p);
    expect(statistic).toBeLessThan(chiSquareCritical(freedom));
    const mean = draws.reduce((a, b) => a + b, 0) / draws.length;
    const variance = draws.reduce((a, b) => a + (b - mean) ** 2, 0) / (draws.length - 1);
    const sd = Math.sqrt(n * p * (1 - p));
    expect(Math.abs(mean - n * p)).toBeLessThan((4 * sd) / Math.sqrt(draws.length));
    expect(Math.abs(variance / (sd * sd) - 1)).toBeLessThan(0.06);
  });

  it('a wrong law fails the same test (the test can fail): Bin(1000, 0.4) judged as Bin(1000, 0.41)', () => {
    const rng = Rng.stream(11, 1000, 1);
    const draws = Array.from({ length: 20_000 }, () => binomialDraw(1000, 0.4, rng));
    const { statistic, freedom } = chiSquare(draws, 1000, 0.41);
    expect(statistic).toBeGreaterThan(chiSquareCritical(freedom));
  });

  it('seeded draws are pinned (a change to the sampler changes every projection drawn by counts)', () => {
    const rng = Rng.stream(5, 0, 1);
    expect([...[7, 12, 30].map((n) => binomialDraw(n, 0.25, rng)), ...[1000, 100_000].map((n) => binomialDraw(n, 0.3, rng)), binomialDraw(40, 0.8, rng)]).toMatchInlineSnapshot(`
      [
        2,
        3,
        6,
        301,
        30301,
        34,
      ]
    `);
  });
});

/**
 * `project`'s 95% intervals on the per-run cost, each kept only where it holds its 95%:
 * - p95: distribution-free, from order statistics. The sorted runs x(1) ≤ … ≤ x(n) hold the population's
 *   p95 ξ between x(l) and x(u) with probability P(l ≤ B < u), B ~ Binomial(n, 0.95) runs at or below ξ;
 *   l and u are taken with at most 2.5% outside each end. An upper end needs P(B ≤ n − 1) = 1 − 0.95^n ≥
 *   97.5%: below 72 runs there is none ("no upper bound from n runs"), and below 2 runs no lower end either.
 *   (A percentile bootstrap of the p95 cannot reach above the largest run, which is the p95 of 19 runs or
 *   fewer: it held the truth 12 times in 60 at 5 runs.)
 * - mean: a percentile bootstrap (seeded resamples of the runs) widened by √(n/(n−1))·t(n−1)/z around the
 *   runs' mean (the expanded percentile interval: a plain one is too narrow at small n), from
 *   MIN_RUNS_FOR_MEAN_INTERVAL runs; fewer runs get none (at 10 runs of a skewed population it held 89%).
 * A bound that cannot be given is null, and `reasons` says why.
 * Pure: no node:*, no clock, no Math.random.
 */
import { binomialCdf } from '../metrics/binomialCdf.js';
import { PicoSum } from '../metrics/picoSum.js';
import { nearestRank } from '../metrics/population.js';
import { meanPico, picoToUsd } from '../money.js';
import { Rng, STREAM } from '../synthetic/random.js';

/** Fewest runs whose mean gets an interval: fewer, and a bootstrap of a skewed cost covers well under 95%. */
export const MIN_RUNS_FOR_MEAN_INTERVAL = 20;

/** The quantile whose interval is given, and each end's share outside it. */
const P95 = 0.95;
const TAIL = 0.025;
const Z_975 = 1.959963984540054;

export interface RunCostConfidence {
  level: 0.95;
  /** Bootstrap resamples drawn for the mean's interval (0: none, too few runs). */
  resamples: number;
  /** Expanded percentile bootstrap of the mean cost per run; null: too few runs (reasons.meanPerRunUsd). */
  meanPerRunUsd: [number | null, number | null];
  /** Order-statistic (binomial, distribution-free) interval of the p95 cost per run; a null end: too few runs for it (reasons.p95PerRunUsd). */
  p95PerRunUsd: [number | null, number | null];
  /** Why a bound is null, per interval (absent: both its ends given). */
  reasons: { meanPerRunUsd?: string; p95PerRunUsd?: string };
}

/**
 * The 1-based ranks of the runs bounding the population's `q`-quantile at 1 − 2·TAIL confidence among n
 * sorted runs: the largest l with P(B ≤ l − 1) ≤ TAIL, the smallest u with P(B ≤ u − 1) ≥ 1 − TAIL
 * (B ~ Binomial(n, q)); null where no rank of the n has it.
 */
export function quantileRanks(n: number, q: number = P95): { low: number | null; high: number | null } {
  let low: number | null = null;
  let high: number | null = null;
  // P(B ≤ k) summed from the pmf in logs (n·ln(1 − q) underflows as a product for large n; a term that underflows is negligible).
  let logPmf = n * Math.log1p(-q);
  const step = Math.log(q) - Math.log1p(-q);
  let cdf = 0;
  for (let k = 0; k < n; k++) {
    cdf += Math.exp(logPmf);
    // cdf = P(B ≤ k): rank k + 1 is a lower end while it stays within TAIL, an upper end once it passes 1 − TAIL.
    if (cdf <= TAIL) low = k + 1;
    if (cdf >= 1 - TAIL) {
      high = k + 1;
      break;
    }
    logPmf += Math.log((n - k) / (k + 1)) + step;
  }
  return { low, high };
}

/** Runs whose p95 gets an upper end: 1 − 0.95^n ≥ 97.5%. */
export const RUNS_FOR_P95_UPPER = Math.ceil(Math.log(TAIL) / Math.log(P95));

/** The 0.975 quantile of Student's t with `df` degrees of freedom (Cornish–Fisher; within 1e-4 from 19 on, the fewest used). */
function t975(df: number): number {
  const z = Z_975;
  const g1 = (z ** 3 + z) / 4;
  const g2 = (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96;
  const g3 = (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384;
  return z + g1 / df + g2 / df ** 2 + g3 / df ** 3;
}

/** The 95% intervals of the mean and p95 of per-run costs (picodollars, ascending). */
export function runCostConfidence(ascendingPico: readonly number[], options: { seed: number; resamples: number }): RunCostConfidence {
  const n = ascendingPico.length;
  const reasons: RunCostConfidence['reasons'] = {};
  const { low, high } = quantileRanks(n);
  const at = (rank: number | null) => (rank === null ? null : picoToUsd(ascendingPico[rank - 1]!));
  if (low === null) reasons.p95PerRunUsd = `too few runs for an interval of the p95 (${n}; one needs 2 runs, an upper bound ${RUNS_FOR_P95_UPPER})`;
  else if (high === null) reasons.p95PerRunUsd = `no upper bound from ${n} runs (a distribution-free one needs ${RUNS_FOR_P95_UPPER}: 1 − 0.95^n ≥ 97.5%)`;
  const p95PerRunUsd: [number | null, number | null] = [at(low), at(high)];
  if (n < MIN_RUNS_FOR_MEAN_INTERVAL) {
    reasons.meanPerRunUsd = n === 1 ? 'one run cannot give an interval' : `too few runs for an interval of the mean (${n}; it needs ${MIN_RUNS_FOR_MEAN_INTERVAL})`;
    return { level: 0.95, resamples: 0, meanPerRunUsd: [null, null], p95PerRunUsd, reasons };
  }
  return { level: 0.95, resamples: options.resamples, meanPerRunUsd: meanInterval(ascendingPico, options), p95PerRunUsd, reasons };
}

/** The expanded percentile bootstrap interval of the mean (nearest ranks at 2.5% and 97.5%, widened around the runs' mean), USD. */
function meanInterval(costsPico: readonly number[], options: { seed: number; resamples: number }): [number, number] {
  const n = costsPico.length;
  const means: number[] = [];
  for (let b = 0; b < options.resamples; b++) {
    const rng = Rng.stream(options.seed, b, STREAM.projectBootstrap);
    const total = new PicoSum();
    for (let k = 0; k < n; k++) total.add(costsPico[rng.below(n)]!);
    means.push(Number(meanPico(total.value, n)));
  }
  means.sort((a, b) => a - b);
  const all = new PicoSum();
  for (const cost of costsPico) all.add(cost);
  const centre = Number(meanPico(all.value, n));
  const widen = (Math.sqrt(n / (n - 1)) * t975(n - 1)) / Z_975;
  // The mean of runs lies within their smallest and largest.
  const lowPico = Math.max(costsPico[0]!, centre - widen * (centre - (nearestRank(means, TAIL) ?? centre)));
  const highPico = Math.min(costsPico[n - 1]!, centre + widen * ((nearestRank(means, 1 - TAIL) ?? centre) - centre));
  return [picoToUsd(Math.round(lowPico)), picoToUsd(Math.round(highPico))];
}

/**
 * The one-sided 95% upper bound of a share seen `k` times in `n` (exact binomial, Clopper–Pearson): the share
 * at which `k` or fewer would be seen 5% of the time. Of the same kind as the distribution-free bound of a cap
 * at the largest run (1 − 0.05^(1/n), what it gives for k = 0), so `--suggest-cap`'s two bounds are both
 * one-sided 95% (a two-sided 95% Wilson upper end is a one-sided 97.5% one). 1 when n = 0 or k = n.
 */
export function upperShareBound(k: number, n: number): number {
  if (n <= 0 || k >= n) return 1;
  let low = k / n;
  let high = 1;
  // Bisection to below a billionth: P(B ≤ k) falls as the share grows.
  for (let i = 0; i < 60 && high - low > 1e-12; i++) {
    const mid = (low + high) / 2;
    if (binomialCdf(k, n, mid) > 1 - 0.95) low = mid;
    else high = mid;
  }
  return high;
}

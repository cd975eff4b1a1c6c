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
 * - Runs that stand for fewer (`strata`: a fitted profile's synthetic runs stand for the recorded runs it was
 *   fitted to): a profile fitted on m runs knows its population's mean no better than those m runs do, so a
 *   band that narrows as more synthetic runs are drawn (--runs) is false precision. The mean's bootstrap is
 *   then stratified, each part's mean drawn from `sampleRuns` of its runs (m out of its N: the variance of a
 *   mean of m runs, what the fit's own sampling gives it, not of N), the parts weighted by their runs, and
 *   widened as for the fewest runs a part stands for (no interval below MIN_RUNS_FOR_MEAN_INTERVAL of them);
 *   the p95's ranks are those of the runs the parts stand for, read at the same share of the runs drawn.
 *   It does not cover how far the profile's runs differ from the recorded ones (`fit --report` measures that).
 * Pure: no node:*, no clock, no Math.random.
 */
import { binomialCdf } from '../metrics/binomialCdf.js';
import { PicoSum } from '../metrics/picoSum.js';
import { nearestRank } from '../metrics/population.js';
import { meanPico, picoToUsd } from '../money.js';
import { Rng, STREAM } from '../synthetic/random.js';
import { minOf } from '../metrics/extremes.js';
import { stoodFor } from './standingRuns.js';

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
  /** With `strata` standing for fewer runs than were drawn: the runs the intervals rest on (the p95's ranks are of these). */
  standsFor?: number;
}

/** A part of the runs: its costs, and how many runs it stands for (fewer than its costs for a fitted profile's runs: the runs fit fitted it to). */
export interface CostStratum {
  costsPico: readonly number[];
  sampleRuns: number;
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

/**
 * The strata when some stand for fewer runs than they hold (each at most its own runs), as both the per-run
 * intervals and each simulated period's resample (projectDays.ts StratifiedPeriodDraws) take them: each
 * part's costs ascending and the parts in one order (by runs, runs stood for, then costs), so the same runs
 * give the same draws in whatever order the parts and their runs came. Undefined when none stands for
 * fewer: the runs are the sample.
 */
export function strataStandingForFewer(strata: readonly CostStratum[] | undefined): CostStratum[] | undefined {
  const capped = (strata ?? []).filter((s) => s.costsPico.length > 0).map((s) => ({ costsPico: [...s.costsPico].sort((a, b) => a - b), sampleRuns: runsStoodFor(s) }));
  return capped.some((s) => s.sampleRuns < s.costsPico.length) ? capped.sort(compareStrata) : undefined;
}

/** The runs a part of at least one run stands for: its `sampleRuns`, at most its runs and at least one. */
export function runsStoodFor(stratum: CostStratum): number {
  return stoodFor(stratum.sampleRuns, stratum.costsPico.length);
}

function compareStrata(a: CostStratum, b: CostStratum): number {
  if (a.costsPico.length !== b.costsPico.length) return a.costsPico.length - b.costsPico.length;
  if (a.sampleRuns !== b.sampleRuns) return a.sampleRuns - b.sampleRuns;
  const at = a.costsPico.findIndex((cost, i) => cost !== b.costsPico[i]);
  return at < 0 ? 0 : a.costsPico[at]! - b.costsPico[at]!;
}

/** The 95% intervals of the mean and p95 of per-run costs (picodollars, ascending); `strata`: the runs by part, where a part stands for fewer runs than it holds. */
export function runCostConfidence(ascendingPico: readonly number[], options: { seed: number; resamples: number; strata?: readonly CostStratum[] }): RunCostConfidence {
  const strata = strataStandingForFewer(options.strata);
  if (strata !== undefined) return stratifiedConfidence(ascendingPico, strata, options);
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
  return widenedEnds(costsPico, means, n);
}

/** The resampled means' 2.5% and 97.5% ends (ascending `means`), widened around the runs' mean by √(m/(m−1))·t(m−1)/z for `m` runs, within the runs' smallest and largest; USD. */
function widenedEnds(costsPico: readonly number[], means: readonly number[], m: number): [number, number] {
  const n = costsPico.length;
  const all = new PicoSum();
  for (const cost of costsPico) all.add(cost);
  const centre = Number(meanPico(all.value, n));
  const widen = (Math.sqrt(m / (m - 1)) * t975(m - 1)) / Z_975;
  // The mean of runs lies within their smallest and largest.
  const lowPico = Math.max(costsPico[0]!, centre - widen * (centre - (nearestRank(means, TAIL) ?? centre)));
  const highPico = Math.min(costsPico[n - 1]!, centre + widen * ((nearestRank(means, 1 - TAIL) ?? centre) - centre));
  return [picoToUsd(Math.round(lowPico)), picoToUsd(Math.round(highPico))];
}

/**
 * The intervals of runs some of which stand for fewer (the module's comment): the p95 by the ranks of the
 * runs stood for, each read at its share of the runs drawn; the mean by a stratified m-out-of-n bootstrap.
 */
function stratifiedConfidence(ascendingPico: readonly number[], strata: readonly CostStratum[], options: { seed: number; resamples: number }): RunCostConfidence {
  const standsFor = strata.reduce((sum, s) => sum + s.sampleRuns, 0);
  const fewest = minOf(strata.map((s) => s.sampleRuns));
  const reasons: RunCostConfidence['reasons'] = {};
  const { low, high } = quantileRanks(standsFor);
  const at = (rank: number | null) => (rank === null ? null : picoToUsd(nearestRank(ascendingPico, rank / standsFor)!));
  if (low === null) reasons.p95PerRunUsd = `too few runs for an interval of the p95 (${standsFor}; one needs 2 runs, an upper bound ${RUNS_FOR_P95_UPPER})`;
  else if (high === null) reasons.p95PerRunUsd = `no upper bound from ${standsFor} runs (a distribution-free one needs ${RUNS_FOR_P95_UPPER}: 1 − 0.95^n ≥ 97.5%)`;
  const p95PerRunUsd: [number | null, number | null] = [at(low), at(high)];
  if (fewest < MIN_RUNS_FOR_MEAN_INTERVAL) {
    reasons.meanPerRunUsd = `too few runs for an interval of the mean (a part stands for ${fewest}; it needs ${MIN_RUNS_FOR_MEAN_INTERVAL})`;
    return { level: 0.95, resamples: 0, meanPerRunUsd: [null, null], p95PerRunUsd, reasons, standsFor };
  }
  return { level: 0.95, resamples: options.resamples, meanPerRunUsd: stratifiedMeanInterval(ascendingPico, strata, { ...options, fewest }), p95PerRunUsd, reasons, standsFor };
}

/** Each resample: every part's mean of `sampleRuns` of its runs drawn with replacement, weighted by its runs; percentile ends widened as meanInterval widens them, for the fewest runs a part stands for. */
function stratifiedMeanInterval(ascendingPico: readonly number[], strata: readonly CostStratum[], options: { seed: number; resamples: number; fewest: number }): [number, number] {
  const n = ascendingPico.length;
  const means: number[] = [];
  for (let b = 0; b < options.resamples; b++) {
    const rng = Rng.stream(options.seed, b, STREAM.projectBootstrap);
    let mean = 0;
    for (const { costsPico, sampleRuns } of strata) {
      const total = new PicoSum();
      for (let k = 0; k < sampleRuns; k++) total.add(costsPico[rng.below(costsPico.length)]!);
      mean += (Number(meanPico(total.value, sampleRuns)) * costsPico.length) / n;
    }
    means.push(mean);
  }
  means.sort((a, b) => a - b);
  return widenedEnds(ascendingPico, means, options.fewest);
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

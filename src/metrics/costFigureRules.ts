/**
 * What a population's cost figures (population.ts tallyMetrics) hold of each other whatever runs made them:
 * nearest-rank quantiles in order under the most a run cost, a mean that is the total over the runs,
 * rounded half up to the picodollar, and a spend per completed run that is null exactly when none completed.
 * One rule for every reader of stored figures: a sweep shard (report/sweepShardSchema.ts rowProblems) and a
 * check baseline (check/baselineSanity.ts). Pure.
 */
import type { CostQuantilesUsd } from './population.js';
import { counted } from '../plural.js';

/** What is wrong with a run's cost quantiles (`p50 ≤ p95 ≤ max`, `mean ≤ max`), or undefined when they hold. */
export function costQuantilesProblem(costs: Pick<CostQuantilesUsd, 'mean' | 'p50' | 'p95' | 'max'>): string | undefined {
  const { p50, p95, max, mean } = costs;
  return p50 <= p95 && p95 <= max && mean <= max ? undefined : `p50 ${p50} ≤ p95 ${p95} ≤ max ${max} and mean ${mean} ≤ max do not hold`;
}

/** Relative slack of a product of figures written exact to the picodollar (a float rounding each; a generous 2^-48). */
const FLOAT_SLACK = 2 ** -48;

/**
 * Whether `meanUsd` is `totalUsd` over `runs` as tallyMetrics makes it (the sum in picodollars over the runs,
 * rounded half up): `meanUsd × runs` within half a picodollar a run of the total, and a float's rounding.
 */
export function meanOfTotal(figures: { totalUsd: number; meanUsd: number; runs: number }): boolean {
  const { totalUsd, meanUsd, runs } = figures;
  const slack = runs * 0.5e-12 + Math.max(meanUsd * runs, totalUsd) * FLOAT_SLACK;
  return Math.abs(meanUsd * runs - totalUsd) <= slack;
}

/** What is wrong with the spend per completed run (`perCompletedUsd`) against the runs that completed: null exactly when none did; undefined when it holds. */
export function perCompletedProblem(figures: { perCompletedUsd: number | null; completed: number }): string | undefined {
  const { perCompletedUsd, completed } = figures;
  if ((perCompletedUsd === null) === (completed === 0)) return undefined;
  return completed === 0 ? 'must be null when no run completed' : `is null, but ${counted(completed, 'run')} completed`;
}

/**
 * What a sweep recommends, by rules that can be redone by hand from its CSV:
 * - recommendation (with a target completion rate R): among configurations with completionRate ≥ R,
 *   the lowest costPerCompletedUsd; ties: the lowest costUsd, then the first in grid order.
 * - pareto: configurations no other beats on both costPerCompletedUsd (lower is better; none completed
 *   counts as the worst) and completionRate (higher is better) — "beats" = at least as good on both and
 *   strictly better on one.
 */
import type { PopulationMetrics } from '../metrics/population.js';

export type RankedRow = Pick<PopulationMetrics, 'completionRate' | 'costPerCompletedUsd' | 'costUsd'>;

const perCompleted = (row: RankedRow): number => row.costPerCompletedUsd ?? Infinity;

/** The index of the recommended configuration, or undefined when none reaches the target. */
export function recommendedIndex(rows: readonly RankedRow[], targetCompletion: number): number | undefined {
  let best: number | undefined;
  rows.forEach((row, i) => {
    if (row.completionRate < targetCompletion || row.costPerCompletedUsd === null) return;
    if (best === undefined) return void (best = i);
    const b = rows[best]!;
    if (perCompleted(row) < perCompleted(b) || (perCompleted(row) === perCompleted(b) && row.costUsd < b.costUsd)) best = i;
  });
  return best;
}

/** Indices of the configurations on the cost / completion frontier, in grid order. */
export function paretoIndices(rows: readonly RankedRow[]): number[] {
  const beats = (a: RankedRow, b: RankedRow): boolean =>
    perCompleted(a) <= perCompleted(b) && a.completionRate >= b.completionRate && (perCompleted(a) < perCompleted(b) || a.completionRate > b.completionRate);
  return rows.flatMap((row, i) => (rows.some((other) => beats(other, row)) ? [] : [i]));
}

/** The 95% Wilson score interval of a rate of `successes` in `n` trials ([0, 1] when n = 0). */
export function wilsonInterval(successes: number, n: number): [number, number] {
  if (n === 0) return [0, 1];
  const z = 1.959963984540054;
  const p = successes / n;
  const centre = p + (z * z) / (2 * n);
  const spread = z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  const scale = 1 + (z * z) / n;
  return [Math.max(0, (centre - spread) / scale), Math.min(1, (centre + spread) / scale)];
}

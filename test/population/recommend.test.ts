import { describe, expect, it } from 'vitest';
import { paretoIndices, type RankedRow } from '../../src/population/recommend.js';
import { Rng } from '../../src/synthetic/random.js';

/** The frontier by its definition, every pair compared (what paretoIndices must equal): a row that completes nothing is never on it. */
function frontierByPairs(rows: readonly RankedRow[]): number[] {
  const cost = (row: RankedRow) => row.costPerCompletedUsd ?? Infinity;
  const beats = (a: RankedRow, b: RankedRow) =>
    cost(a) <= cost(b) && a.completionRate >= b.completionRate && (cost(a) < cost(b) || a.completionRate > b.completionRate);
  return rows.flatMap((row, i) => (row.costPerCompletedUsd === null || rows.some((other) => beats(other, row)) ? [] : [i]));
}

/** Rows drawn from few values, so that equal costs, equal completions and rows completing none are common. */
function randomRows(rng: Rng, n: number): RankedRow[] {
  return Array.from({ length: n }, () => {
    const completionRate = rng.int(0, 4) / 4;
    const costPerCompletedUsd = completionRate === 0 || rng.chance(0.1) ? null : rng.int(1, 6) / 100;
    return { completionRate, costPerCompletedUsd, costUsd: rng.int(1, 9) };
  });
}

describe('paretoIndices', () => {
  it('equals the pairwise definition on 500 seeded random grids (seed in the failure message)', () => {
    for (let seed = 1; seed <= 500; seed++) {
      const rng = new Rng(seed);
      const rows = randomRows(rng, rng.int(0, 40));
      expect(paretoIndices(rows), `seed ${seed}`).toEqual(frontierByPairs(rows));
    }
  });

  it('keeps rows of equal cost and completion together, and drops one as cheap but less complete', () => {
    const rows: RankedRow[] = [
      { completionRate: 0.5, costPerCompletedUsd: 0.02, costUsd: 1 },
      { completionRate: 0.5, costPerCompletedUsd: 0.02, costUsd: 2 },
      { completionRate: 0.25, costPerCompletedUsd: 0.02, costUsd: 1 },
      { completionRate: 1, costPerCompletedUsd: 0.05, costUsd: 5 },
      { completionRate: 0, costPerCompletedUsd: null, costUsd: 1 },
    ];
    expect(paretoIndices(rows)).toEqual([0, 1, 3]);
  });

});

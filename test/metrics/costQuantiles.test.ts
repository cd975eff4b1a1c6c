import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { costQuantilesInPlace } from '../../src/metrics/costQuantiles.js';
import { nearestRank } from '../../src/metrics/population.js';
import { lcg } from '../helpers.js';

const cost = fc.integer({ min: 0, max: 4_000_000_000_000_000 });

/** The quantiles a sort of every cost gives. */
function sorted(parts: readonly number[][]): { p50: number; p95: number; max: number } {
  const all = parts.flat().sort((a, b) => a - b);
  return all.length === 0 ? { p50: 0, p95: 0, max: 0 } : { p50: nearestRank(all, 0.5)!, p95: nearestRank(all, 0.95)!, max: all.at(-1)! };
}

describe('costQuantilesInPlace over parts (joined in one array reused from call to call)', () => {
  it('one selection after another, longer and shorter: each = a sort of its costs, the parts left as they were', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.array(cost, { maxLength: 40 }), { minLength: 2, maxLength: 5 }), { minLength: 1, maxLength: 6 }), (selections) => {
        for (const parts of selections) {
          const arrays = parts.map((part) => Float64Array.from(part));
          expect(costQuantilesInPlace(arrays)).toEqual(sorted(parts));
          expect(arrays.map((a) => [...a])).toEqual(parts);
        }
      }),
      { numRuns: 300, seed: 4411 },
    );
  });
});

describe('costQuantilesInPlace over many costs (pivots from a sample, one pass)', () => {
  it('= a sort of the costs, whatever their order, spread and repeats; a sample that misleads (every sampled cost the smallest) too', () => {
    const next = lcg(9127);
    const shapes: ((i: number, n: number) => number)[] = [
      () => next(2 ** 31) * 1_000_003,
      () => next(7) * 1e9,
      (i) => i * 1000,
      (i, n) => (n - i) * 3,
      () => (next(100) < 97 ? 5 : next(2 ** 31)),
      // Every 8th cost (what a sample of every ⌊n/1024⌋-th would take at n = 8,192) the smallest.
      (i) => (i % 8 === 0 ? 0 : 1e6 + next(1e6)),
    ];
    for (const n of [4096, 8192, 20_011]) {
      for (const shape of shapes) {
        const all = Array.from({ length: n }, (_, i) => shape(i, n));
        const cuts = [0, Math.floor(n / 3), Math.floor(n / 3) + 1, Math.floor((3 * n) / 4), n];
        const parts = cuts.slice(1).map((end, k) => all.slice(cuts[k], end));
        const arrays = parts.map((part) => Float64Array.from(part));
        expect(costQuantilesInPlace(arrays)).toEqual(sorted(parts));
        expect(costQuantilesInPlace([Float64Array.from(all)])).toEqual(sorted([all]));
      }
    }
  });
});

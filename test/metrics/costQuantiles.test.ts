import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { costQuantilesInPlace } from '../../src/metrics/costQuantiles.js';
import { nearestRank } from '../../src/metrics/population.js';

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

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Rng, streamSeed, STREAM } from '../../src/synthetic/random.js';

describe('Rng.next (masked draw)', () => {
  it('gives the same numbers as pure-rand’s uniform int distribution, in the same order, mixed with int draws', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 32 - 1 }), // a 32-bit seed as Rng takes it (streamSeed's)
        fc.array(fc.oneof(fc.constant('next' as const), fc.record({ min: fc.integer({ min: -1000, max: 1000 }), span: fc.integer({ min: 0, max: 5000 }) })), { maxLength: 60 }),
        (seed, plan) => {
          const masked = new Rng(seed);
          const reference = new Rng(seed);
          for (const draw of plan) {
            if (draw === 'next') {
              const value = masked.next();
              expect(value).toBe(reference.nextByDistribution());
              expect(value >= 0 && value < 1).toBe(true);
            } else expect(masked.int(draw.min, draw.min + draw.span)).toBe(reference.int(draw.min, draw.min + draw.span));
          }
        },
      ),
      { numRuns: 2000, seed: 20261203 },
    );
  });

  it('matches on long streams of the seeds the synthetic runs use', () => {
    for (let run = 0; run < 50; run++) {
      const seed32 = streamSeed(1, run, STREAM.action, run % 7);
      const masked = new Rng(seed32);
      const reference = new Rng(seed32);
      for (let i = 0; i < 2000; i++) expect(masked.next()).toBe(reference.nextByDistribution());
    }
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import type { CacheMode } from '../../src/context/strategy.js';
import { compileTrace } from '../../src/fast/compile.js';
import { flattenPrices, replayFast } from '../../src/fast/replayFast.js';
import { runLoop } from '../../src/loop/run.js';
import { ReplaySource } from '../../src/loop/replaySource.js';
import { trace, figuresOf } from '../helpers.js';
import { brakesArb, callArb, pricings, strategyArb } from './arbitraries.js';

describe('fast path = readable path', () => {
  it('same stop reason and figures on random traces, brakes, strategies, cache modes and prices', () => {
    fc.assert(
      fc.property(
        fc.array(callArb, { maxLength: 50 }),
        fc.integer({ min: 0, max: 3000 }),
        fc.constantFrom('completed' as const, 'error' as const),
        brakesArb,
        strategyArb,
        fc.constantFrom<CacheMode>('on', 'off', 'recorded'),
        fc.constantFrom(0, 1, 2),
        fc.option(fc.record({ perCallMs: fc.integer({ min: 0, max: 2000 }), perInputTokenMs: fc.constantFrom(0, 0.01, 0.05), perOutputTokenMs: fc.constantFrom(0, 7, 20), perToolCallMs: fc.integer({ min: 0, max: 900 }) }), { nil: undefined }),
        (calls, system, outcome, brakes, strategy, cache, priceIndex, latency) => {
          const t = trace(calls, { system, outcome });
          const pricing = pricings[priceIndex]!;
          const config = { ...NO_BRAKES, ...brakes };
          const slow = runLoop(new ReplaySource(t), { brakes: config, strategy, cache, pricing, systemTokens: system, goalTokens: 0, ...(latency ? { latency } : {}) });
          const fast = replayFast(compileTrace(t), config, strategy, cache, flattenPrices(pricing), latency);
          expect(fast).toEqual(figuresOf(slow));
        },
      ),
      { numRuns: 3000, seed: 7201 },
    );
  });
});

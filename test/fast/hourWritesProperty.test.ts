/**
 * Seeded properties over traces of plain calls (no recorded prompt size), some recording cache writes for
 * an hour (arbitraries.ts plainCallArb), priced by every price list, hourly's included: the compiled replay
 * (closed form), and a run table (plainTable.ts for a plain trace), say what the readable loop says.
 * Before hourWrites.ts the closed form priced hour writes at the five-minute price: these failed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import type { CacheMode } from '../../src/context/strategy.js';
import { compileTrace } from '../../src/fast/compile.js';
import { buildRunTable } from '../../src/fast/plainTable.js';
import { flattenPrices, replayFast, toolStopCall } from '../../src/fast/replayFast.js';
import { Run, runOutcomeOf } from '../../src/fast/runState.js';
import { runSettings } from '../../src/fast/settings.js';
import { stopInTable } from '../../src/fast/tableStop.js';
import { brakeLimits } from '../../src/kernel/limits.js';
import { runLoop } from '../../src/loop/run.js';
import { ReplaySource } from '../../src/loop/replaySource.js';
import { brakesArb, plainCallArb, pricings, strategyArb } from '../core/arbitraries.js';
import { figuresOf, trace } from '../helpers.js';

const caseArb = fc.record({
  // The compiled replay takes stretches of 16 calls or more in closed form (replayFast.ts CLOSED_FORM_MIN_CALLS).
  calls: fc.array(plainCallArb, { minLength: 16, maxLength: 60 }),
  system: fc.integer({ min: 0, max: 3000 }),
  outcome: fc.constantFrom('completed' as const, 'error' as const),
  brakes: brakesArb,
  strategy: strategyArb,
  cache: fc.constantFrom<CacheMode>('on', 'on', 'off'),
  priceIndex: fc.constantFrom(0, 1, 2, 3, 3, 3),
});

describe('plain calls with 1 h cache writes: every engine = the readable loop', () => {
  it('compiled replay (closed form) = readable loop', () => {
    fc.assert(
      fc.property(caseArb, ({ calls, system, outcome, brakes, strategy, cache, priceIndex }) => {
        const t = trace(calls, { system, outcome });
        const pricing = pricings[priceIndex]!;
        const config = { ...NO_BRAKES, ...brakes };
        const slow = runLoop(new ReplaySource(t), { brakes: config, strategy, cache, pricing, systemTokens: system, goalTokens: 0 });
        expect(replayFast(compileTrace(t), config, strategy, cache, flattenPrices(pricing))).toEqual(figuresOf(slow));
      }),
      { numRuns: 600, seed: 7811 },
    );
  });

  it('a run table read under brakes = readable loop', () => {
    fc.assert(
      fc.property(caseArb, ({ calls, system, outcome, brakes, strategy, cache, priceIndex }) => {
        const t = trace(calls, { system, outcome });
        const pricing = pricings[priceIndex]!;
        const prices = flattenPrices(pricing);
        const compiled = compileTrace(t);
        const config = { ...NO_BRAKES, ...brakes } as BrakeConfig;
        const limits = brakeLimits(config, prices.contextWindow);
        const table = buildRunTable(compiled, runSettings(strategy, cache), prices);
        const st = new Float64Array(Run.Size);
        stopInTable(table, compiled, limits, toolStopCall(compiled, limits), st);
        const slow = runLoop(new ReplaySource(t), { brakes: config, strategy, cache, pricing, systemTokens: system, goalTokens: 0 });
        const fromTable = runOutcomeOf(compiled, st, limits);
        expect([fromTable.stop.reason, fromTable.costPico, fromTable.cacheWriteTokens]).toEqual([slow.stop.reason, slow.costPico, slow.cacheWriteTokens]);
      }),
      { numRuns: 600, seed: 7812 },
    );
  });
});

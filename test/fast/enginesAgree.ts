/**
 * One trace under brakes, a strategy and prices: the compiled replay and a run table give the readable loop's
 * figures (asserted here), and the readable loop's run is returned; and the cases both fee property tests draw
 * (requestFees.test.ts, perRequestFee.test.ts).
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import type { BrakeConfig } from '../../src/brakes/config.js';
import type { CacheMode, ContextStrategy } from '../../src/context/strategy.js';
import { compileTrace } from '../../src/fast/compile.js';
import { buildRunTable } from '../../src/fast/plainTable.js';
import { flattenPrices, replayFast, toolStopCall } from '../../src/fast/replayFast.js';
import { Run, runOutcomeOf } from '../../src/fast/runState.js';
import { runSettings } from '../../src/fast/settings.js';
import { stopInTable } from '../../src/fast/tableStop.js';
import { brakeLimits } from '../../src/kernel/limits.js';
import { ReplaySource } from '../../src/loop/replaySource.js';
import { runLoop } from '../../src/loop/run.js';
import type { ModelPricing } from '../../src/pricing/types.js';
import type { CallRecord, Trace } from '../../src/trace/types.js';
import { brakesArb, callArb, plainCallArb, strategyArb } from '../core/arbitraries.js';
import { figuresOf } from '../helpers.js';

export function expectEnginesAgree(t: Trace, run: { config: BrakeConfig; strategy: ContextStrategy; cache: CacheMode; pricing: ModelPricing; system: number }): ReturnType<typeof runLoop> {
  const { config, strategy, cache, pricing, system } = run;
  const prices = flattenPrices(pricing);
  const slow = runLoop(new ReplaySource(t), { brakes: config, strategy, cache, pricing, systemTokens: system, goalTokens: 0 });
  const compiled = compileTrace(t);
  expect(replayFast(compiled, config, strategy, cache, prices)).toEqual(figuresOf(slow));
  const limits = brakeLimits(config, prices.contextWindow);
  const st = new Float64Array(Run.Size);
  stopInTable(buildRunTable(compiled, runSettings(strategy, cache), prices), compiled, limits, toolStopCall(compiled, limits), st);
  const fromTable = runOutcomeOf(compiled, st, limits);
  expect([fromTable.stop.reason, fromTable.calls, fromTable.costPico]).toEqual([slow.stop.reason, slow.calls, slow.costPico]);
  return slow;
}

/** A case: long plain stretches (which the closed form would take) or calls of every kind (`calls` may add to each), under brakes, a strategy, a cache and one of the shared price lists. */
export function engineCaseArb(calls: (arb: fc.Arbitrary<CallRecord>) => fc.Arbitrary<CallRecord> = (arb) => arb) {
  return fc.record({
    calls: fc.oneof(fc.array(calls(plainCallArb), { minLength: 16, maxLength: 50 }), fc.array(calls(callArb), { maxLength: 40 })),
    system: fc.integer({ min: 0, max: 3000 }),
    outcome: fc.constantFrom('completed' as const, 'error' as const),
    brakes: brakesArb,
    strategy: strategyArb,
    cache: fc.constantFrom<CacheMode>('recorded', 'on', 'off'),
    priceIndex: fc.constantFrom(0, 1, 2, 3),
  });
}

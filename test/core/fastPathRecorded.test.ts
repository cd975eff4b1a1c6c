/**
 * The recorded closed form (src/fast/recordedForm.ts) takes stretches of calls with recorded prompt
 * sizes and cache figures, replayed with the cache as recorded, in O(1) per stretch. Checked here
 * against the readable loop on long recorded traces shaped like real runs (the recorded prompt is the
 * growth model's plus an overhead, mostly cached), with every brake set at a running total of the run
 * and one off either side, under full history and windows.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ContextStrategy } from '../../src/context/strategy.js';
import { recordedFormStats } from '../../src/fast/recordedForm.js';
import type { LatencyModel } from '../../src/loop/latency.js';
import type { ModelPricing } from '../../src/pricing/types.js';
import { usdPerMillionToPico } from '../../src/money.js';
import type { CallRecord } from '../../src/trace/types.js';
import { brakesAtRow, expectFastAgrees, finishRecordedCall, growthPrompt, seededTrace, seededTraceArb, unbrakedRun } from '../fast/recordedTraces.js';
import { handPriced } from '../helpers.js';

const deepseekLike = handPriced('d', { input: 0.28, output: 0.42, cached: 0.028 }, 131_072);
const anthropicLike = handPriced('a', { input: 3, output: 15, cached: 0.3, cacheWrite: 3.75 }, 200_000);
const tiered: ModelPricing = {
  ...handPriced('t', { input: 1.25, output: 10, cached: 0.125 }, 400_000),
  tiers: [{ aboveInputTokens: 40_000, prices: { input: usdPerMillionToPico(2.5), cachedInput: usdPerMillionToPico(0.25), output: usdPerMillionToPico(15) } }],
};

const recordedTraceArb = seededTraceArb(fc.oneof(fc.integer({ min: 40, max: 260 }), fc.integer({ min: 2, max: 25 })), {
  system: fc.integer({ min: 0, max: 3000 }),
  unusualEvery: fc.integer({ min: 25, max: 400 }),
  belowGrowthEvery: fc.integer({ min: 10, max: 400 }),
  writeEvery: fc.integer({ min: 10, max: 400 }),
  missingLatencyEvery: fc.integer({ min: 40, max: 2000 }),
}).map(({ n, seed, system, unusualEvery, belowGrowthEvery, writeEvery, missingLatencyEvery }) =>
  seededTrace({ n, seed, header: { system, outcome: 'completed', origin: 'recorded' } }, (at) => {
    const output = 10 + at.next(400);
    const call: CallRecord = { type: 'call', outputTokens: output, reasoningTokens: at.next(3) === 0 ? at.next(output) : 0 };
    if (at.i % missingLatencyEvery !== missingLatencyEvery - 1) call.latencyMs = 200 + at.next(5000);
    const prompt = growthPrompt(at, { system, belowGrowthEvery, maxOverhead: 900 });
    call.inputTokens = prompt;
    call.cachedInputTokens = Math.min(prompt, Math.max(0, at.previousPrompt - at.next(200)));
    return finishRecordedCall(call, at, { writeEvery, unusualEvery, maxResultTokens: 1500 });
  }),
);

const strategyArb = fc.constantFrom<ContextStrategy>({ kind: 'full' }, { kind: 'window', windowSteps: 1 }, { kind: 'window', windowSteps: 8 }, { kind: 'window', windowSteps: 20 }, { kind: 'full', toolResultCap: 400 });

describe('recorded closed form = readable path', () => {
  it('agrees on long recorded runs, each brake at a running total of the run ±1', () => {
    const before = { ...recordedFormStats };
    fc.assert(
      fc.property(
        recordedTraceArb,
        strategyArb,
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.constantFrom(-1, 0, 1),
        fc.subarray(['cost', 'tokens', 'steps', 'window', 'time', 'repeat'] as const),
        fc.constantFrom(deepseekLike, anthropicLike, tiered),
        fc.option(fc.constant<LatencyModel>({ perCallMs: 300, perInputTokenMs: 0, perOutputTokenMs: 2, perToolCallMs: 40 }), { nil: undefined, freq: 4 }),
        (t, strategy, where, delta, brakes, pricing, latency) => {
          const options = { strategy, cache: 'recorded' as const, pricing, systemTokens: t.header.systemTokens, goalTokens: 0, ...(latency ? { latency } : {}) };
          expectFastAgrees(t, options, brakesAtRow(unbrakedRun(t, options), { where, delta, brakes }));
        },
      ),
      { numRuns: 800, seed: 7501 },
    );
    // The form was taken (not only the per-step loop).
    expect(recordedFormStats.full - before.full).toBeGreaterThan(1_000);
    expect(recordedFormStats.window - before.window).toBeGreaterThan(1_000);
    expect(recordedFormStats.filling - before.filling).toBeGreaterThan(200);
  });
});

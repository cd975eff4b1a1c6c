/**
 * readable = fast with a provider's cache rule, the cache as recorded, under windows, masking and a
 * tool-result cap: a strategy's recorded reads are capped at what the rule serves of the unchanged prefix
 * (kernel/meter.ts servedCachedTokens), in the real loop, the compiled per-step loop and the recorded closed
 * form (fast/recordedSums.ts recordedSumsFor: its sums under the model's rule). Recordings shaped like real
 * runs, system prompts about the rules' minimum prefixes, each brake at a running total of the run ±1.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import { recordedFormStats } from '../../src/fast/recordedForm.js';
import { runLoop } from '../../src/loop/run.js';
import { ReplaySource } from '../../src/loop/replaySource.js';
import { NO_CACHE_RULE } from '../../src/pricing/cacheRules.js';
import type { ModelPricing } from '../../src/pricing/types.js';
import type { CallRecord } from '../../src/trace/types.js';
import { brakesAtRow, expectFastAgrees, finishRecordedCall, growthPrompt, seededTrace, seededTraceArb, unbrakedRun } from '../fast/recordedTraces.js';
import { handPriced } from '../helpers.js';

/** gpt-* takes OpenAI's rule (1,024, 128-token increments), deepseek-* 64-token units; the others state theirs. */
const openai = handPriced('gpt-4o-mini', { input: 0.15, output: 0.6, cached: 0.075 }, 128_000);
const deepseek = handPriced('deepseek-chat', { input: 0.28, output: 0.42, cached: 0.028 }, 131_072);
const anthropicLike: ModelPricing = { ...handPriced('a', { input: 3, output: 15, cached: 0.3, cacheWrite: 3.75 }, 200_000), cacheRule: { minPrefixTokens: 2048, incrementTokens: 1, source: 'test' } };
const odd: ModelPricing = { ...handPriced('o', { input: 1, output: 4, cached: 0.5 }, 200_000), cacheRule: { minPrefixTokens: 700, incrementTokens: 300, source: 'test' } };

const recordedTraceArb = seededTraceArb(fc.oneof(fc.integer({ min: 30, max: 160 }), fc.integer({ min: 2, max: 20 })), {
  system: fc.oneof(fc.integer({ min: 600, max: 2300 }), fc.integer({ min: 0, max: 4000 })),
  unusualEvery: fc.integer({ min: 15, max: 400 }),
  belowGrowthEvery: fc.integer({ min: 10, max: 400 }),
  writeEvery: fc.integer({ min: 10, max: 400 }),
}).map(({ n, seed, system, unusualEvery, belowGrowthEvery, writeEvery }) =>
  seededTrace({ n, seed, header: { system, outcome: 'completed', origin: 'recorded' } }, (at) => {
    const call: CallRecord = { type: 'call', outputTokens: 10 + at.next(300), latencyMs: 200 + at.next(3000) };
    const prompt = growthPrompt(at, { system, belowGrowthEvery, maxOverhead: 200 });
    call.inputTokens = prompt;
    // Mostly the previous prompt, in whole 64-token units or not at all; sometimes any size.
    const read = Math.min(prompt, Math.max(0, at.previousPrompt - at.next(100)));
    call.cachedInputTokens = at.next(4) === 0 ? read : read - (read % 64);
    return finishRecordedCall(call, at, { writeEvery, unusualEvery, maxResultTokens: 900 });
  }),
);

const strategyArb = fc.constantFrom<ContextStrategy>(
  { kind: 'window', windowSteps: 1 },
  { kind: 'window', windowSteps: 3 },
  { kind: 'window', windowSteps: 12 },
  { kind: 'mask', maskSteps: 2 },
  { kind: 'mask', maskSteps: 5, maskBatchSteps: 3, placeholderTokens: 12 },
  { kind: 'full', toolResultCap: 300 },
  { kind: 'full' },
);

describe('readable = fast: a cache rule, the cache as recorded, under window and mask strategies', () => {
  it('agrees on every figure, each brake at a running total ±1; the rule reads less than none would', () => {
    const before = { ...recordedFormStats };
    let ruleReadsLess = 0;
    fc.assert(
      fc.property(
        recordedTraceArb,
        strategyArb,
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.constantFrom(-1, 0, 1),
        fc.subarray(['cost', 'tokens', 'steps', 'window', 'time'] as const),
        fc.constantFrom(openai, deepseek, anthropicLike, odd),
        (t, strategy, where, delta, brakes, pricing) => {
          const options = { strategy, cache: 'recorded' as const, pricing, systemTokens: t.header.systemTokens, goalTokens: 0 };
          const free = unbrakedRun(t, options);
          const noRule = runLoop(new ReplaySource(t), { ...options, pricing: { ...pricing, cacheRule: NO_CACHE_RULE }, brakes: NO_BRAKES });
          if (free.cachedInputTokens < noRule.cachedInputTokens) ruleReadsLess++;
          expectFastAgrees(t, options, brakesAtRow(free, { where, delta, brakes }));
        },
      ),
      { numRuns: 500, seed: 20_260_514 },
    );
    // The rule mattered, and the closed form took windows (its sums under the rule), not only the per-step loop.
    expect(ruleReadsLess).toBeGreaterThan(100);
    expect(recordedFormStats.window - before.window).toBeGreaterThan(1_000);
    expect(recordedFormStats.filling - before.filling).toBeGreaterThan(100);
  });
});

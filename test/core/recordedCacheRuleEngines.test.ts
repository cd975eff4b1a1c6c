/**
 * readable = fast with a provider's cache rule, the cache as recorded, under windows, masking and a
 * tool-result cap: a strategy's recorded reads are capped at what the rule serves of the unchanged prefix
 * (kernel/meter.ts servedCachedTokens), in the real loop, the compiled per-step loop and the recorded closed
 * form (fast/recordedSums.ts recordedSumsFor: its sums under the model's rule). Recordings shaped like real
 * runs, system prompts about the rules' minimum prefixes, each brake at a running total of the run ±1.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import { compileTrace } from '../../src/fast/compile.js';
import { recordedFormStats } from '../../src/fast/recordedForm.js';
import { flattenPrices, replayFast } from '../../src/fast/replayFast.js';
import { runLoop } from '../../src/loop/run.js';
import { ReplaySource } from '../../src/loop/replaySource.js';
import { NO_CACHE_RULE } from '../../src/pricing/cacheRules.js';
import type { ModelPricing } from '../../src/pricing/types.js';
import type { CallRecord } from '../../src/trace/types.js';
import { figuresOf, handPriced, lcg, trace } from '../helpers.js';

/** gpt-* takes OpenAI's rule (1,024, 128-token increments), deepseek-* 64-token units; the others state theirs. */
const openai = handPriced('gpt-4o-mini', { input: 0.15, output: 0.6, cached: 0.075 }, 128_000);
const deepseek = handPriced('deepseek-chat', { input: 0.28, output: 0.42, cached: 0.028 }, 131_072);
const anthropicLike: ModelPricing = { ...handPriced('a', { input: 3, output: 15, cached: 0.3, cacheWrite: 3.75 }, 200_000), cacheRule: { minPrefixTokens: 2048, incrementTokens: 1, source: 'test' } };
const odd: ModelPricing = { ...handPriced('o', { input: 1, output: 4, cached: 0.5 }, 200_000), cacheRule: { minPrefixTokens: 700, incrementTokens: 300, source: 'test' } };

const recordedTraceArb = fc
  .record({
    n: fc.oneof(fc.integer({ min: 30, max: 160 }), fc.integer({ min: 2, max: 20 })),
    seed: fc.integer({ min: 1, max: 2 ** 30 }),
    system: fc.oneof(fc.integer({ min: 600, max: 2300 }), fc.integer({ min: 0, max: 4000 })),
    unusualEvery: fc.integer({ min: 15, max: 400 }),
    belowGrowthEvery: fc.integer({ min: 10, max: 400 }),
    writeEvery: fc.integer({ min: 10, max: 400 }),
  })
  .map(({ n, seed, system, unusualEvery, belowGrowthEvery, writeEvery }) => {
    const next = lcg(seed);
    const calls: CallRecord[] = [];
    let history = 0;
    let previousPrompt = 0;
    for (let i = 0; i < n; i++) {
      const output = 10 + next(300);
      const call: CallRecord = { type: 'call', outputTokens: output, latencyMs: 200 + next(3000) };
      const overhead = i % belowGrowthEvery === belowGrowthEvery - 1 ? -next(300) - 1 : next(200);
      const prompt = Math.max(0, system + history + overhead);
      call.inputTokens = prompt;
      // Mostly the previous prompt, in whole 64-token units or not at all; sometimes any size.
      const read = Math.min(prompt, Math.max(0, previousPrompt - next(100)));
      call.cachedInputTokens = next(4) === 0 ? read : read - (read % 64);
      if (i % writeEvery === writeEvery - 1) call.cacheWriteTokens = Math.min(prompt - call.cachedInputTokens, next(500));
      previousPrompt = prompt;
      const kind = i % unusualEvery === unusualEvery - 1 ? next(3) : -1;
      if (kind === 0) call.backtrack = true;
      else if (kind === 1) call.failed = { status: 500, message: 'server error' };
      if (kind !== 0 && kind !== 1) {
        call.toolCalls = Array.from({ length: 1 + next(2) }, () => ({ name: next(2) ? 'read' : 'run', arguments: { f: next(400) }, resultTokens: next(900), latencyMs: next(400) }));
        history += output + call.toolCalls.reduce((sum, t) => sum + t.resultTokens, 0);
      }
      if (i === n - 1 && kind === -1) call.final = true;
      calls.push(call);
    }
    return trace(calls, { system, outcome: 'completed', origin: 'recorded' });
  });

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
          const free = runLoop(new ReplaySource(t), { ...options, brakes: NO_BRAKES, keepSteps: true });
          const noRule = runLoop(new ReplaySource(t), { ...options, pricing: { ...pricing, cacheRule: NO_CACHE_RULE }, brakes: NO_BRAKES });
          if (free.cachedInputTokens < noRule.cachedInputTokens) ruleReadsLess++;
          const rows = free.rows;
          const config: BrakeConfig = { ...NO_BRAKES, contextWindow: 'model' };
          if (rows.length > 0) {
            const row = rows[Math.min(rows.length - 1, Math.floor(where * rows.length))]!;
            if (brakes.includes('cost')) config.maxCostPico = Math.max(0, row.cumulativeCostPico + delta);
            if (brakes.includes('tokens')) config.maxTokens = Math.max(1, row.cumulativeInputTokens + row.cumulativeOutputTokens + delta);
            if (brakes.includes('steps')) config.maxSteps = Math.max(1, row.step + delta);
            if (brakes.includes('window')) config.contextWindow = Math.max(1, row.inputTokens + delta);
            if (brakes.includes('time')) config.timeoutMs = Math.max(0, Math.round(free.elapsedMs * where) + delta);
          }
          const slow = runLoop(new ReplaySource(t), { ...options, brakes: config });
          const fast = replayFast(compileTrace(t), config, strategy, 'recorded', flattenPrices(pricing), undefined);
          expect(fast).toEqual(figuresOf(slow));
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

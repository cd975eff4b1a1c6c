/**
 * The recorded closed form (src/fast/recordedForm.ts) takes stretches of calls with recorded prompt
 * sizes and cache figures, replayed with the cache as recorded, in O(1) per stretch. Checked here
 * against the readable loop on long recorded traces shaped like real runs (the recorded prompt is the
 * growth model's plus an overhead, mostly cached), with every brake set at a running total of the run
 * and one off either side, under full history and windows.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import { compileTrace } from '../../src/fast/compile.js';
import { recordedFormStats } from '../../src/fast/recordedForm.js';
import { flattenPrices, replayFast } from '../../src/fast/replayFast.js';
import type { LatencyModel } from '../../src/loop/latency.js';
import { runLoop } from '../../src/loop/run.js';
import { ReplaySource } from '../../src/loop/replaySource.js';
import type { ModelPricing } from '../../src/pricing/types.js';
import { usdPerMillionToPico } from '../../src/money.js';
import type { CallRecord } from '../../src/trace/types.js';
import { handPriced, trace, figuresOf, lcg } from '../helpers.js';

const deepseekLike = handPriced('d', { input: 0.28, output: 0.42, cached: 0.028 }, 131_072);
const anthropicLike = handPriced('a', { input: 3, output: 15, cached: 0.3, cacheWrite: 3.75 }, 200_000);
const tiered: ModelPricing = {
  ...handPriced('t', { input: 1.25, output: 10, cached: 0.125 }, 400_000),
  tiers: [{ aboveInputTokens: 40_000, prices: { input: usdPerMillionToPico(2.5), cachedInput: usdPerMillionToPico(0.25), output: usdPerMillionToPico(15) } }],
};

const recordedTraceArb = fc
  .record({
    n: fc.oneof(fc.integer({ min: 40, max: 260 }), fc.integer({ min: 2, max: 25 })),
    seed: fc.integer({ min: 1, max: 2 ** 30 }),
    system: fc.integer({ min: 0, max: 3000 }),
    unusualEvery: fc.integer({ min: 25, max: 400 }),
    belowGrowthEvery: fc.integer({ min: 10, max: 400 }),
    writeEvery: fc.integer({ min: 10, max: 400 }),
    missingLatencyEvery: fc.integer({ min: 40, max: 2000 }),
  })
  .map(({ n, seed, system, unusualEvery, belowGrowthEvery, writeEvery, missingLatencyEvery }) => {
    const next = lcg(seed);
    const calls: CallRecord[] = [];
    // The growth model's history (output + results of every step so far), as a recorder would see it grow.
    let history = 0;
    let previousPrompt = 0;
    for (let i = 0; i < n; i++) {
      const output = 10 + next(400);
      const call: CallRecord = { type: 'call', outputTokens: output, reasoningTokens: next(3) === 0 ? next(output) : 0 };
      if (i % missingLatencyEvery !== missingLatencyEvery - 1) call.latencyMs = 200 + next(5000);
      const overhead = i % belowGrowthEvery === belowGrowthEvery - 1 ? -next(300) - 1 : next(900);
      const prompt = Math.max(0, system + history + overhead);
      call.inputTokens = prompt;
      call.cachedInputTokens = Math.min(prompt, Math.max(0, previousPrompt - next(200)));
      if (i % writeEvery === writeEvery - 1) call.cacheWriteTokens = Math.min(prompt - call.cachedInputTokens, next(500));
      previousPrompt = prompt;
      const kind = i % unusualEvery === unusualEvery - 1 ? next(3) : -1;
      if (kind === 0) call.backtrack = true;
      else if (kind === 1) call.failed = { status: 500, message: 'server error' };
      if (kind !== 0 && kind !== 1) {
        call.toolCalls = Array.from({ length: 1 + next(2) }, () => ({ name: next(2) ? 'read' : 'run', arguments: { f: next(400) }, resultTokens: next(1500), latencyMs: next(400) }));
        history += output + call.toolCalls.reduce((sum, t) => sum + t.resultTokens, 0);
      }
      if (i === n - 1 && kind === -1) call.final = true;
      calls.push(call);
    }
    return trace(calls, { system, outcome: 'completed', origin: 'recorded' });
  });

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
          const free = runLoop(new ReplaySource(t), { ...options, brakes: NO_BRAKES, keepSteps: true });
          const rows = free.rows;
          const config: BrakeConfig = { ...NO_BRAKES, contextWindow: 'model' };
          if (rows.length > 0) {
            const row = rows[Math.min(rows.length - 1, Math.floor(where * rows.length))]!;
            if (brakes.includes('cost')) config.maxCostPico = Math.max(0, row.cumulativeCostPico + delta);
            if (brakes.includes('tokens')) config.maxTokens = Math.max(1, row.cumulativeInputTokens + row.cumulativeOutputTokens + delta);
            if (brakes.includes('steps')) config.maxSteps = Math.max(1, row.step + delta);
            if (brakes.includes('window')) config.contextWindow = Math.max(1, row.inputTokens + delta);
            if (brakes.includes('time')) config.timeoutMs = Math.max(0, Math.round(free.elapsedMs * where) + delta);
            if (brakes.includes('repeat')) config.maxRepeat = 2 + Math.floor(where * 6);
          }
          const slow = runLoop(new ReplaySource(t), { ...options, brakes: config });
          const fast = replayFast(compileTrace(t), config, strategy, 'recorded', flattenPrices(pricing), latency);
          expect(fast).toEqual(figuresOf(slow));
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

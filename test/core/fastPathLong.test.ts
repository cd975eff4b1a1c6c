/**
 * The fast path skips long stretches of ordinary calls in closed form and binary-searches the call
 * where a brake fires, so it is checked here on long traces with brakes set exactly at the run's own
 * running totals (and one off either side), where an off-by-one would show.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import type { CacheMode, ContextStrategy } from '../../src/context/strategy.js';
import { compileTrace } from '../../src/fast/compile.js';
import { flattenPrices, replayFast } from '../../src/fast/replayFast.js';
import type { LatencyModel } from '../../src/loop/latency.js';
import type { CallRecord } from '../../src/trace/types.js';
import { atRunningTotals, expectFastAgrees, rowAt, seededTrace, seededTraceArb, unbrakedRun } from '../fast/recordedTraces.js';
import { handPriced } from '../helpers.js';
import type { ModelPricing } from '../../src/pricing/types.js';
import { usdPerMillionToPico } from '../../src/money.js';

const plain = handPriced('p', { input: 1.25, output: 10, cached: 0.125, cacheWrite: 1.5 }, 60_000);
// Whole-prompt tier above 20k tokens: long runs cross it part-way.
const tiered: ModelPricing = {
  ...handPriced('t', { input: 1.25, output: 10, cached: 0.125 }, 200_000),
  tiers: [{ aboveInputTokens: 20_000, prices: { input: usdPerMillionToPico(2.5), cachedInput: usdPerMillionToPico(0.25), output: usdPerMillionToPico(15) } }],
};
const flat = flattenPrices(plain);

const longTraceArb = seededTraceArb(fc.integer({ min: 100, max: 450 }), {
  recorded: fc.boolean(),
  fractional: fc.boolean(),
  unusualEvery: fc.integer({ min: 7, max: 200 }),
  toolsPerCall: fc.integer({ min: 1, max: 3 }),
}).map(({ n, seed, recorded, fractional, unusualEvery, toolsPerCall }) => {
  let prompt = 1500;
  return seededTrace({ n, seed, header: { system: 800, outcome: 'error', origin: recorded ? 'recorded' : 'synthetic' } }, ({ i, next }) => {
    const call: CallRecord = { type: 'call', outputTokens: 20 + next(300), latencyMs: fractional ? 100 + next(900) / 7 : 100 + next(900) };
    if (recorded) {
      prompt += 50 + next(400);
      call.inputTokens = prompt;
      call.cachedInputTokens = Math.max(0, prompt - 200 - next(400));
    }
    const kind = i % unusualEvery === unusualEvery - 1 ? next(4) : -1;
    if (kind === 0) call.backtrack = true;
    else if (kind === 1) call.failed = { status: 429, message: 'rate limited' };
    else if (kind === 2) call.unparseable = true;
    if (kind !== 0 && kind !== 1) {
      call.toolCalls = Array.from({ length: toolsPerCall }, (_, j) => ({
        name: next(2) ? 'read' : 'run',
        arguments: { f: next(60) },
        resultTokens: next(700),
        latencyMs: next(300),
        ...(next(9) === 0 ? { error: `E${next(2)}` } : {}),
      }));
    }
    return call;
  });
});

const strategyArb: fc.Arbitrary<ContextStrategy> = fc.constantFrom<ContextStrategy>(
  { kind: 'full' },
  { kind: 'full', toolResultCap: 250 },
  { kind: 'window', windowSteps: 12 },
  { kind: 'window', windowSteps: 5, toolResultCap: 300 },
);

describe('fast path = readable path on long traces, brakes at the boundary', () => {
  it('agrees when each brake is set at a running total of the run, ±1', () => {
    fc.assert(
      fc.property(
        longTraceArb,
        strategyArb,
        fc.constantFrom<CacheMode>('off', 'on', 'recorded'),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.constantFrom(-1, 0, 1),
        fc.subarray(['cost', 'tokens', 'steps', 'window', 'time', 'repeat', 'error'] as const, { minLength: 1 }),
        fc.constantFrom('check' as const, 'predict' as const),
        fc.option(fc.constant<LatencyModel>({ perCallMs: 500, perInputTokenMs: 0.01, perOutputTokenMs: 3, perToolCallMs: 40 }), { nil: undefined }),
        fc.constantFrom(plain, tiered),
        (t, strategy, cache, where, delta, brakes, budgetMode, latency, pricing) => {
          const options = { strategy, cache, pricing: pricing as ModelPricing, systemTokens: t.header.systemTokens, goalTokens: 0, ...(latency ? { latency } : {}) };
          const free = unbrakedRun(t, options);
          if (free.rows.length === 0) return;
          const config = atRunningTotals({ ...NO_BRAKES, budgetMode }, rowAt(free.rows, where), { delta, brakes });
          if (brakes.includes('time')) config.timeoutMs = Math.max(0, (free.elapsedMs * where) + delta);
          if (brakes.includes('repeat')) {
            config.maxRepeat = 2 + Math.floor(where * 6);
            config.repeatMode = delta < 0 ? 'total' : delta === 0 ? 'consecutive' : 'cycle';
          }
          if (brakes.includes('error')) {
            config.maxSameError = 1 + Math.floor(where * 4);
            config.sameErrorMode = delta < 0 ? 'total' : 'consecutive';
          }
          expectFastAgrees(t, options, config);
        },
      ),
      { numRuns: 400, seed: 7401 },
    );
  });

  it('one compiled trace replayed under many settings gives the same as compiling each time', () => {
    const [t] = fc.sample(longTraceArb, { seed: 7, numRuns: 1 });
    const compiled = compileTrace(t!);
    for (let steps = 1; steps < 120; steps += 7) {
      const config = { ...NO_BRAKES, maxSteps: steps, maxRepeat: 3 };
      expect(replayFast(compiled, config, { kind: 'full' }, 'off', flat)).toEqual(replayFast(compileTrace(t!), config, { kind: 'full' }, 'off', flat));
    }
  });
});

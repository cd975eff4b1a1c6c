/**
 * The fee per request (Perplexity's sonar: $12 per 1,000 requests) in the predictive bound, and only on a
 * billed call. A live loop knows the fee before the call, so `predict` prices it in the bound (kernel/cost.ts
 * predictiveBoundPico: one place, so the session, the compiled replay, a run table, the closed search and
 * `project`'s worst case per call all get it). A failed call with no usage (a 429, a 5xx) was not billed, so
 * pays no fee (kernel/meter.ts billedRequest); one with a recorded prompt (its usage, or the loop's estimate
 * of an attempt never read) pays it. Seeded.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import { predictiveBoundPico, summaryBoundPico } from '../../src/kernel/cost.js';
import { CacheWrites } from '../../src/kernel/cacheWrites.js';
import { brakeLimits } from '../../src/kernel/limits.js';
import { flattenPrices } from '../../src/kernel/prices.js';
import { largestCallPico } from '../../src/population/worstCase.js';
import type { ModelPricing } from '../../src/pricing/types.js';
import { replayTrace } from '../../src/replay/replay.js';
import type { CallRecord } from '../../src/trace/types.js';
import { call, handPriced, handTable, toolCall, trace } from '../helpers.js';

/** $12 per 1,000 requests (sonar's). */
const FEE_PICO = 12_000_000_000;
/** sonar's token prices ($1 / $1 per million), a 127k window, with and without its fee. */
const PLAIN = handPriced('feed', { input: 1, output: 1 }, 127_000);
const FEED: ModelPricing = { ...PLAIN, requestPico: FEE_PICO };
const ENGINES = ['readable', 'compiled'] as const;
const PREDICT = { ...NO_BRAKES, maxCostPico: 20_000_000_000, budgetMode: 'predict', maxOutputTokens: 100 } as BrakeConfig;

function replay(calls: CallRecord[], pricing: ModelPricing, options: { brakes?: BrakeConfig; engine: (typeof ENGINES)[number] }) {
  const t = trace(calls, { model: pricing.model, system: 6, goal: 4, origin: 'recorded', outcome: 'completed' });
  return replayTrace(t, { brakes: options.brakes ?? NO_BRAKES, strategy: { kind: 'full', cache: 'off' }, prices: handTable(pricing), engine: options.engine });
}

describe('the predictive bound holds the fee per request', () => {
  it('the bound, a summary call’s bound and the worst call `project` prices are each the fee above the tokens’', () => {
    const fee = flattenPrices(FEED);
    const plain = flattenPrices(PLAIN);
    for (const writes of [CacheWrites.None, CacheWrites.FiveMinutes, CacheWrites.MayLastAnHour]) {
      expect(predictiveBoundPico(fee, 1000, 100, writes) - predictiveBoundPico(plain, 1000, 100, writes)).toBe(FEE_PICO);
    }
    const limits = brakeLimits(PREDICT, fee.contextWindow);
    const size = { promptEstimate: 900, summaryTokens: 200, cacheWrites: CacheWrites.None };
    expect(summaryBoundPico(limits, { ...size, prices: fee }) - summaryBoundPico(limits, { ...size, prices: plain })).toBe(FEE_PICO);
    expect(largestCallPico(FEED, 700)! - largestCallPico(PLAIN, 700)!).toBe(FEE_PICO);
  });

  it('a $0.02 budget in predict mode stops a sonar run after its first call ($0.0121), by the bound, in both engines', () => {
    // /tmp/r4w/sonar.jsonl: the fee left out of the bound let the second call through ($0.0242, past the budget).
    const calls = [40, 90, 140].map((input, i) => call(i === 0 ? 30 : 20, [toolCall('read', { a: i }, 2)], { inputTokens: input }));
    for (const engine of ENGINES) {
      const r = replay(calls, FEED, { brakes: PREDICT, engine });
      expect([r.stopReason, r.stopByPredictiveBound, r.modelCalls, r.costPico]).toEqual(['budget', true, 1, 70 * 1_000_000 + FEE_PICO]);
    }
  });

  it('predict mode never passes the budget when no response outgrows --max-output-tokens and no prompt its estimate (seeded)', () => {
    const stepArb = fc.record({ out: fc.integer({ min: 0, max: 100 }), result: fc.integer({ min: 0, max: 3000 }) });
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 30 }), fc.integer({ min: 0, max: 300_000_000_000 }), (steps, maxCostPico) => {
        // No recorded prompt: each is the growth model's, which is the estimate the bound prices.
        const calls = steps.map((s, i) => call(s.out, [toolCall('t', { i }, s.result)]));
        const brakes = { ...PREDICT, maxCostPico } as BrakeConfig;
        for (const engine of ENGINES) expect(replay(calls, FEED, { brakes, engine }).costPico).toBeLessThanOrEqual(maxCostPico);
      }),
      { numRuns: 200, seed: 2323 },
    );
  });
});

describe('the fee per request is billed only on a billed call', () => {
  it('a 429 or 5xx with no usage pays none; a failed call with recorded usage or an estimate pays it', () => {
    const rateLimited = call(0, [], { failed: { status: 429, message: 'rate limited' } });
    const serverError = call(0, [], { failed: { status: 503, message: 'unavailable' } });
    const withUsage = call(0, [], { inputTokens: 40, failed: { status: 500, message: 'server error' } });
    const unread = call(0, [], { inputTokens: 45, failed: { message: 'timed out', estimated: true } });
    const answer = call(30, [], { inputTokens: 40, final: true });
    for (const engine of ENGINES) {
      // /tmp/r4w/sonarfail.jsonl: two 429s then the answer — $0.0121, not $0.0361.
      expect(replay([rateLimited, rateLimited, answer], FEED, { engine }).costPico).toBe(70 * 1_000_000 + FEE_PICO);
      const mixed = [rateLimited, serverError, withUsage, unread, answer];
      expect(replay(mixed, FEED, { engine }).costPico - replay(mixed, PLAIN, { engine }).costPico).toBe(3 * FEE_PICO);
    }
  });
});

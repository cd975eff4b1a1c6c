/**
 * A call's web searches (CallRecord.webSearchRequests) are billed per search on top of its tokens, through
 * the one cost rule (kernel/cost.ts requestFeesPico, added by the meter): the readable loop, the compiled
 * replay (per step, run table; a trace with searches takes no closed form, whose stretch sums hold tokens
 * only), replayTrace and the real loop driven by the trace bill them alike, and the budget brake counts a
 * call's fee once it returned, as its token cost. Seeded.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import { compileTrace } from '../../src/fast/compile.js';
import { billedCall } from '../../src/kernel/cost.js';
import { flattenPrices, replayFast } from '../../src/fast/replayFast.js';
import { sweepCompiled, sweepTotals } from '../../src/fast/sweep.js';
import { ReplaySource } from '../../src/loop/replaySource.js';
import { runLoop } from '../../src/loop/run.js';
import { PriceGapCheck, recordedCostCheck } from '../../src/pricing/recordedCost.js';
import type { ModelPricing } from '../../src/pricing/types.js';
import { replayTrace } from '../../src/replay/replay.js';
import type { CallRecord } from '../../src/trace/types.js';
import { brakesArb, callArb, pricings } from '../core/arbitraries.js';
import { figures, replayFigures, runTraceDriven } from '../agent/traceDriven.js';
import { engineCaseArb, expectEnginesAgree } from './enginesAgree.js';
import { call, figuresOf, handPriced, handTable, toolCall, trace } from '../helpers.js';

/** $10 per 1,000 searches. */
const SEARCH_PICO = 10_000_000_000;
/** The shared price lists, each with a web search fee. */
const feePricings: ModelPricing[] = pricings.map((p) => ({ ...p, webSearchPico: SEARCH_PICO }));

const withSearches = (calls: fc.Arbitrary<CallRecord>): fc.Arbitrary<CallRecord> =>
  fc.tuple(calls, fc.oneof({ arbitrary: fc.constant(0), weight: 2 }, { arbitrary: fc.integer({ min: 1, max: 4 }), weight: 1 })).map(([c, searches]) => (searches > 0 ? { ...c, webSearchRequests: searches } : c));

const caseArb = engineCaseArb(withSearches);

describe('web search fees: every engine = the readable loop (seeded)', () => {
  it('compiled replay and a run table under brakes = readable loop, fees in the cost', () => {
    let withFees = 0;
    fc.assert(
      fc.property(caseArb, ({ calls, system, outcome, brakes, strategy, cache, priceIndex }) => {
        const t = trace(calls, { system, outcome });
        const pricing = feePricings[priceIndex]!;
        const config = { ...NO_BRAKES, ...brakes } as BrakeConfig;
        const slow = expectEnginesAgree(t, { config, strategy, cache, pricing, system });
        // The fees are in: the same run priced without them costs its searches' fees less.
        const searches = calls.slice(0, slow.calls).reduce((sum, c) => sum + (c.webSearchRequests ?? 0), 0);
        const noFee = runLoop(new ReplaySource(t), { brakes: NO_BRAKES, strategy, cache, pricing: pricings[priceIndex]!, systemTokens: system, goalTokens: 0 });
        // A call its provider did not bill (failed with no usage) pays no searches (kernel/cost.ts callFeesPico).
        const all = calls.slice(0, noFee.calls).reduce((sum, c) => sum + (billedCall(c.failed !== undefined, c.inputTokens) ? (c.webSearchRequests ?? 0) : 0), 0);
        expect(runLoop(new ReplaySource(t), { brakes: NO_BRAKES, strategy, cache, pricing, systemTokens: system, goalTokens: 0 }).costPico - noFee.costPico).toBe(all * SEARCH_PICO);
        if (searches > 0) withFees += 1;
      }),
      { numRuns: 500, seed: 4242 },
    );
    expect(withFees, 'runs that paid a search').toBeGreaterThan(150);
  });

  it('the real loop driven by the trace = replay, fees in the cost and the budget', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(withSearches(callArb), { maxLength: 30 }), brakesArb, fc.constantFrom(...feePricings), async (calls, brakes, pricing) => {
        const t = trace(calls, { origin: 'recorded', model: pricing.model });
        const settings = { brakes: { ...NO_BRAKES, ...brakes } as BrakeConfig, strategy: { kind: 'full' as const, cache: 'recorded' as const }, pricing };
        expect(figures(await runTraceDriven(t, settings))).toEqual(replayFigures(t, settings));
      }),
      { numRuns: 200, seed: 4243 },
    );
  });
});

describe('the budget brake counts a call’s searches once it returned', () => {
  // Three steps of 1,000 output tokens at $0.60 a million ($0.0006 each) and 2 searches each ($0.02).
  const pricing = { ...handPriced('plain', { input: 0.15, output: 0.6 }, 30_000), webSearchPico: SEARCH_PICO };
  const calls = [0, 1, 2].map((i) => call(1000, [toolCall('search', { i }, 10)], { inputTokens: 100, webSearchRequests: 2 }));
  const t = trace([...calls, call(10, undefined, { inputTokens: 100, final: true })], { model: 'plain', origin: 'recorded', outcome: 'completed' });
  // $0.03: the tokens of every call fit it many times over; the first call's fees ($0.02) and the second's pass it.
  const brakes = { ...NO_BRAKES, maxCostPico: 30_000_000_000 } as BrakeConfig;

  it('stops before the third call in every engine (tokens alone would complete the run)', async () => {
    const options = { brakes, strategy: { kind: 'full' as const, cache: 'recorded' as const }, pricing, prices: handTable(pricing) };
    const readable = runLoop(new ReplaySource(t), { brakes, strategy: { kind: 'full' }, cache: 'recorded', pricing, systemTokens: 100, goalTokens: 0 });
    expect([readable.stop.reason, readable.calls]).toEqual(['budget', 2]);
    expect(readable.costPico).toBe(2 * (1000 * 600_000 + 100 * 150_000) + 4 * SEARCH_PICO);
    expect(replayFast(compileTrace(t), brakes, { kind: 'full' }, 'recorded', flattenPrices(pricing))).toEqual(figuresOf(readable));
    for (const engine of ['compiled', 'compiled', 'readable'] as const) {
      const run = replayTrace(t, { ...options, engine });
      expect([run.stopReason, run.modelCalls, run.costPico]).toEqual(['budget', 2, readable.costPico]);
    }
    const real = figures(await runTraceDriven(t, { brakes, strategy: { kind: 'full', cache: 'recorded' }, pricing }));
    expect([real.stopReason, real.calls, real.costPico]).toEqual(['budget', 2, readable.costPico]);
    const tokensOnly = runLoop(new ReplaySource(t), { brakes, strategy: { kind: 'full' }, cache: 'recorded', pricing: { ...pricing, webSearchPico: undefined }, systemTokens: 100, goalTokens: 0 });
    expect(tokensOnly.stop.reason).toBe('completed');
  });

  it('a sweep of budgets stops each cell where the compiled replay does: $0.01 after the first call, $0.03 after the second, $0.05 after the third', () => {
    const compiled = compileTrace(t);
    const prices = flattenPrices(pricing);
    const budgets = [10_000_000_000, 30_000_000_000, 50_000_000_000, undefined];
    const swept = sweepCompiled([{ compiled, prices, cache: 'recorded' }], { brakes: NO_BRAKES, strategy: { kind: 'full' }, axes: [{ name: 'max-cost', values: budgets.map((maxCostPico) => ({ brakes: { maxCostPico } })) }] });
    const cells = swept.cells.map((cell, c) => {
      const totals = sweepTotals(swept, 0, c);
      expect(totals).toEqual(replayFast(compiled, cell.brakes, { kind: 'full' }, 'recorded', prices));
      return [totals.reason, totals.calls];
    });
    expect(cells).toEqual([['budget', 1], ['budget', 2], ['budget', 3], ['completed', 4]]);
  });
});

describe('a recorded cost that includes the search fees is no price gap', () => {
  it('the table’s price of the calls as recorded holds their searches, as the provider’s bill does', () => {
    const pricing = { ...handPriced('plain', { input: 0.15, output: 0.6 }, 30_000), webSearchPico: SEARCH_PICO };
    // Billed: 1,000 prompt tokens ($0.00015), 100 output ($0.00006), 3 searches ($0.03).
    const billed = call(100, undefined, { inputTokens: 1000, webSearchRequests: 3, recordedCostUsd: 0.03021, final: true });
    const check = recordedCostCheck(trace([billed], { model: 'plain', origin: 'recorded' }), pricing)!;
    expect(check).toEqual({ computedPico: 30_210_000_000, recordedPico: 30_210_000_000 });
    const gaps = new PriceGapCheck();
    gaps.addCheck('plain', check);
    expect(gaps.gaps(0.01)).toEqual([]);
  });
});

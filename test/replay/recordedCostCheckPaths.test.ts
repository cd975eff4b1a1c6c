/**
 * The price-gap check's comparison of a run's recorded cost with its price at the table (all calls recorded
 * a cost / the run's end total / only some calls: over those that did) is one rule (recordedCostOfCalls,
 * src/pricing/recordedCost.ts), fed by the readable path from the calls and by the compiled path from the
 * compiled trace. On random runs (seeded) — calls with and without a recorded cost or prompt size, failed
 * ones, searches, some runs ending in a refused call, some with an end total, at prices with and without
 * request and search fees — both paths give the same check.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { recordedCostCheck } from '../../src/pricing/recordedCost.js';
import type { ModelPricing } from '../../src/pricing/types.js';
import { servedFromCache as served } from '../cache/servedTrace.js';
import { recordedCostCheckOf } from '../../src/replay/runFacts.js';
import type { CallRecord, Trace } from '../../src/trace/types.js';
import { pricings } from '../core/arbitraries.js';

/** The shared price lists, as they are and with a search fee ($10 per 1,000) and a request fee ($0.005 a call). */
const allPricings: ModelPricing[] = [
  ...pricings,
  ...pricings.map((p) => ({ ...p, webSearchPico: 10_000_000_000 })),
  ...pricings.map((p) => ({ ...p, requestPico: 5_000_000_000 })),
];

const callArb: fc.Arbitrary<CallRecord> = fc
  .record({
    output: fc.integer({ min: 0, max: 2000 }),
    reasoning: fc.integer({ min: 0, max: 3000 }),
    prompt: fc.option(fc.record({ input: fc.integer({ min: 0, max: 60_000 }), cached: fc.integer({ min: 0, max: 30_000 }), write: fc.integer({ min: 0, max: 5000 }), write1h: fc.integer({ min: 0, max: 500 }) }), { nil: undefined }),
    failed: fc.boolean(),
    costMicroUsd: fc.option(fc.integer({ min: 0, max: 80_000 }), { nil: undefined }),
    searches: fc.oneof({ arbitrary: fc.constant(0), weight: 3 }, { arbitrary: fc.integer({ min: 1, max: 4 }), weight: 1 }),
  })
  .map(({ output, reasoning, prompt, failed, costMicroUsd, searches }): CallRecord => {
    const call: CallRecord = { type: 'call', outputTokens: output, reasoningTokens: Math.min(reasoning, output) };
    if (prompt !== undefined) {
      call.inputTokens = prompt.input;
      call.cachedInputTokens = Math.min(prompt.cached, prompt.input);
      call.cacheWriteTokens = Math.min(prompt.write, prompt.input - call.cachedInputTokens);
      call.cacheWrite1hTokens = Math.min(prompt.write1h, prompt.input - call.cachedInputTokens - call.cacheWriteTokens);
    }
    // A failed call without a prompt size is priced as billed for none (recordedUsage); it often records no cost.
    if (failed) call.failed = { status: 500, message: 'server error' };
    if (costMicroUsd !== undefined) call.recordedCostUsd = costMicroUsd / 1e6;
    if (searches > 0) call.webSearchRequests = searches;
    return call;
  });

const runArb: fc.Arbitrary<Trace> = fc
  .record({
    calls: fc.array(callArb, { maxLength: 25 }),
    // Runs where every call recorded its prompt, or its cost, or both: the branches before the partial one.
    everyPrompt: fc.boolean(),
    everyCost: fc.boolean(),
    // A run that ends in its provider's refusal of a call past the window (no usage, no cost: compiled without it).
    refused: fc.boolean(),
    endMicroUsd: fc.option(fc.integer({ min: 0, max: 900_000 }), { nil: undefined }),
  })
  .map(({ calls, everyPrompt, everyCost, refused, endMicroUsd }): Trace => {
    const made = calls.map((call, i): CallRecord => ({
      ...call,
      ...(everyPrompt && call.inputTokens === undefined ? { inputTokens: 1000 + i } : {}),
      ...(everyCost && call.recordedCostUsd === undefined ? { recordedCostUsd: (i + 1) / 1e5 } : {}),
    }));
    const refusal = { type: 'call', outputTokens: 0, failed: { status: 400, message: 'too long', contextLengthExceeded: { promptTokens: 200_000 } } } as CallRecord;
    return {
      source: 'random#1',
      header: { type: 'header', schema: 'loopcost.trace/1', model: 'gpt-4o-mini', systemTokens: 1000, goalTokens: 200 } as Trace['header'],
      calls: refused ? [...made, refusal] : made,
      end: { type: 'end', outcome: refused ? 'error' : 'completed', ...(endMicroUsd === undefined ? {} : { recordedCostUsd: endMicroUsd / 1e6 }) } as Trace['end'],
    };
  });

describe('the recorded-cost check, readable and compiled', () => {
  it('is the same check on random runs (seeded)', () => {
    const seen = { none: 0, calls: 0, total: 0, partial: 0 };
    fc.assert(
      fc.property(runArb, (trace) => {
        const stub = served(trace);
        for (const pricing of allPricings) {
          const readable = recordedCostCheck(trace, pricing);
          expect(recordedCostCheckOf(stub, pricing), pricing.model).toEqual(readable);
          if (pricing !== allPricings[0]) continue;
          if (readable === undefined) seen.none++;
          else if (readable.comparedCalls !== undefined) seen.partial++;
          else if (trace.end.recordedCostUsd !== undefined && readable.recordedPico === Math.round(trace.end.recordedCostUsd * 1e12)) seen.total++;
          else seen.calls++;
        }
      }),
      { numRuns: 500, seed: 2302 },
    );
    // Every branch of the rule is reached.
    for (const count of Object.values(seen)) expect(count).toBeGreaterThan(5);
  });

  it('prices a refused call nothing, as a replay pays it, at prices with a request fee', () => {
    const pricing = { ...pricings[0]!, requestPico: 5_000_000_000 };
    // 1,000 prompt tokens at $0.15/M and 100 output at $0.60/M, plus the $0.005 request fee: $0.00521.
    const billed: CallRecord = { type: 'call', outputTokens: 100, inputTokens: 1000 };
    const refusal = { type: 'call', outputTokens: 0, failed: { status: 400, message: 'too long', contextLengthExceeded: {} } } as CallRecord;
    const trace = { source: 'refused', header: { type: 'header', schema: 'loopcost.trace/1', model: 'plain', systemTokens: 500, goalTokens: 100 }, calls: [billed, refusal], end: { type: 'end', outcome: 'error', recordedCostUsd: 0.00521 } } as Trace;
    expect(recordedCostCheck(trace, pricing)).toEqual({ computedPico: 5_210_000_000, recordedPico: 5_210_000_000 });
    expect(recordedCostCheckOf(served(trace), pricing)).toEqual({ computedPico: 5_210_000_000, recordedPico: 5_210_000_000 });
  });
});

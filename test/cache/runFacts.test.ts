/**
 * A run served from the compiled-trace cache has no calls at hand: its recorded figures (call count,
 * recorded prompt sizes, recorded cost, the table's price of the calls as recorded) are read from its
 * compiled trace (src/replay/runFacts.ts). On random runs (seeded) they equal what the calls give.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { recordedCostCheck } from '../../src/pricing/recordedCost.js';
import { servedFromCache as served } from './servedTrace.js';
import { hasRecordedInput, recordedCallCount, recordedCallsCostPico, recordedCostCheckOf } from '../../src/replay/runFacts.js';
import { defaultCacheMode } from '../../src/replay/replay.js';
import type { CallRecord, Trace } from '../../src/trace/types.js';
import { callArb, pricings } from '../core/arbitraries.js';

const traceArb = fc
  .record({
    calls: fc.array(
      fc.record({ call: callArb, cost: fc.option(fc.integer({ min: 0, max: 50_000 }), { freq: 1, nil: undefined }), noInput: fc.boolean() }).map(({ call, cost, noInput }): CallRecord => {
        const c: CallRecord = cost === undefined ? { ...call } : { ...call, recordedCostUsd: cost / 1e6 };
        // Some calls without a recorded prompt, so that every run mixes them.
        if (noInput) {
          delete c.inputTokens;
          delete c.cachedInputTokens;
          delete c.cacheWriteTokens;
          delete c.cacheWrite1hTokens;
        }
        return c;
      }),
      { maxLength: 30 },
    ),
    everyCost: fc.boolean(),
    runCostUsd: fc.option(fc.integer({ min: 0, max: 90_000 }), { nil: undefined }),
    // Some runs end in their provider's refusal of a call past the window (no usage, no cost: compiled without it).
    refused: fc.boolean(),
  })
  .map(({ calls, everyCost, runCostUsd, refused }): Trace => ({
    source: 'random#1',
    header: { type: 'header', schema: 'loopcost.trace/1', model: 'gpt-4o-mini', systemTokens: 1000, goalTokens: 200 } as Trace['header'],
    calls: [
      ...(everyCost ? calls.map((call, i) => ({ ...call, recordedCostUsd: call.recordedCostUsd ?? i / 1e5 })) : calls),
      ...(refused ? [{ type: 'call', outputTokens: 0, failed: { status: 400, message: 'too long', contextLengthExceeded: {} } } as CallRecord] : []),
    ],
    end: { type: 'end', outcome: 'completed', ...(runCostUsd === undefined ? {} : { recordedCostUsd: runCostUsd / 1e6 }) } as Trace['end'],
  }));

describe('run facts from a compiled trace', () => {
  it('equal the facts the calls give (seeded)', () => {
    fc.assert(
      fc.property(traceArb, (trace) => {
        const stub = served(trace);
        expect(recordedCallCount(stub)).toBe(trace.calls.length);
        expect(hasRecordedInput(stub)).toBe(trace.calls.some((call) => call.inputTokens !== undefined));
        expect(defaultCacheMode(stub)).toBe(defaultCacheMode(trace));
        expect(recordedCallsCostPico(stub)).toBe(recordedCallsCostPico(trace));
        for (const pricing of pricings) expect(recordedCostCheckOf(stub, pricing)).toEqual(recordedCostCheck(trace, pricing));
      }),
      { numRuns: 400, seed: 7708 },
    );
  });
});

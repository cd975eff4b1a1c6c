/**
 * The per-call $9,007 check (kernel/callPastExact.ts) counts a call's cost as the meter bills it: its
 * tokens and its request fees (web searches, kernel/cost.ts requestFeesPico). A call whose searches take it
 * past $9,007 is named by its line and `webSearchRequests` (its searches said as searches), by both engines,
 * not as a run to bound with brakes; one within it, with its tokens, is none.
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { CallField, CallFlag } from '../../src/kernel/callRecord.js';
import { callPastExact } from '../../src/kernel/callPastExact.js';
import { flattenPrices } from '../../src/kernel/prices.js';
import { replayTrace } from '../../src/replay/replay.js';
import { parseNativeTraces } from '../../src/trace/parseNative.js';
import { handTable, MINI, userErrorOf } from '../helpers.js';

/** mini ($0.15 a million prompt tokens, $0.6 output) with $10 per 1,000 web searches: 900,000 searches are $9,000. */
const SEARCHING = { ...MINI, webSearchPico: 10_000_000_000 };
const PRICES = flattenPrices(SEARCHING);

function record(figures: { input: number; output: number; searches: number }): Float64Array {
  const r = new Float64Array(CallField.Size);
  r[CallField.Output] = figures.output;
  r[CallField.RecordedInput] = figures.input;
  r[CallField.Flags] = CallFlag.RecordedInput;
  r[CallField.WebSearches] = figures.searches;
  return r;
}

describe('callPastExact counts a call’s request fees', () => {
  it('searches past $9,007 on their own, or with the tokens: named by webSearchRequests; within it: none', () => {
    expect(callPastExact(PRICES, record({ input: 100, output: 5, searches: 1_000_000 }), 0)).toEqual({ field: 'webSearchRequests', searches: 1_000_000 });
    // $9,000 of searches and $12 of output: past, the searches billed the most.
    expect(callPastExact(PRICES, record({ input: 100, output: 20_000_000, searches: 900_000 }), 0)).toEqual({ field: 'webSearchRequests', searches: 900_000 });
    // $9,000 of searches and $0.60 of output: within.
    expect(callPastExact(PRICES, record({ input: 100, output: 1_000_000, searches: 900_000 }), 0)).toBeUndefined();
    // $6,000 of output and $6,000 of searches: past, the output billed the most... by a token's worth.
    expect(callPastExact(PRICES, record({ input: 0, output: 10_000_000_001, searches: 600_000 }), 0)).toEqual({ field: 'outputTokens', tokens: 10_000_000_001 });
  });

  it('replay names the call by its line and field, its searches said as searches, on both engines', () => {
    const header = '{"type":"header","schema":"loopcost.trace/1","model":"mini","systemTokens":10,"goalTokens":5}';
    const step = (searches: number, i: number) => `{"type":"call","inputTokens":${100 + i},"outputTokens":5,"webSearchRequests":${searches},"toolCalls":[{"name":"t","arguments":{"i":${i}},"resultTokens":3}]}`;
    const [t] = parseNativeTraces([header, step(1, 0), step(1_000_000, 1), step(2, 2), '{"type":"end","outcome":"completed"}'].join('\n'), 'searches.jsonl');
    for (const engine of ['compiled', 'readable'] as const) {
      const issues = userErrorOf(() => replayTrace(t!, { brakes: { ...NO_BRAKES, maxSteps: 2 }, strategy: { kind: 'full' }, prices: handTable(SEARCHING), engine })).issues;
      expect(issues, engine).toEqual([
        {
          file: 'searches.jsonl',
          line: 3,
          field: 'webSearchRequests',
          code: 'cost_out_of_range',
          message: 'one call costs more than $9,007 on its own (1,000,000 web searches), beyond exact picodollar arithmetic; the figure looks corrupted',
          hint: "no brake can bound a single call: correct the figure (or the model's prices), or leave the call out",
        },
      ]);
    }
  });
});

/**
 * A run whose closed form makes the trace's last call reaches the trace's ending from there (the
 * per-step loop's look at the end: the brakes before a call on the prompt a next call would send, then
 * the recorded ending). Held equal here to the readable loop on recorded traces that run out (no final
 * answer), replayed with the cache as recorded under full history and windows, with the brakes a run
 * can still meet at the trace's end (cost, tokens, steps, context window) set at the run's totals ± 1.
 * (A shortcut to the ending that skips the loop's set-up was measured ~3% faster on the 38 real runs
 * under window:8 — within this machine's noise — and is not in: docs/fast-path.md, "Levers left".)
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import { recordedFormStats } from '../../src/fast/recordedForm.js';
import type { CallRecord } from '../../src/trace/types.js';
import { handPriced } from '../helpers.js';
import { atRunningTotals, expectFastAgrees, seededTrace, seededTraceArb, unbrakedRun } from './recordedTraces.js';

const pricing = handPriced('d', { input: 0.28, output: 0.42, cached: 0.028 }, 131_072);

/** A recorded run that ends without a final call: the prompt the growth model's plus an overhead, mostly cached. */
const ranOutArb = seededTraceArb(fc.integer({ min: 3, max: 120 }), {
  system: fc.integer({ min: 0, max: 3000 }),
  outcome: fc.constantFrom('completed' as const, 'unknown' as const),
}).map(({ n, seed, system, outcome }) =>
  seededTrace({ n, seed, header: { system, outcome, origin: 'recorded' } }, ({ next, history, previousPrompt }) => {
    const output = 10 + next(400);
    const prompt = system + history + next(900);
    const call: CallRecord = { type: 'call', outputTokens: output, latencyMs: 200 + next(5000), inputTokens: prompt, cachedInputTokens: Math.min(prompt, Math.max(0, previousPrompt - next(200))) };
    call.toolCalls = [{ name: 'run', arguments: { f: next(400) }, resultTokens: next(1500), latencyMs: next(400) }];
    return call;
  }),
);

const strategyArb = fc.constantFrom<ContextStrategy>({ kind: 'full' }, { kind: 'window', windowSteps: 1 }, { kind: 'window', windowSteps: 8 }, { kind: 'window', windowSteps: 20 });

describe('a trace that runs out after a closed form = readable path', () => {
  it('agrees at the trace end, each brake at the run total ± 1', () => {
    let closedToTheEnd = 0;
    fc.assert(
      fc.property(
        ranOutArb,
        strategyArb,
        fc.constantFrom(-1, 0, 1),
        fc.subarray(['cost', 'tokens', 'steps', 'window'] as const),
        (t, strategy, delta, brakes) => {
          const options = { strategy, cache: 'recorded' as const, pricing, systemTokens: t.header.systemTokens, goalTokens: 0 };
          const free = unbrakedRun(t, options);
          const last = free.rows[free.rows.length - 1]!;
          const totals = { cumulativeCostPico: free.costPico, cumulativeInputTokens: free.inputTokens, cumulativeOutputTokens: free.outputTokens, step: t.calls.length, inputTokens: last.inputTokens };
          const config = atRunningTotals({ ...NO_BRAKES, contextWindow: 'model' }, totals, { delta, brakes });
          const before = recordedFormStats.full + recordedFormStats.filling + recordedFormStats.window;
          expectFastAgrees(t, options, config);
          if (recordedFormStats.full + recordedFormStats.filling + recordedFormStats.window - before === t.calls.length) closedToTheEnd++;
        },
      ),
      { numRuns: 600, seed: 20261203 },
    );
    // Runs whose every call went in closed form, so the ending was reached from the trace's end.
    expect(closedToTheEnd).toBeGreaterThan(100);
  });
});

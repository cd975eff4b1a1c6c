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
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import { compileTrace } from '../../src/fast/compile.js';
import { recordedFormStats } from '../../src/fast/recordedForm.js';
import { flattenPrices, replayFast } from '../../src/fast/replayFast.js';
import { runLoop } from '../../src/loop/run.js';
import { ReplaySource } from '../../src/loop/replaySource.js';
import type { CallRecord } from '../../src/trace/types.js';
import { figuresOf, handPriced, trace, lcg } from '../helpers.js';

const pricing = handPriced('d', { input: 0.28, output: 0.42, cached: 0.028 }, 131_072);

/** A recorded run that ends without a final call: the prompt the growth model's plus an overhead, mostly cached. */
const ranOutArb = fc
  .record({
    n: fc.integer({ min: 3, max: 120 }),
    seed: fc.integer({ min: 1, max: 2 ** 30 }),
    system: fc.integer({ min: 0, max: 3000 }),
    outcome: fc.constantFrom('completed' as const, 'unknown' as const),
  })
  .map(({ n, seed, system, outcome }) => {
    const next = lcg(seed);
    const calls: CallRecord[] = [];
    let history = 0;
    let previousPrompt = 0;
    for (let i = 0; i < n; i++) {
      const output = 10 + next(400);
      const prompt = system + history + next(900);
      const call: CallRecord = { type: 'call', outputTokens: output, latencyMs: 200 + next(5000), inputTokens: prompt, cachedInputTokens: Math.min(prompt, Math.max(0, previousPrompt - next(200))) };
      call.toolCalls = [{ name: 'run', arguments: { f: next(400) }, resultTokens: next(1500), latencyMs: next(400) }];
      history += output + call.toolCalls[0]!.resultTokens;
      previousPrompt = prompt;
      calls.push(call);
    }
    return trace(calls, { system, outcome, origin: 'recorded' });
  });

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
          const free = runLoop(new ReplaySource(t), { ...options, brakes: NO_BRAKES, keepSteps: true });
          const last = free.rows[free.rows.length - 1]!;
          const config: BrakeConfig = { ...NO_BRAKES, contextWindow: 'model' };
          if (brakes.includes('cost')) config.maxCostPico = Math.max(0, free.costPico + delta);
          if (brakes.includes('tokens')) config.maxTokens = Math.max(1, free.inputTokens + free.outputTokens + delta);
          if (brakes.includes('steps')) config.maxSteps = Math.max(1, t.calls.length + delta);
          if (brakes.includes('window')) config.contextWindow = Math.max(1, last.inputTokens + delta);
          const slow = runLoop(new ReplaySource(t), { ...options, brakes: config });
          const before = recordedFormStats.full + recordedFormStats.filling + recordedFormStats.window;
          const fast = replayFast(compileTrace(t), config, strategy, 'recorded', flattenPrices(pricing));
          expect(fast).toEqual(figuresOf(slow));
          if (recordedFormStats.full + recordedFormStats.filling + recordedFormStats.window - before === t.calls.length) closedToTheEnd++;
        },
      ),
      { numRuns: 600, seed: 20261203 },
    );
    // Runs whose every call went in closed form, so the ending was reached from the trace's end.
    expect(closedToTheEnd).toBeGreaterThan(100);
  });
});

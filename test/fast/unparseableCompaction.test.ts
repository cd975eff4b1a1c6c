/**
 * A compaction call recorded `unparseable` replaced nothing when the run made it (a live loop's empty
 * summary), so the compiled replay keeps the steps too — the rule is the kernel's (kernel/compaction.ts
 * `compacts`), as the readable loop's (test/replay/unparseableCompaction.test.ts, the same trace): the
 * per-step loop, a stepwise strategy, and the growth model a compiled trace holds.
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import { FULL_HISTORY, type ContextStrategy } from '../../src/context/strategy.js';
import { compileTrace } from '../../src/fast/compile.js';
import { flattenPrices, replayCompiled, replayFast } from '../../src/fast/replayFast.js';
import { runOutcomeOf } from '../../src/fast/runState.js';
import { runSettings } from '../../src/fast/settings.js';
import { brakeLimits } from '../../src/kernel/limits.js';
import { call, handPriced, toolCall, trace } from '../helpers.js';

const PRICES = flattenPrices(handPriced('m', { input: 1, output: 2, cached: 0.1 }, 1_000_000));
const step = (i: number, inputTokens: number) => call(100, [toolCall('read', { i }, 900)], { inputTokens });
// System 500 + goal 100; four 1,000-token steps; the compaction (billed 8,600) answered 12 tokens no one could use.
const TRACE = trace(
  [step(0, 2600), step(1, 4100), step(2, 5600), step(3, 7100), call(12, undefined, { inputTokens: 8600, compaction: true, unparseable: true }), step(5, 8100), call(100, undefined, { inputTokens: 9600 })],
  { system: 500, goal: 100, outcome: 'completed', origin: 'recorded', model: 'm' },
);

const compiled = (brakes: BrakeConfig, strategy: ContextStrategy = FULL_HISTORY) => replayFast(compileTrace(TRACE), brakes, strategy, 'recorded', PRICES);

describe('an unparseable compaction replaces nothing in the compiled replay', () => {
  it('full history: the context-window brake sees the kept steps (8,600 tokens next) and stops before the call after it', () => {
    expect(compiled({ ...NO_BRAKES, contextWindow: 8200 })).toMatchObject({ reason: 'context_overflow', calls: 5 });
    // The answer's prompt: 5,600 + the 3,500 the step after the compaction was billed beyond its 4,600.
    expect(compiled({ ...NO_BRAKES, contextWindow: 9099 })).toMatchObject({ reason: 'context_overflow', calls: 6 });
    expect(compiled({ ...NO_BRAKES, contextWindow: 9100 })).toMatchObject({ reason: 'completed', calls: 7 });
  });

  it('a window drops the steps before it after the compaction too; a summary strategy summarises again', () => {
    expect(compiled(NO_BRAKES, { kind: 'window', windowSteps: 2 }).inputTokens).toBe(2600 + 4100 + 5600 + 6100 + 6600 + 6100 + 6600);
    const summarised = compiled(NO_BRAKES, { kind: 'summary', summary: { triggerTokens: 6000, keepSteps: 1, summaryTokens: 200 } });
    expect(summarised).toMatchObject({ reason: 'completed', calls: 10, steps: 6, summaryCalls: 3 });
    expect(summarised.inputTokens).toBe(2600 + 4100 + 5600 + 6600 + 5300 + 6300 + 5800 + 5300 + 6300 + 5800);
  });

  it('the growth model keeps the steps: the recorded − model delta after it is 8,100 − 4,600 and 9,600 − 5,600', () => {
    const t = compileTrace(TRACE);
    const limits = brakeLimits(NO_BRAKES, PRICES.contextWindow);
    const outcome = runOutcomeOf(t, replayCompiled(t, runSettings(FULL_HISTORY, 'recorded'), limits, PRICES, false), limits);
    // 2,000 + 2,500 + 3,000 + 3,500 at the steps, 4,000 at the compaction, then 3,500 and 4,000 (a compaction
    // that compacted shrank the model to 612 and 1,612: 7,488 and 7,988).
    expect(outcome.recordedInputDelta).toBe(2000 + 2500 + 3000 + 3500 + 4000 + 3500 + 4000);
  });
});

/**
 * A recorded compaction call replaces the context's history with its output (kernel/compaction.ts): the
 * next prompt's estimate (predictive budget, context window, summary trigger) is system + goal + the
 * compaction's output + the conversation's framing, not the compaction's own prompt; strategies rewrite
 * the prompts after it from the compacted context; the readable loop and the compiled replay agree.
 *
 * The trace: system 500 + goal 100; four steps of 1,000 tokens (100 out, a 900-token result), billed
 * 2,000 tokens of framing beyond the context at the first call and 500 more per step after (what the
 * growth model misses); a compaction billed 8,600 (the context's 4,600 + 4,000), 300 tokens out; then
 * the next prompt is billed 3,000 (system + goal + summary + framing + 100), a step, and an answer.
 */
import { describe, expect, it } from 'vitest';
import { estimatesAfterCalls } from '../loop/estimatesAfterCalls.js';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import { FULL_HISTORY, type CacheMode, type ContextStrategy } from '../../src/context/strategy.js';
import { compileTrace } from '../../src/fast/compile.js';
import { flattenPrices, replayCompiled, replayFast } from '../../src/fast/replayFast.js';
import { outcomeOf, runOutcomeOf } from '../../src/fast/runState.js';
import { runSettings } from '../../src/fast/settings.js';
import { brakeLimits } from '../../src/kernel/limits.js';
import { LoopSession } from '../../src/loop/session.js';
import { runLoop } from '../../src/loop/run.js';
import { ReplaySource } from '../../src/loop/replaySource.js';
import { usdToPico } from '../../src/money.js';
import type { LoopOptions } from '../../src/loop/types.js';
import { call, figuresOf, handPriced, toolCall, trace } from '../helpers.js';

// $1 per million input tokens, $2 per million output: a bound is its prompt estimate in µ$ plus 4,096 × 2 µ$.
const PRICING = handPriced('m', { input: 1, output: 2, cached: 0.1 }, 1_000_000);
const step = (i: number, inputTokens: number) => call(100, [toolCall('read', { i }, 900)], { inputTokens });
const CALLS = [
  step(0, 2600),
  step(1, 4100),
  step(2, 5600),
  step(3, 7100),
  call(300, undefined, { inputTokens: 8600, compaction: true }),
  step(5, 3000),
  call(100, undefined, { inputTokens: 4100 }),
];
const TRACE = trace(CALLS, { system: 500, goal: 100, outcome: 'completed', origin: 'recorded', model: 'm' });
// Calls 0–4 cost $0.0294 (their prompts at $1/M, outputs at $2/M); call 5 $0.0032, call 6 $0.0043.
const BEFORE_CALL_5 = usdToPico(0.0294);

function options(brakes: BrakeConfig, strategy: ContextStrategy = FULL_HISTORY, cache: CacheMode = 'recorded'): LoopOptions {
  return { brakes, strategy, cache, pricing: PRICING, systemTokens: 500, goalTokens: 100 };
}

/** The readable loop, and the compiled replay (first replay; then a run table) held equal to it. */
function replayed(brakes: BrakeConfig, strategy: ContextStrategy = FULL_HISTORY, cache: CacheMode = 'recorded') {
  const slow = runLoop(new ReplaySource(TRACE), options(brakes, strategy, cache));
  const compiled = compileTrace(TRACE);
  const prices = flattenPrices(PRICING);
  expect(replayFast(compiled, brakes, strategy, cache, prices)).toEqual(figuresOf(slow));
  const limits = brakeLimits(brakes, prices.contextWindow);
  const settings = runSettings(strategy, cache);
  for (let i = 0; i < 3; i++) {
    const fast = outcomeOf(compiled, replayCompiled(compiled, settings, limits, prices), limits);
    expect(fast).toEqual(figuresOf(slow));
  }
  // The recorded − growth-model delta: the compiled growth model shrinks at the compaction too.
  const outcome = runOutcomeOf(compiled, replayCompiled(compiled, settings, limits, prices, false), limits);
  expect([outcome.recordedInputDelta, outcome.stop]).toEqual([slow.recordedInputDelta, slow.stop]);
  return slow;
}

describe('after a recorded compaction the context holds system + goal + its output', () => {
  it('the next prompt is estimated as 600 + 300 + the 2,000 framing = 2,900 tokens (the compaction\'s own prompt was 8,600)', () => {
    const session = new LoopSession(options(NO_BRAKES));
    const source = new ReplaySource(TRACE);
    const estimates = estimatesAfterCalls(session, source, 6);
    // After each call: the view plus what that call was billed beyond it; after the compaction, its
    // output beside system + goal and the framing the first call showed; then as billed again.
    expect(estimates).toEqual([1600 + 2000, 2600 + 2500, 3600 + 3000, 4600 + 3500, 900 + 2000, 1900 + 2100]);
    expect(session.prompt()).toMatchObject({ inputTokens: 1900, fullInputTokens: 1900, historySteps: 1, firstKeptStep: 0 });
  });

  it('a predictive budget lets the call after it through: bounded on 2,900 tokens, not 8,600, and the run completes', () => {
    // $0.045: calls 0–4 spent $0.0294; call 5's bound is $0.002900 + $0.008192 (fits), on 8,600 tokens
    // it would be $0.016792 (past the limit: the call was refused).
    const run = replayed({ ...NO_BRAKES, maxCostPico: usdToPico(0.045), budgetMode: 'predict' });
    expect(run.stop.reason).toBe('completed');
    expect(run.calls).toBe(7);
    expect(run.costPico).toBe(BEFORE_CALL_5 + usdToPico(0.0032) + usdToPico(0.0043));
    // Just below call 5's bound on its estimate: refused there, the bound naming the 2,900-token prompt.
    const tight = replayed({ ...NO_BRAKES, maxCostPico: BEFORE_CALL_5 + usdToPico(0.011092) - 1, budgetMode: 'predict' });
    expect(tight.stop.reason).toBe('budget');
    expect(tight.calls).toBe(5);
    expect(tight.stop.detail).toContain('(up to $0.011092: 2900-token prompt + 4096 output tokens)');
  });

  it('the context-window brake compares the same estimate: a window of 8,200 lets the calls after it through', () => {
    // The compaction's own estimate is 8,100 (4,600 + 3,500): under the window. The prompt after it was
    // estimated 8,600 and refused ("next prompt holds 8600 tokens").
    expect(replayed({ ...NO_BRAKES, contextWindow: 8200 }).stop.reason).toBe('completed');
    const after = replayed({ ...NO_BRAKES, contextWindow: 8100 });
    expect(after.stop.reason).toBe('completed');
    const refused = replayed({ ...NO_BRAKES, contextWindow: 8099 });
    expect(refused.calls).toBe(4);
    expect(refused.stop.detail).toContain('next prompt holds 8100 tokens');
  });

  it('full history bills the prompts as recorded; a window bills the prompts after it from the compacted context', () => {
    const full = replayed(NO_BRAKES);
    expect(full.inputTokens).toBe(2600 + 4100 + 5600 + 7100 + 8600 + 3000 + 4100);
    // Recorded − growth model: 2,000 + 2,500 + 3,000 + 3,500 + 4,000, then 3,000 − 900 and 4,100 − 1,900
    // (the growth model shrinks with the context; it was −1,600 and −1,500 against the history replaced).
    expect(full.recordedInputDelta).toBe(19_300);
    // window:2 drops steps only before the compaction (calls 3 and 4: 1,000 and 2,000 tokens less); after
    // it, the window holds all the compacted context does: the prompts as recorded (they were billed
    // 1,000 and 1,100, moved by the steps the compaction had already replaced).
    const window = replayed(NO_BRAKES, { kind: 'window', windowSteps: 2 });
    expect(window.inputTokens).toBe(2600 + 4100 + 5600 + 6100 + 6600 + 3000 + 4100);
  });

  it('strategies that rewrite history and the cache on agree between both kernels across the compaction', () => {
    const strategies: ContextStrategy[] = [
      { kind: 'mask', maskSteps: 1 },
      { kind: 'summary', summary: { triggerTokens: 4000, keepSteps: 1, summaryTokens: 200 } },
      { kind: 'hybrid', maskSteps: 1, summary: { triggerTokens: 4000, keepSteps: 1, summaryTokens: 200 } },
      { kind: 'window', windowSteps: 1 },
      FULL_HISTORY,
    ];
    for (const strategy of strategies) {
      for (const cache of ['on', 'off', 'recorded'] as const) {
        replayed(NO_BRAKES, strategy, cache);
        replayed({ ...NO_BRAKES, maxCostPico: usdToPico(0.045), budgetMode: 'predict' }, strategy, cache);
        replayed({ ...NO_BRAKES, contextWindow: 8000 }, strategy, cache);
      }
    }
    // Summaries (trigger 4,000, keep 1, 200 tokens): before the trace's calls 2, 3 and 4 (the run's calls 3, 5
    // and 7: a summary call is a call); the compaction replaces the
    // last summary too, and after it the prompts are billed as recorded (1,900 + 2,100 = 4,000 before
    // call 6 is not past the trigger: no summary).
    const summarised = runLoop(new ReplaySource(TRACE), { ...options(NO_BRAKES, strategies[1]!), keepSteps: true }).rows;
    expect(summarised.filter((row) => row.summary).map((row) => row.call)).toEqual([3, 5, 7]);
    expect(summarised.slice(-2).map((row) => row.inputTokens)).toEqual([3000, 4100]);
    // Cache on: the prompt after the compaction finds system + goal (and the framing before them) of
    // the compaction's prompt in the cache, not the history it replaced.
    const on = replayed(NO_BRAKES, FULL_HISTORY, 'on');
    const rows = runLoop(new ReplaySource(TRACE), { ...options(NO_BRAKES, FULL_HISTORY, 'on'), keepSteps: true }).rows;
    expect(rows[5]!.cachedInputTokens).toBe(600 + (3000 - 900));
    expect(on.cachedInputTokens).toBe(rows.reduce((total, row) => total + row.cachedInputTokens, 0));
  });
});

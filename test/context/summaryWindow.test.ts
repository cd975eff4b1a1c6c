/**
 * A summary call is a request like any other: its prompt (the one it replaces) + the S tokens it asks for
 * past the summary model's window is refused by the provider — the run ends provider_refused at it, a
 * failed call paid nothing — and under `--context-window model` the brake stops the run before it
 * (context_overflow). Both kernels (readable session, compiled replay) agree, by hand and on seeded
 * random traces.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import type { CacheMode, ContextStrategy } from '../../src/context/strategy.js';
import { compileTrace } from '../../src/fast/compile.js';
import { flattenPrices, replayCompiled } from '../../src/fast/replayFast.js';
import { outcomeOf, runOutcomeOf } from '../../src/fast/runState.js';
import { runSettings } from '../../src/fast/settings.js';
import { withSummaryPrices } from '../../src/fast/strategySteps.js';
import { brakeLimits } from '../../src/kernel/limits.js';
import { ReplaySource } from '../../src/loop/replaySource.js';
import { runLoop } from '../../src/loop/run.js';
import type { ModelPricing } from '../../src/pricing/types.js';
import type { Trace } from '../../src/trace/types.js';
import { brakesArb, callArb } from '../core/arbitraries.js';
import { distinctSteps, figuresOf, handPriced, trace } from '../helpers.js';

/** Both kernels on `t`: the readable session's outcome, after checking the compiled replay's figures and stop equal it. */
function bothKernels(t: Trace, brakes: BrakeConfig, strategy: ContextStrategy, pricing: ModelPricing, cache: CacheMode = 'off', summaryPricing?: ModelPricing) {
  const slow = runLoop(new ReplaySource(t), { brakes, strategy, cache, pricing, systemTokens: t.header.systemTokens, goalTokens: t.header.goalTokens, ...(summaryPricing ? { summaryPricing } : {}) });
  const compiled = compileTrace(t);
  const prices = flattenPrices(pricing);
  const settings = runSettings(strategy, cache);
  if (summaryPricing) withSummaryPrices(settings, flattenPrices(summaryPricing));
  const limits = brakeLimits(brakes, prices.contextWindow);
  const state = replayCompiled(compiled, settings, limits, prices, false);
  expect(outcomeOf(compiled, state, limits)).toEqual(figuresOf(slow));
  expect(runOutcomeOf(compiled, state, limits, { recorded: t.calls }).stop).toEqual(slow.stop);
  return slow;
}

/** 100 tokens of system prompt; each step 100 out + a 200-token result: prompts 100, 400, 700, 1000, 1300 > trigger 1000. */
const steps = trace(distinctSteps(8), { system: 100 });
const strategy: ContextStrategy = { kind: 'summary', summary: { triggerTokens: 1000, keepSteps: 1, summaryTokens: 500 } };
/** $1 / $2 per million: 1,000,000 and 2,000,000 picodollars a token. */
const priced = (window: number) => handPriced('mini', { input: 1, output: 2 }, window);
/** Calls 1–4: 2,200 tokens in, 400 out. */
const FOUR_CALLS = 2200 * 1_000_000 + 400 * 2_000_000;

describe('a summary call past its window', () => {
  it('is refused as the provider refuses any call: the run ends provider_refused at it, a failed call paid nothing', () => {
    const run = bothKernels(steps, NO_BRAKES, strategy, priced(1799));
    expect(run.stop).toEqual({ reason: 'provider_refused', detail: 'the provider refused the summary call: prompt of 1300 tokens + max_tokens 500 > context window 1799' });
    expect([run.steps, run.calls, run.failedCalls, run.summaryCalls, run.costPico, run.inputTokens, run.outputTokens]).toEqual([4, 5, 1, undefined, FOUR_CALLS, 2200, 400]);
    // One token more of window: the summary is made (1300 + 500 = 1800), and the run goes on.
    const made = bothKernels(steps, NO_BRAKES, strategy, priced(1800));
    // Before calls 5–8; none after the last call, which no call follows (kernel/summaryBeforeCall.ts; was 5).
    expect([made.stop.reason, made.summaryCalls, made.steps]).toEqual(['trace_end', 4, 8]);
  });

  it('under --context-window model, stops the run before it (context_overflow), as a live loop can: it knows the prompt, S and the window', () => {
    // max_tokens 300: every agent call fits (1300 + 300 ≤ 1799); the summary call does not (1300 + 500).
    const brakes: BrakeConfig = { ...NO_BRAKES, contextWindow: 'model', maxOutputTokens: 300 };
    const run = bothKernels(steps, brakes, strategy, priced(1799));
    expect(run.stop).toEqual({ reason: 'context_overflow', detail: "next summary call's prompt holds 1300 tokens + max_tokens 500 > context window 1799" });
    expect([run.steps, run.calls, run.failedCalls, run.costPico]).toEqual([4, 4, 0, FOUR_CALLS]);
    // An explicit window is the agent's prompt limit, which the summary brings the prompt back under: no stop at the summary.
    const explicit = bothKernels(steps, { ...NO_BRAKES, contextWindow: 1799 }, strategy, priced(1_000_000));
    expect([explicit.stop.reason, explicit.summaryCalls]).toEqual(['trace_end', 4]);
  });

  it('on the summary model’s window (summary:…,model=X), not the run’s', () => {
    const small = { ...handPriced('small', { input: 0.5, output: 1 }, 1700), requested: 'small' };
    const run = bothKernels(steps, NO_BRAKES, { ...strategy, summary: { ...strategy.summary!, model: 'small' } }, priced(1_000_000), 'off', small);
    expect(run.stop.detail).toBe('the provider refused the summary call: prompt of 1300 tokens + max_tokens 500 > context window 1700');
  });

  it('compiled = readable on seeded random traces, with stops at summary calls of both kinds', () => {
    const seen = { refused: 0, braked: 0, made: 0 };
    fc.assert(
      fc.property(
        fc.array(fc.oneof({ arbitrary: callArb.filter((c) => (c.toolCalls?.length ?? 0) > 0 && !c.final && !c.compaction), weight: 12 }, { arbitrary: callArb, weight: 1 }), { minLength: 3, maxLength: 30 }),
        fc.integer({ min: 0, max: 3000 }),
        fc.oneof({ arbitrary: fc.constant({}), weight: 1 }, { arbitrary: brakesArb, weight: 1 }, { arbitrary: fc.record({ contextWindow: fc.constant('model' as const), maxOutputTokens: fc.integer({ min: 1, max: 400 }) }), weight: 2 }),
        fc.record({ hybrid: fc.boolean(), trigger: fc.integer({ min: 200, max: 8000 }), keep: fc.integer({ min: 1, max: 4 }), tokens: fc.integer({ min: 1, max: 4000 }), window: fc.integer({ min: 4000, max: 16_000 }) }),
        fc.constantFrom<CacheMode>('on', 'off', 'recorded'),
        (calls, system, brakes, s, cache) => {
          const summary = { triggerTokens: s.trigger, keepSteps: s.keep, summaryTokens: s.tokens };
          const rewriting: ContextStrategy = s.hybrid ? { kind: 'hybrid', maskSteps: 2, summary } : { kind: 'summary', summary };
          const config = { ...NO_BRAKES, ...brakes } as BrakeConfig;
          // (A trigger above the window the brake or the model gives is refused before any run.)
          const window = typeof config.contextWindow === 'number' ? config.contextWindow : s.window;
          if (s.trigger > window) return;
          const run = bothKernels(trace(calls, { system }), config, rewriting, priced(s.window), cache);
          if (run.stop.detail.includes('summary call')) seen[run.stop.reason === 'provider_refused' ? 'refused' : 'braked'] += 1;
          if (run.summaryCalls) seen.made += 1;
        },
      ),
      { numRuns: 600, seed: 4242 },
    );
    // The generator reaches each outcome often (else equality would prove little).
    expect(Math.min(seen.refused, seen.braked, seen.made), JSON.stringify(seen)).toBeGreaterThan(25);
  });
});

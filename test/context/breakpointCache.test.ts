/**
 * Observation masking on a model that bills cache writes (Anthropic-style): its cache serves a read only
 * from a prefix a cache breakpoint wrote — the end of an earlier prompt, or system + goal — so once the
 * masking boundary changed a step, the previous prompt's end is no prefix of the next and the cache
 * serves system + goal; the rest is written again (kernel/rewrittenContext.ts cacheAtBreakpoints). A
 * model with no write price (OpenAI, DeepSeek: automatic prefix caching) still serves the prompt up to
 * the first changed tool result (maskCacheBoundary.test.ts). Figures by hand on tiny traces; the readable
 * loop and the compiled replay agree on them and on seeded random traces.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { parseContextSpec, type CacheMode, type ContextStrategy } from '../../src/context/strategy.js';
import { compileTrace } from '../../src/fast/compile.js';
import { flattenPrices, replayFast } from '../../src/fast/replayFast.js';
import { runLoop } from '../../src/loop/run.js';
import { ReplaySource } from '../../src/loop/replaySource.js';
import type { ModelPricing } from '../../src/pricing/types.js';
import type { CallRecord, Trace } from '../../src/trace/types.js';
import { callArb, hourly, tiered } from '../core/arbitraries.js';
import { call, figuresOf, handPriced, toolCall, trace } from '../helpers.js';

/** $3 / $15 per million, reads $0.30, five-minute writes $3.75 (Claude Sonnet 4's): picodollars a token below. */
const WRITES = handPriced('writes', { input: 3, output: 15, cached: 0.3, cacheWrite: 3.75 });
/** The same prices without a write price: automatic prefix caching. */
const AUTOMATIC = handPriced('automatic', { input: 3, output: 15, cached: 0.3 });
const INPUT_PICO = 3_000_000;
const CACHED_PICO = 300_000;
const WRITE_PICO = 3_750_000;
const OUTPUT_PICO = 15_000_000;

/** A step: output tokens and one tool result. */
function step(output: number, result: number, extra: Partial<CallRecord> = {}): CallRecord {
  return call(output, [toolCall('t', { output }, result)], extra);
}

/** `t` under `strategy`, readable loop checked against the compiled replay. */
function run(t: Trace, strategy: ContextStrategy, cache: CacheMode, pricing: ModelPricing) {
  const system = t.header.systemTokens;
  const goal = t.header.goalTokens;
  const slow = runLoop(new ReplaySource(t), { brakes: NO_BRAKES, strategy, cache, pricing, systemTokens: system, goalTokens: goal, keepSteps: true });
  expect(replayFast(compileTrace(t), NO_BRAKES, strategy, cache, flattenPrices(pricing))).toEqual(figuresOf(slow));
  return {
    prompts: slow.rows.map((r) => r.inputTokens),
    cached: slow.rows.map((r) => r.cachedInputTokens),
    written: slow.rows.map((r) => r.cacheWriteTokens),
    lost: slow.strategyCacheLostTokens ?? 0,
    costPico: slow.costPico,
  };
}

/** System 100 + goal 20; steps of 30+200, 40+300, 50+400, 60+500, then a final answer of 25. */
const FOUR_STEPS = [step(30, 200), step(40, 300), step(50, 400), step(60, 500), call(25)];
const MASK_1 = parseContextSpec('mask:1,placeholder=7');

describe('masking on a model that bills cache writes: reads only at a breakpoint', () => {
  it('cache on: once a step is masked, only system + goal is read; the rest of each prompt is written', () => {
    const r = run(trace(FOUR_STEPS, { system: 100, goal: 20 }), MASK_1, 'on', WRITES);
    // Masked step k = output + 7: prompts 120, 120 + 230, 120 + 37 + 340, 120 + 37 + 47 + 450, 120 + 37 + 47 + 57 + 560.
    expect(r.prompts).toEqual([120, 350, 497, 654, 821]);
    // Call 2 sends call 1's prompt unchanged plus step 0: it reads call 1's breakpoint (120). From call 3 on,
    // the step just masked changed every earlier prompt's end: only system + goal (120) was written where it ends.
    expect(r.cached).toEqual([0, 120, 120, 120, 120]);
    expect(r.written).toEqual([120, 230, 377, 534, 701]);
    // Lost: what the previous prompt held past system + goal — step 0's output (30); steps 0 masked and 1's
    // output (37 + 40); steps 0, 1 masked and 2's output (37 + 47 + 50).
    expect(r.lost).toBe(30 + 77 + 134);
    expect(r.costPico).toBe(480 * CACHED_PICO + 1962 * WRITE_PICO + 205 * OUTPUT_PICO);
  });

  it('automatic prefix caching (no write price) is as before: the prompt up to the masked result is read', () => {
    const r = run(trace(FOUR_STEPS, { system: 100, goal: 20 }), MASK_1, 'on', AUTOMATIC);
    expect(r.cached).toEqual([0, 120, 120 + 30, 120 + 37 + 40, 120 + 37 + 47 + 50]);
    expect(r.written).toEqual([0, 0, 0, 0, 0]);
    expect(r.lost).toBe(0);
    expect(r.costPico).toBe((2442 - 721) * INPUT_PICO + 721 * CACHED_PICO + 205 * OUTPUT_PICO);
  });

  it('cache as recorded: a recording that wrote at each prompt end reads system + goal + its framing, and writes the rest again', () => {
    // Recorded with 50 tokens of framing the growth model does not see: prompts 170, 400, 740, 1190, 1750,
    // each reading the previous prompt and writing the rest.
    const inputs = [170, 400, 740, 1190, 1750];
    const calls = FOUR_STEPS.map((c, i) => ({ ...c, inputTokens: inputs[i]!, cachedInputTokens: i === 0 ? 0 : inputs[i - 1]!, cacheWriteTokens: i === 0 ? 170 : inputs[i]! - inputs[i - 1]! }));
    const r = run(trace(calls, { system: 100, goal: 20, origin: 'recorded' }), MASK_1, 'recorded', WRITES);
    expect(r.prompts).toEqual([170, 400, 547, 704, 871]);
    // System + goal (120) + the framing (50): what the cache served stops there once a step changed form.
    expect(r.cached).toEqual([0, 170, 170, 170, 170]);
    expect(r.written).toEqual([170, 230, 377, 534, 701]);
    expect(r.costPico).toBe(680 * CACHED_PICO + 2012 * WRITE_PICO + 205 * OUTPUT_PICO);
  });

  it('a recording whose loop asked for no writes (header cacheWrites none) reads as automatic prefix caching', () => {
    const inputs = [170, 400, 740, 1190, 1750];
    const calls = FOUR_STEPS.map((c, i) => ({ ...c, inputTokens: inputs[i]!, cachedInputTokens: i === 0 ? 0 : inputs[i - 1]! }));
    const t = trace(calls, { system: 100, goal: 20, origin: 'recorded' });
    t.header.cacheWrites = 'none';
    const r = run(t, MASK_1, 'recorded', WRITES);
    expect(r.cached).toEqual([0, 170, 200, 247, 304]);
  });
});

const strategyArb: fc.Arbitrary<ContextStrategy> = fc
  .record({ mask: fc.integer({ min: 1, max: 5 }), hybrid: fc.boolean(), trigger: fc.integer({ min: 500, max: 8000 }), keep: fc.integer({ min: 1, max: 4 }) })
  .map(({ mask, hybrid, trigger, keep }) => (hybrid ? { kind: 'hybrid', maskSteps: mask, summary: { triggerTokens: trigger, keepSteps: keep, summaryTokens: 300 } } : { kind: 'mask', maskSteps: mask }));

describe('breakpoint reads on random traces', () => {
  it('both kernels agree, and read no more (lose no less) than automatic prefix caching would', () => {
    let fewer = 0;
    fc.assert(
      fc.property(fc.array(callArb.filter((c) => (c.toolCalls?.length ?? 0) > 0 && !c.final), { minLength: 3, maxLength: 25 }), strategyArb, fc.constantFrom<CacheMode>('on', 'recorded'), fc.constantFrom(tiered, hourly), (calls, strategy, cache, pricing) => {
        const t = trace(calls, { system: 1500 });
        const writes = run(t, strategy, cache, pricing);
        const automatic = run(t, strategy, cache, { ...pricing, base: { ...pricing.base, cacheWrite: undefined, cacheWrite1h: undefined }, tiers: [] });
        const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
        expect(sum(writes.cached)).toBeLessThanOrEqual(sum(automatic.cached));
        expect(writes.lost).toBeGreaterThanOrEqual(automatic.lost);
        if (sum(writes.cached) < sum(automatic.cached)) fewer++;
      }),
      { numRuns: 300, seed: 2525 },
    );
    expect(fewer).toBeGreaterThan(30);
  });
});

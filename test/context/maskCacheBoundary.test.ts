/**
 * Observation masking and the prompt cache, on tiny traces checked by hand. When step j's tool result
 * is masked, the prompt changes at that result: system, goal, the steps before j (in the form the
 * previous prompt held them) and step j's output, which precedes its result, are unchanged and served
 * from the cache. Cache hits lost are what the next prompt re-sends that the previous one held, after
 * the change; the placeholder is new text (written, not lost). The readable loop and the compiled
 * replay agree on every figure. Prices (MINI): input 150,000 pico/token, cached 75,000, output 600,000.
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { parseContextSpec } from '../../src/context/strategy.js';
import { compileTrace } from '../../src/fast/compile.js';
import { flattenPrices, replayFast } from '../../src/fast/replayFast.js';
import { runLoop } from '../../src/loop/run.js';
import { ReplaySource } from '../../src/loop/replaySource.js';
import type { CallRecord } from '../../src/trace/types.js';
import { call, figuresOf, MINI, toolCall, trace } from '../helpers.js';

const INPUT_PICO = 150_000;
const CACHED_PICO = 75_000;
const OUTPUT_PICO = 600_000;

/** A step: output tokens and one tool call per result. */
function step(output: number, ...results: number[]): CallRecord {
  return call(output, results.map((tokens, i) => toolCall('t', { output, i }, tokens)));
}

/** System 100 + goal 20, cache on, under `spec`; the readable loop checked against the compiled replay. */
function run(spec: string, calls: CallRecord[]) {
  const t = trace(calls, { system: 100, goal: 20 });
  const strategy = parseContextSpec(spec);
  const slow = runLoop(new ReplaySource(t), { brakes: NO_BRAKES, strategy, cache: 'on', pricing: MINI, systemTokens: 100, goalTokens: 20, keepSteps: true });
  expect(replayFast(compileTrace(t), NO_BRAKES, strategy, 'on', flattenPrices(MINI))).toEqual(figuresOf(slow));
  return {
    prompts: slow.rows.map((r) => r.inputTokens),
    cached: slow.rows.map((r) => r.cachedInputTokens),
    lost: slow.strategyCacheLostTokens ?? 0,
    costPico: slow.costPico,
  };
}

const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);

describe('observation masking: the cache boundary is at the masked result, after its step\'s output', () => {
  it('mask:1: four steps; each call serves the step just masked up to its output; nothing held is lost', () => {
    const r = run('mask:1,placeholder=7', [step(30, 200), step(40, 300), step(50, 400), step(60, 500), call(25)]);
    // Masked step k = output + 7. Call 2 masks step 0, call 3 step 1, call 4 step 2.
    expect(r.prompts).toEqual([120, 120 + 230, 120 + 37 + 340, 120 + 37 + 47 + 450, 120 + 37 + 47 + 57 + 560]);
    // Call 2: system + goal + step 0's output (30); call 3: + step 0 masked (37) + step 1's output (40); …
    expect(r.cached).toEqual([0, 120, 120 + 30, 120 + 37 + 40, 120 + 37 + 47 + 50]);
    expect(r.lost).toBe(0);
    const input = 120 + 350 + 497 + 654 + 821;
    const cached = 120 + 150 + 197 + 254;
    expect(r.costPico).toBe((input - cached) * INPUT_PICO + cached * CACHED_PICO + (30 + 40 + 50 + 60 + 25) * OUTPUT_PICO);
  });

  it('mask:2: a step with two results, a step with none (masking it changes nothing): cached and lost exactly', () => {
    // Step 1 has two results (100 + 50, masked 7 + 7); step 2 is unparseable (no tool results).
    const calls = [step(30, 200), step(40, 100, 50), call(15, undefined, { unparseable: true }), step(60, 500), step(20, 80), call(25)];
    const r = run('mask:2,placeholder=7', calls);
    expect(r.prompts).toEqual([120, 350, 540, 120 + 37 + 190 + 15, 120 + 37 + 54 + 15 + 560, 120 + 37 + 54 + 15 + 560 + 100]);
    // Call 3 masks step 0: served to its output (150); step 1 (190), held before, is re-sent: lost.
    // Call 4 masks step 1: served to its output (197); step 2 (15) is re-sent after the change: lost.
    // Call 5 masks step 2, which has no result: the whole previous prompt (786) is unchanged.
    expect(r.cached).toEqual([0, 120, 350, 150, 197, 786]);
    expect(r.lost).toBe(190 + 15);
    const input = sum(r.prompts);
    expect(input).toBe(3044);
    const cached = 1603;
    expect(r.costPico).toBe((input - cached) * INPUT_PICO + cached * CACHED_PICO + (30 + 40 + 15 + 60 + 20 + 25) * OUTPUT_PICO);
  });

  it('mask:1 after a backtrack: the boundary moves back, unmasking a step, and the prompt changes at that step\'s result', () => {
    const calls = [step(30, 200), step(40, 300), step(50, 400), { ...call(10), backtrack: true }, step(55, 100), call(25)];
    const r = run('mask:1,placeholder=7', calls);
    // Call 3 (the backtrack) sees steps 0–2; step 2 leaves; call 4 sees steps 0–1 with step 1 unmasked again.
    expect(r.prompts).toEqual([120, 350, 497, 654, 497, 120 + 37 + 47 + 155]);
    expect(r.cached).toEqual([0, 120, 150, 197, 197, 197]);
    expect(r.lost).toBe(0);
    const input = 120 + 350 + 497 + 654 + 497 + 359;
    const cached = 120 + 150 + 197 * 3;
    expect(r.costPico).toBe((input - cached) * INPUT_PICO + cached * CACHED_PICO + (30 + 40 + 50 + 10 + 55 + 25) * OUTPUT_PICO);
  });
});

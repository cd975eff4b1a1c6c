/**
 * Batched observation masking (`mask:M,batch=B`, kernel/maskBoundary.ts): the boundary moves only when it
 * crosses a multiple of B, so between batch points the previous prompt is a prefix of the next and a cache
 * serves all of it; at a batch point the B steps just masked change form, as one step does each call under
 * plain masking. Hand-worked on a tiny trace with the cache on, on an Anthropic model (reads only at a
 * breakpoint, writes billed) and an OpenAI one (any prefix it saw, in 128-token increments from 1,024);
 * the readable loop and the compiled replay agree on every figure.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { parseContextSpec } from '../../src/context/strategy.js';
import { compileTrace } from '../../src/fast/compile.js';
import { flattenPrices, replayFast } from '../../src/fast/replayFast.js';
import { VirtualClock } from '../../src/agent/clock.js';
import { MASKED_OUTPUT } from '../../src/agent/conversation.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { defineTool } from '../../src/agent/tools.js';
import { curveBreakpointCache, growthDescription } from '../../src/report/curveGrowth.js';
import { buildCurveReport } from '../../src/report/curveReport.js';
import { reportSettings } from '../../src/report/settings.js';
import { curveRun } from '../../src/replay/curve.js';
import { ContextTracker } from '../../src/kernel/context.js';
import { maskBoundary } from '../../src/kernel/maskBoundary.js';
import { runLoop } from '../../src/loop/run.js';
import { ReplaySource } from '../../src/loop/replaySource.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import type { ModelPricing } from '../../src/pricing/types.js';
import { ScriptedModel, answer, toolTurn } from '../agent/scripted.js';
import { call, figuresOf, MINI, toolCall, trace } from '../helpers.js';

const prices = loadPriceTable();
const SONNET = prices.resolve('claude-sonnet-4');
const GPT_4O = prices.resolve('gpt-4o');

/** System 1,000 + goal 24 (1,024: both providers' minimum cacheable prefix); six steps of 100 output + 400 result; a final answer of 50. */
const SIX_STEPS = [...Array.from({ length: 6 }, (_, k) => call(100, [toolCall('t', { k }, 400)])), call(50)];

function run(spec: string, pricing: ModelPricing, calls = SIX_STEPS) {
  const t = trace(calls, { system: 1000, goal: 24, model: pricing.model });
  const strategy = parseContextSpec(spec);
  const slow = runLoop(new ReplaySource(t), { brakes: NO_BRAKES, strategy, cache: 'on', pricing, systemTokens: 1000, goalTokens: 24, keepSteps: true });
  expect(replayFast(compileTrace(t), NO_BRAKES, strategy, 'on', flattenPrices(pricing))).toEqual(figuresOf(slow));
  return {
    prompts: slow.rows.map((r) => r.inputTokens),
    cached: slow.rows.map((r) => r.cachedInputTokens),
    written: slow.rows.map((r) => r.cacheWriteTokens),
    lost: slow.strategyCacheLostTokens ?? 0,
    costPico: slow.costPico,
  };
}

const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);
const OUTPUT_TOKENS = 6 * 100 + 50;

// mask:1,batch=2, placeholder 20 (a masked step is 100 + 20). Before call i the history holds i − 1 steps;
// the first unmasked step is (i − 2) rounded down to even: 0, 0, 0, 2, 2, 4, 4 for calls 1–7.
const PROMPTS = [1024, 1024 + 500, 1024 + 1000, 1024 + 240 + 500, 1024 + 240 + 1000, 1024 + 480 + 500, 1024 + 480 + 1000];

describe('mask:1,batch=2 with the cache on, by hand', () => {
  it('Anthropic (claude-sonnet-4): between batch points the whole previous prompt is read; at one, system + goal', () => {
    const r = run('mask:1,placeholder=20,batch=2', SONNET);
    expect(r.prompts).toEqual(PROMPTS);
    // Calls 4 and 6 mask two steps (0–1, then 2–3): the previous prompt's end is no prefix, system + goal is read.
    // Calls 2, 3, 5, 7: the boundary stayed, the previous prompt (its end a breakpoint) is read whole.
    expect(r.cached).toEqual([0, 1024, 1524, 1024, 1764, 1024, 2004]);
    expect(r.written).toEqual([1024, 500, 500, 740, 500, 980, 500]);
    // Lost (held before, re-sent in the same form, not read): at call 4 the outputs of steps 0–1 (200); at call 6
    // steps 0–1 masked and the outputs of 2–3 (240 + 200). The new placeholders are written, not lost.
    expect(r.lost).toBe(200 + 440);
    const b = SONNET.base;
    expect(r.costPico).toBe(sum(r.cached) * b.cachedInput! + sum(r.written) * b.cacheWrite! + OUTPUT_TOKENS * b.output);
  });

  it('OpenAI (gpt-4o): the unchanged prefix in 128-token increments; at a batch point up to the first masked step\'s output', () => {
    const r = run('mask:1,placeholder=20,batch=2', GPT_4O);
    expect(r.prompts).toEqual(PROMPTS);
    // Unchanged: 1,024; 1,524; 1,024 + 100 (step 0's output, before its result); 1,764; 1,024 + 240 + 100; 2,004.
    expect(r.cached).toEqual([0, 1024, 1408, 1024, 1664, 1280, 1920]);
    expect(r.written).toEqual([0, 0, 0, 0, 0, 0, 0]);
    // Lost: at call 4 step 1's output (100), held but after the change; at call 6 step 3's (100).
    expect(r.lost).toBe(200);
    const b = GPT_4O.base;
    expect(r.costPico).toBe((sum(PROMPTS) - sum(r.cached)) * b.input + sum(r.cached) * b.cachedInput! + OUTPUT_TOKENS * b.output);
  });

  it('on 20 steps, mask:3,batch=3 reads more from the cache than mask:3 and costs less, on both models', () => {
    const steps = [...Array.from({ length: 20 }, (_, k) => call(100, [toolCall('t', { k }, 400)])), call(50)];
    for (const pricing of [SONNET, GPT_4O]) {
      const [plain, batched] = ['mask:3', 'mask:3,batch=3'].map((spec) => run(spec, pricing, steps));
      expect(sum(batched!.cached)).toBeGreaterThan(sum(plain!.cached));
      expect(batched!.costPico).toBeLessThan(plain!.costPico);
    }
  });

  it('batch=1 is plain masking, figure for figure', () => {
    for (const pricing of [SONNET, GPT_4O]) expect(run('mask:1,placeholder=20,batch=1', pricing)).toEqual(run('mask:1,placeholder=20', pricing));
  });
});

describe('the boundary rule', () => {
  it('masks a result only once it is older than the last M steps, at most B − 1 steps late, at multiples of B', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 1, max: 20 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 200 }), (length, maskKeep, maskBatch, first) => {
        // Independent of the code's formula: the last multiple of B at or below length − M (0 when none), never before the first kept step.
        let floor = 0;
        for (let s = 0; s <= length - maskKeep; s += maskBatch) floor = s;
        expect(maskBoundary({ length, maskKeep, maskBatch }, first)).toBe(Math.max(first, floor));
      }),
      { numRuns: 500, seed: 77 },
    );
  });

  it('the tracker\'s view says the batched boundary (what the real loop masks and closed-loop agents see)', () => {
    const ctx = new ContextTracker(100, 0, parseContextSpec('mask:2,batch=3'));
    const seen: (number | undefined)[] = [];
    for (let k = 0; k < 9; k++) {
      ctx.addStep(10);
      ctx.addToolResult(50);
      seen.push(ctx.view().firstUnmaskedStep);
    }
    // Lengths 1–9: raw = length − 2 → −1, 0, 1, 2, 3, 4, 5, 6, 7 → rounded down to a multiple of 3.
    expect(seen).toEqual([0, 0, 0, 0, 3, 3, 3, 6, 6]);
  });
});

describe('the real loop and the curve under batched masking', () => {
  it('runAgentLoop sends tool results masked in batches: mask:1,batch=2 masks steps 0–1 at call 4, 2–3 at call 6', async () => {
    const look = defineTool<{ k: number }>({ name: 'look', description: 'looks', parameters: { type: 'object' }, run: ({ k }) => `result ${k}` });
    const model = new ScriptedModel([...Array.from({ length: 6 }, (_, k) => toolTurn('look', { k })), answer('done')]);
    await runAgentLoop({ model, tools: [look], brakes: NO_BRAKES, unbounded: true, context: { system: 's', goal: 'g', strategy: parseContextSpec('mask:1,batch=2') }, pricing: MINI, clock: new VirtualClock() });
    const masked = model.requests.map((r) => r.messages.filter((m) => m.role === 'tool').map((m) => (m.content === MASKED_OUTPUT ? 'masked' : 'kept')));
    expect(masked).toEqual([
      [],
      ['kept'],
      ['kept', 'kept'],
      ['masked', 'masked', 'kept'],
      ['masked', 'masked', 'kept', 'kept'],
      ['masked', 'masked', 'masked', 'masked', 'kept'],
      ['masked', 'masked', 'masked', 'masked', 'kept', 'kept'],
    ]);
  });

  it('curve says the boundary moves every B steps and what the cache serves between', () => {
    const spec = { model: 'gpt-4o', systemTokens: 500, outputTokens: 150, toolTokens: 2050, steps: 10 };
    const prefix = { mode: 'on', atBreakpoints: false };
    const growth = (context: string, cache = prefix) => growthDescription({ spec, strategy: parseContextSpec(context), rows: [], cache });
    expect(growth('mask:10,batch=5')).toBe(
      "context mask:10,batch=5: each prompt holds every output, but the tool results of steps before the last 10 are placeholders, so input grows by the outputs and placeholders only; the masking boundary moves every 5 steps (results masked in batches); between those moves the cache serves the whole previous prompt, at each move nothing after the first masked step's output; cache on: the part of each prompt unchanged since the previous one is billed at the cached price",
    );
    expect(growth('mask:10,batch=5', { mode: 'off', atBreakpoints: false })).toMatch(/moves every 5 steps \(results masked in batches\)$/);
    expect(growth('mask:10')).toContain("the masking boundary moves every step and the cache serves nothing after the masked step's output;");
  });

  it('curve says what a breakpoint cache serves at each move: only the system prompt and goal (claude-sonnet-4, as its table shows)', () => {
    const spec = { model: 'claude-sonnet-4', systemTokens: 1500, outputTokens: 150, toolTokens: 2050, steps: 20 };
    const report = (context: string, model = spec.model) => {
      const strategy = { ...parseContextSpec(context), cache: 'on' as const };
      const at = { ...spec, model };
      return buildCurveReport({ spec: at, strategy, run: curveRun(at, strategy, prices), settings: reportSettings({ brakes: NO_BRAKES, strategy }), priceSource: prices.source });
    };
    const batched = report('mask:3,batch=5');
    // At each move (steps 9, 14, 19) the cache serves 1,500 tokens: the system prompt (the goal is 0).
    expect([9, 14, 19].map((step) => batched.rows[step - 1]!.cachedInputTokens)).toEqual([1500, 1500, 1500]);
    expect(batched.growth).toContain('; between those moves the cache serves the whole previous prompt, at each move only the system prompt and goal; cache on:');
    expect(report('mask:3').growth).toContain('the masking boundary moves every step and the cache serves only the system prompt and goal; cache on:');
    // gpt-4o serves any prefix it saw: the same curve there says the prefix words.
    expect(report('mask:3,batch=5', 'gpt-4o').growth).toContain("at each move nothing after the first masked step's output; cache on:");
    expect(curveBreakpointCache(spec, SONNET, 'on')).toBe(true);
    expect(curveBreakpointCache(spec, SONNET, 'off')).toBe(false);
    expect(curveBreakpointCache(spec, GPT_4O, 'on')).toBe(false);
  });

  it("hybrid's growth says its masking before its summary", () => {
    const spec = { model: 'gpt-4o', systemTokens: 1500, outputTokens: 150, toolTokens: 2050, steps: 20 };
    const text = growthDescription({ spec, strategy: parseContextSpec('hybrid:mask=10,batch=5,trigger=20000,keep=3,tokens=500'), rows: [], cache: { mode: 'on', atBreakpoints: true } });
    expect(text).toBe(
      'context hybrid:mask=10,batch=5,trigger=20000,keep=3,tokens=500: each prompt holds every output, but the tool results of steps before the last 10 are placeholders, so input grows by the outputs and placeholders only; the masking boundary moves every 5 steps (results masked in batches); between those moves the cache serves the whole previous prompt, at each move only the system prompt and goal; when the prompt passes the trigger, a summary call (not a step, paid, in the totals) replaces all but the last 3 steps with 500 tokens; the call after it finds only the system prompt and goal in the cache; cache on: the part of each prompt unchanged since the previous one is billed at the cached price',
    );
  });
});

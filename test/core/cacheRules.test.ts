/** The provider's minimum cacheable prefix with --cache on: the rule table, the meter, and what a report says. */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { bundledPriceTable } from '../../src/pricing/index.js';
import { cacheRuleFor } from '../../src/pricing/cacheRules.js';
import { cacheNotesOf, replayTrace, resolveTracePricing } from '../../src/replay/replay.js';
import { tracePricing } from '../../src/replay/tracePricing.js';
import type { ModelPricing } from '../../src/pricing/types.js';
import { call, distinctSteps, handPriced, handTable, toolCall, trace } from '../helpers.js';

const rule = (model: string, provider?: string) => {
  const r = cacheRuleFor(model, provider);
  return r && [r.minPrefixTokens, r.incrementTokens];
};

describe('cache rules per provider and model family', () => {
  it('OpenAI 1,024 / 128; Anthropic 1,024, 2,048 (Haiku 3) or 4,096 (Opus 4.5+, Haiku 4.5); Gemini 2,048 (2.5) or 4,096; DeepSeek 64-token units; others none', () => {
    expect(rule('gpt-4o')).toEqual([1024, 128]);
    expect(rule('o3-mini')).toEqual([1024, 128]);
    expect(rule('openai/gpt-4.1')).toEqual([1024, 128]);
    expect(rule('claude-sonnet-4-5')).toEqual([1024, 1]);
    expect(rule('claude-3-5-sonnet-20240620')).toEqual([1024, 1]);
    expect(rule('claude-opus-4-6')).toEqual([4096, 1]);
    expect(rule('anthropic/claude-haiku-4.5')).toEqual([4096, 1]);
    expect(rule('claude-3-5-haiku-latest')).toEqual([2048, 1]);
    expect(rule('gemini-2.5-pro')).toEqual([2048, 1]);
    expect(rule('gemini-3-pro-preview')).toEqual([4096, 1]);
    expect(rule('gemini-2.0-flash')).toEqual([4096, 1]);
    expect(rule('deepseek/deepseek-chat')).toEqual([64, 64]);
    expect(rule('my-finetune', 'openai')).toEqual([1024, 128]);
    expect(rule('mistral-large-latest', 'mistral')).toBeUndefined();
  });

  it('resolving a run’s prices fills the rule in (same object each time)', () => {
    const prices = bundledPriceTable();
    const t = trace([call(10)], { model: 'gpt-4o-mini' });
    const pricing = resolveTracePricing(t, { prices });
    expect(pricing.cacheRule).toMatchObject({ minPrefixTokens: 1024, incrementTokens: 128 });
    expect(resolveTracePricing(t, { prices })).toBe(pricing);
  });

  it('loopcost\'s own callers take the table\'s pricing unfilled (tracePricing): the same figures, no copy', () => {
    const prices = bundledPriceTable();
    const t = trace(distinctSteps(4, 100, 200), { system: 700, model: 'gpt-4o-mini' });
    const unfilled = tracePricing(t, { prices });
    expect(unfilled).toBe(prices.resolve('gpt-4o-mini', undefined, t.header.recordedAt));
    expect(unfilled.cacheRule).toBeUndefined();
    const cost = (pricing: ModelPricing) => replayTrace(t, { brakes: NO_BRAKES, strategy: { kind: 'full', cache: 'on' }, prices, pricing }).costPico;
    expect(cost(unfilled)).toBe(cost(resolveTracePricing(t, { prices })));
  });
});

describe('the meter under a rule (cache on)', () => {
  const openaiLike: ModelPricing = { ...handPriced('m', { input: 2.5, output: 10, cached: 1.25 }), cacheRule: { minPrefixTokens: 1024, incrementTokens: 128, source: 'test rule' } };
  const anthropicLike: ModelPricing = { ...handPriced('a', { input: 3, output: 15, cached: 0.3, cacheWrite: 3.75 }), cacheRule: { minPrefixTokens: 1024, incrementTokens: 1, source: 'test rule' } };
  const run = (pricing: ModelPricing, system: number, cache: 'on' | 'recorded' = 'on', calls = distinctSteps(4, 100, 200)) =>
    replayTrace(trace(calls, { system, model: pricing.model }), { brakes: NO_BRAKES, strategy: { kind: 'full', cache }, prices: handTable(pricing), keepSteps: true });

  it('no prefix below the minimum is served; hits come in whole increments; the rest is counted', () => {
    // Prompts 700, 1000, 1300, 1600: the unchanged prefixes are 700, 1000, 1300.
    const r = run(openaiLike, 700);
    expect(r.rows.map((row) => row.cachedInputTokens)).toEqual([0, 0, 0, 1280]);
    expect(r.cacheRuleLostTokens).toBe(700 + 1000 + 20);
    expect(r.cacheNotes).toEqual(["m: unchanged prompt tokens not served from cache under the provider's minimum cacheable prefix (test rule)"]);
  });

  it('a prompt below the minimum is neither read from nor written to the cache (Anthropic-style writes)', () => {
    const r = run(anthropicLike, 700);
    // 700 and 1000 are below the minimum: nothing cached, nothing written; 1300 is written whole (the
    // 1000 before it was never cached); 1600 reads those 1300 and writes the rest.
    expect(r.rows.map((row) => [row.cachedInputTokens, row.cacheWriteTokens])).toEqual([
      [0, 0],
      [0, 0],
      [0, 1300],
      [1300, 300],
    ]);
  });

  it('recorded prompts: the overhead the growth model does not see (tool schemas, framing) is served with the prefix once a prompt was sent', () => {
    // Model prompts 700, 1000, 1300, 1600; each recorded 600 larger (schemas at the front, sent every time).
    const calls = distinctSteps(4, 100, 200).map((c, i) => ({ ...c, inputTokens: 700 + 300 * i + 600 }));
    const r = run(anthropicLike, 700, 'on', calls);
    expect(r.rows.map((row) => [row.inputTokens, row.cachedInputTokens, row.cacheWriteTokens])).toEqual([
      [1300, 0, 1300],
      [1600, 1300, 300],
      [1900, 1600, 300],
      [2200, 1900, 300],
    ]);
  });

  it('as recorded under a strategy: what the cache no longer serves is written again where the call recorded writes, never past the uncached prompt', () => {
    // Prompts 700, 1000, 1300 as recorded, each reading the one before from cache; window:1 leaves the
    // third at system + one step (1000), of which only the system's 700 are still cached.
    const recorded = (writes: { cacheWriteTokens?: number; cacheWrite1hTokens?: number }) =>
      distinctSteps(3, 100, 200).map((c, i) => ({ ...c, inputTokens: 700 + 300 * i, cachedInputTokens: i === 0 ? 0 : 400 + 300 * i, ...(i === 0 ? { cacheWriteTokens: 700 } : writes) }));
    // An hour's write at twice the input price, five minutes' at 1.25 times; a rule from 512 tokens, which
    // serves the system's 700 (the rule caps a read under a strategy: test/kernel/recordedCacheRule.test.ts).
    const withHour: ModelPricing = { ...anthropicLike, cacheRule: { ...anthropicLike.cacheRule!, minPrefixTokens: 512 }, base: { ...anthropicLike.base, cacheWrite1h: anthropicLike.base.input * 2 } };
    const windowed = (calls: ReturnType<typeof recorded>) =>
      replayTrace(trace(calls, { system: 700, model: withHour.model }), { brakes: NO_BRAKES, strategy: { kind: 'window', windowSteps: 1, cache: 'recorded' }, prices: handTable(withHour), keepSteps: true }).rows[2]!;
    // Recorded writes of 100 (5 minutes): the 300 moved out of the cache are written again, 300 in all (the uncached part).
    expect(windowed(recorded({ cacheWriteTokens: 100 }))).toMatchObject({ inputTokens: 1000, cachedInputTokens: 700, cacheWriteTokens: 300 });
    // Written for an hour: the same, at the hour's price.
    const hour = windowed(recorded({ cacheWrite1hTokens: 100 }));
    expect(hour).toMatchObject({ inputTokens: 1000, cachedInputTokens: 700, cacheWriteTokens: 300 });
    expect(hour.costPico).toBeGreaterThan(windowed(recorded({ cacheWriteTokens: 100 })).costPico);
    // A call that recorded no writes (a provider that bills none) writes nothing again.
    expect(windowed(recorded({}))).toMatchObject({ cachedInputTokens: 700, cacheWriteTokens: 0 });
  });

  it('cache on: a call that recorded its writes for an hour writes for an hour (at the hour\'s price), others for five minutes', () => {
    const withHour: ModelPricing = { ...anthropicLike, base: { ...anthropicLike.base, cacheWrite1h: anthropicLike.base.input * 2 } };
    const calls = (writes: { cacheWriteTokens?: number; cacheWrite1hTokens?: number }) => distinctSteps(2, 100, 1200).map((c, i) => ({ ...c, inputTokens: 1300 + 1300 * i, ...writes }));
    const costOf = (writes: { cacheWriteTokens?: number; cacheWrite1hTokens?: number }) =>
      replayTrace(trace(calls(writes), { system: 1300, model: withHour.model }), { brakes: NO_BRAKES, strategy: { kind: 'full', cache: 'on' }, prices: handTable(withHour), keepSteps: true });
    const hour = costOf({ cacheWrite1hTokens: 1300 });
    const minutes = costOf({ cacheWriteTokens: 1300 });
    expect(hour.rows.map((row) => [row.cachedInputTokens, row.cacheWriteTokens])).toEqual(minutes.rows.map((row) => [row.cachedInputTokens, row.cacheWriteTokens]));
    // 1,300 + 1,300 tokens written: at twice the input price for an hour, 1.25 times for five minutes.
    expect(hour.costPico - minutes.costPico).toBe((1300 + 1300) * (withHour.base.cacheWrite1h! - withHour.base.cacheWrite!));
  });

  it('recorded cache figures stay as recorded', () => {
    const calls = [call(100, [toolCall('t', {}, 100)], { inputTokens: 900, cachedInputTokens: 500 })];
    const r = run(openaiLike, 700, 'recorded', calls);
    expect(r.rows[0]!.cachedInputTokens).toBe(500);
    expect(r.cacheRuleLostTokens).toBe(0);
    expect(r.cacheNotes).toBeUndefined();
  });

  it('a model with no cached price: --cache on says it saves nothing', () => {
    const noCache = handPriced('plain', { input: 1, output: 2 });
    expect(cacheNotesOf(noCache, 0)).toEqual(['plain has no cached-input price below its input price: --cache on saves nothing']);
    expect(run(noCache, 2000).cacheNotes).toEqual(['plain has no cached-input price below its input price: --cache on saves nothing']);
  });
});

describe('the report says so', () => {
  it('one warning line per model carries the cache note, with the tokens and runs it concerns', async () => {
    const { cacheRuleWarnings } = await import('../../src/report/warnings.js');
    const pricing: ModelPricing = { ...handPriced('m', { input: 2.5, output: 10, cached: 1.25 }), cacheRule: { minPrefixTokens: 1024, incrementTokens: 128, source: 'test rule' } };
    const results = [700, 700].map((system) => replayTrace(trace(distinctSteps(4, 100, 200), { system, model: 'm' }), { brakes: NO_BRAKES, strategy: { kind: 'full', cache: 'on' }, prices: handTable(pricing) }));
    expect(cacheRuleWarnings(results).map((w) => w.message)).toEqual([
      "--cache on: m: unchanged prompt tokens not served from cache under the provider's minimum cacheable prefix (test rule) — 3,440 tokens over 2 runs",
    ]);
  });
});

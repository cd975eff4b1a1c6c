import { usage } from '../helpers.js';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { calcPrice } from '@pydantic/genai-prices';
import { picoToUsdString } from '../../src/money.js';
import {
  bundledPriceTable,
  buildTieredPrices,
  callCostPico,
  describePricing,
  pricesForInput,
  type CallUsage,
  type ModelPricing,
} from '../../src/pricing/index.js';


const table = bundledPriceTable();

describe('callCostPico with the bundled table', () => {
  it('prices gpt-4o, 12000 input with 8000 cached and 800 output, at exactly $0.028', () => {
    const pricing = table.resolve('gpt-4o');
    const cost = callCostPico(pricing, usage({ input: 12_000, cached: 8_000, output: 800 }));
    // 4000 × $2.50/M + 8000 × $1.25/M + 800 × $10/M = 0.01 + 0.01 + 0.008
    expect(cost).toBe(28_000_000_000);
    expect(picoToUsdString(cost)).toBe('0.028');
  });

  it('prices gpt-4o-mini at $0.15 / $0.60 per million tokens', () => {
    const pricing = table.resolve('gpt-4o-mini');
    expect(pricing.base.input).toBe(150_000);
    expect(pricing.base.output).toBe(600_000);
    expect(callCostPico(pricing, usage({ input: 1_000_000 }))).toBe(150_000_000_000);
    expect(callCostPico(pricing, usage({ output: 1_000_000 }))).toBe(600_000_000_000);
    expect(callCostPico(pricing, usage({ input: 1_000_000, output: 1_000_000 }))).toBe(750_000_000_000);
    const d = describePricing(pricing);
    expect(d.inputPerMTokUsd).toBe(0.15);
    expect(d.outputPerMTokUsd).toBe(0.6);
    expect(d.cachedInputPerMTokUsd).toBe(0.075);
    expect(d.provider).toBe('openai');
  });

  it('bills every token of a gemini-2.5-pro call above 200k input at the tier price', () => {
    const pricing = table.resolve('gemini-2.5-pro');
    expect(pricing.tiers).toEqual([
      { aboveInputTokens: 200_000, prices: { input: 2_500_000, cachedInput: 250_000, output: 15_000_000 } },
    ]);
    // At exactly 200k the base applies: 200000 × $1.25/M + 1000 × $10/M = 0.25 + 0.01
    expect(callCostPico(pricing, usage({ input: 200_000, output: 1_000 }))).toBe(260_000_000_000);
    // One token more and the whole prompt moves up: 200001 × $2.50/M + 1000 × $15/M
    expect(callCostPico(pricing, usage({ input: 200_001, output: 1_000 }))).toBe(515_002_500_000);
    // 250k input of which 50k cached, 2k output:
    // 200000 × $2.50/M + 50000 × $0.25/M + 2000 × $15/M = 0.5 + 0.0125 + 0.03 = $0.5425
    const cost = callCostPico(pricing, usage({ input: 250_000, cached: 50_000, output: 2_000 }));
    expect(cost).toBe(542_500_000_000);
    expect(picoToUsdString(cost)).toBe('0.5425');
  });

  it('prices anthropic cache writes (5 minute and 1 hour) and cache reads', () => {
    const pricing = table.resolve('claude-sonnet-4-5');
    expect(pricing.provider).toBe('anthropic');
    expect(pricing.base).toEqual({
      input: 3_000_000,
      cachedInput: 300_000,
      cacheWrite: 3_750_000,
      cacheWrite1h: 6_000_000,
      output: 15_000_000,
    });
    // 10000 input: 2000 cache read, 3000 written (5m), 1000 written (1h), 4000 uncached; 500 output.
    // 4000 × $3 + 2000 × $0.30 + 3000 × $3.75 + 1000 × $6 + 500 × $15 (per M) = $0.03735
    const cost = callCostPico(pricing, usage({ input: 10_000, cached: 2_000, cacheWrite: 3_000, cacheWrite1h: 1_000, output: 500 }));
    expect(cost).toBe(37_350_000_000);
  });

  it('agrees with genai-prices calcPrice on the same usage', () => {
    const cases: Array<[string, CallUsage]> = [
      ['gpt-4o', usage({ input: 12_000, cached: 8_000, output: 800 })],
      ['claude-sonnet-4-5', usage({ input: 10_000, cached: 2_000, cacheWrite: 3_000, cacheWrite1h: 1_000, output: 500 })],
      ['claude-sonnet-4-5', usage({ input: 300_000, cached: 100_000, cacheWrite: 50_000, output: 4_000 })],
      ['gemini-2.5-pro', usage({ input: 250_000, cached: 50_000, output: 2_000 })],
      ['o3', usage({ input: 5_000, cached: 1_000, output: 3_000, reasoning: 2_500 })],
    ];
    for (const [model, u] of cases) {
      const ours = callCostPico(table.resolve(model), u);
      const theirs = calcPrice(
        {
          input_tokens: u.input,
          cache_read_tokens: u.cached,
          cache_write_tokens: u.cacheWrite + u.cacheWrite1h,
          cache_write_1h_tokens: u.cacheWrite1h,
          output_tokens: u.output,
          output_reasoning_tokens: u.reasoning,
        },
        model,
      );
      expect(theirs, model).not.toBeNull();
      expect(ours / 1e12, model).toBeCloseTo(theirs!.total_price, 12);
    }
  });

  it('prices reasoning tokens at the output price when there is no reasoning price', () => {
    const pricing = table.resolve('o3');
    expect(pricing.base.reasoning).toBeUndefined();
    const withReasoning = callCostPico(pricing, usage({ input: 1_000, output: 3_000, reasoning: 2_500 }));
    const plain = callCostPico(pricing, usage({ input: 1_000, output: 3_000 }));
    expect(withReasoning).toBe(plain);
  });

  it('clamps uncached input at zero when cached parts exceed the input', () => {
    const pricing = table.resolve('gpt-4o');
    // 5000 cached × $1.25/M; no negative uncached part
    expect(callCostPico(pricing, usage({ input: 4_000, cached: 5_000 }))).toBe(6_250_000_000);
  });
});

describe('pricesForInput', () => {
  const pricing: ModelPricing = {
    requested: 'm',
    model: 'm',
    base: { input: 1, output: 2 },
    tiers: [
      { aboveInputTokens: 100, prices: { input: 10, output: 20 } },
      { aboveInputTokens: 1_000, prices: { input: 100, output: 200 } },
    ],
    source: { name: 'test', version: 'file', hash: '0' },
  };
  it('selects the last tier whose threshold is strictly exceeded', () => {
    expect(pricesForInput(pricing, 0).input).toBe(1);
    expect(pricesForInput(pricing, 100).input).toBe(1);
    expect(pricesForInput(pricing, 101).input).toBe(10);
    expect(pricesForInput(pricing, 1_000).input).toBe(10);
    expect(pricesForInput(pricing, 1_001).input).toBe(100);
  });
});

describe('buildTieredPrices', () => {
  it('merges per-key tiers into model-wide tiers at the union of thresholds', () => {
    const { base, tiers } = buildTieredPrices({
      input: { base: 1, tiers: [{ aboveInputTokens: 200, price: 2 }] },
      cachedInput: { base: 0, tiers: [] },
      output: { base: 5, tiers: [{ aboveInputTokens: 100, price: 6 }, { aboveInputTokens: 300, price: 7 }] },
    });
    expect(base).toEqual({ input: 1, cachedInput: 0, output: 5 });
    expect(tiers).toEqual([
      { aboveInputTokens: 100, prices: { input: 1, cachedInput: 0, output: 6 } },
      { aboveInputTokens: 200, prices: { input: 2, cachedInput: 0, output: 6 } },
      { aboveInputTokens: 300, prices: { input: 2, cachedInput: 0, output: 7 } },
    ]);
  });
});

describe('callCostPico properties', () => {
  const models = ['gpt-4o', 'claude-sonnet-4-5', 'gemini-2.5-pro', 'o3', 'gpt-4o-mini'].map((m) => table.resolve(m));
  const arbUsage = fc
    .record({
      uncached: fc.integer({ min: 0, max: 400_000 }),
      cached: fc.integer({ min: 0, max: 400_000 }),
      cacheWrite: fc.integer({ min: 0, max: 100_000 }),
      cacheWrite1h: fc.integer({ min: 0, max: 100_000 }),
      output: fc.integer({ min: 0, max: 100_000 }),
      reasoningShare: fc.double({ min: 0, max: 1, noNaN: true }),
    })
    .map(
      (r): CallUsage => ({
        input: r.uncached + r.cached + r.cacheWrite + r.cacheWrite1h,
        cached: r.cached,
        cacheWrite: r.cacheWrite,
        cacheWrite1h: r.cacheWrite1h,
        output: r.output,
        reasoning: Math.floor(r.output * r.reasoningShare),
      }),
    );
  const arbModel = fc.constantFrom(...models);
  const arbExtra = fc.integer({ min: 1, max: 300_000 });

  it('is a non-negative safe integer', () => {
    fc.assert(
      fc.property(arbModel, arbUsage, (pricing, u) => {
        const cost = callCostPico(pricing, u);
        expect(Number.isSafeInteger(cost)).toBe(true);
        expect(cost).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  it('is monotone non-decreasing in output tokens', () => {
    fc.assert(
      fc.property(arbModel, arbUsage, arbExtra, (pricing, u, extra) => {
        expect(callCostPico(pricing, { ...u, output: u.output + extra })).toBeGreaterThanOrEqual(callCostPico(pricing, u));
      }),
    );
  });

  it('is monotone non-decreasing in uncached input tokens, across tier thresholds', () => {
    fc.assert(
      fc.property(arbModel, arbUsage, arbExtra, (pricing, u, extra) => {
        expect(callCostPico(pricing, { ...u, input: u.input + extra })).toBeGreaterThanOrEqual(callCostPico(pricing, u));
      }),
    );
  });
});

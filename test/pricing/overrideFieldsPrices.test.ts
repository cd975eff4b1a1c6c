/**
 * `--prices-override` merges by field, not by entry, as LiteLLM's register_model does: each LiteLLM field an
 * entry gives replaces the bundled table's (`input_cost_per_token` the input price below every tier,
 * `input_cost_per_token_above_200k_tokens` the input price above 200k, … `max_input_tokens` the window),
 * and every field it leaves out keeps the table's, exact to the picodollar. (Before, an entry without both
 * input and output prices was skipped, and one with them replaced the whole model: window, cache prices
 * and tiers lost.)
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { callCostPico, loadPriceTable } from '../../src/pricing/index.js';
import { usage } from '../helpers.js';
import { cli, tempDir } from '../cli/run.js';

const dir = tempDir();
let files = 0;
function overrides(data: Record<string, Record<string, unknown>>): string {
  const path = join(dir, `override-${++files}.json`);
  writeFileSync(path, JSON.stringify(data));
  return path;
}

describe('a --prices-override entry that gives some prices of a model the table has', () => {
  it('an input price alone: the input price is the file’s, output, cache price and window the table’s', () => {
    const table = loadPriceTable().resolve('gpt-4o');
    expect(table.base).toEqual({ input: 2_500_000, cachedInput: 1_250_000, output: 10_000_000 });
    const file = overrides({ 'gpt-4o': { input_cost_per_token: 2e-6 } });
    const pricing = loadPriceTable({ overridesFile: file }).resolve('gpt-4o');
    expect(pricing.base).toEqual({ input: 2_000_000, cachedInput: 1_250_000, output: 10_000_000 });
    expect(pricing.contextWindow).toBe(128_000);
    expect(pricing.source).toMatchObject({ name: '@pydantic/genai-prices', overrides: { name: file } });
    // 600 uncached × 2,000,000 + 400 cached × 1,250,000 + 100 output × 10,000,000 picodollars.
    expect(callCostPico(pricing, usage({ input: 1_000, cached: 400, output: 100 }))).toBe(2_700_000_000);
  });

  it('input and output prices without a window keep the table’s window, cache prices and tiers', () => {
    const file = overrides({ 'claude-sonnet-4-5': { input_cost_per_token: 2e-6, output_cost_per_token: 1e-5, litellm_provider: 'anthropic', mode: 'chat' } });
    const pricing = loadPriceTable({ overridesFile: file }).resolve('claude-sonnet-4-5');
    expect(pricing.contextWindow).toBe(200_000);
    expect(pricing.base).toEqual({ input: 2_000_000, output: 10_000_000, cachedInput: 300_000, cacheWrite: 3_750_000, cacheWrite1h: 6_000_000 });
    // The table's own fields above 200k tokens (LiteLLM: input_cost_per_token_above_200k_tokens, …) stay: the file gave none.
    expect(pricing.tiers).toEqual([{ aboveInputTokens: 200_000, prices: { input: 6_000_000, output: 22_500_000, cachedInput: 600_000, cacheWrite: 7_500_000, cacheWrite1h: 12_000_000 } }]);

    // A model the table lacks is priced by its complete entry alone, as before, and says so.
    const alone = loadPriceTable({ overridesFile: overrides({ 'my-finetune': { input_cost_per_token: 1e-6, output_cost_per_token: 4e-6 } }) }).resolve('my-finetune');
    expect(alone.base).toEqual({ input: 1_000_000, output: 4_000_000 });
    expect(alone.source.version).toBe('file');
  });

  it('a tier field or a cache price alone changes that field only, exactly', () => {
    const table = loadPriceTable().resolve('gemini-2.5-pro');
    const file = overrides({
      'gemini-2.5-pro': { input_cost_per_token: 1.1e-6, output_cost_per_token_above_200k_tokens: 1.6e-5 },
      'gpt-4o-mini': { cache_read_input_token_cost: 3.3e-8 },
    });
    const prices = loadPriceTable({ overridesFile: file });
    const gemini = prices.resolve('gemini-2.5-pro');
    expect(gemini.base).toEqual({ ...table.base, input: 1_100_000 });
    expect(gemini.tiers).toEqual([{ aboveInputTokens: 200_000, prices: { input: 2_500_000, cachedInput: 250_000, output: 16_000_000 } }]);
    expect(gemini.contextWindow).toBeUndefined();
    // 200,001 tokens (whole prompt above 200k): every token at the tier, the output at the file's tier price.
    expect(callCostPico(gemini, usage({ input: 200_001, output: 1_000 }))).toBe(200_001 * 2_500_000 + 1_000 * 16_000_000);
    expect(callCostPico(gemini, usage({ input: 200_000, output: 1_000 }))).toBe(200_000 * 1_100_000 + 1_000 * 10_000_000);
    expect(prices.resolve('gpt-4o-mini').base).toEqual({ input: 150_000, cachedInput: 33_000, output: 600_000 });
    expect(prices.resolve('gpt-4o-mini').contextWindow).toBe(128_000);
  });

  it('curve reports the merged prices with the table’s window and the file named', async () => {
    const file = overrides({ 'gpt-4o': { input_cost_per_token: 2e-6 } });
    const json = JSON.parse((await cli('curve', '--model', 'gpt-4o', '--system-tokens', '500', '--output-tokens', '150', '--tool-tokens', '2050', '--steps', '100', '--context-window', 'model', '--prices-override', file, '--format', 'json')).stdout);
    expect(json.pricing).toMatchObject({ inputPerMTokUsd: 2, cachedInputPerMTokUsd: 1.25, outputPerMTokUsd: 10, contextWindow: 128_000 });
    // 128,000 − 4,096 = 123,904 allowed: step 57 sends 123,700, step 58 would send 125,900.
    expect(json.stop.reason).toBe('context_overflow');
    expect(json.rows).toHaveLength(57);
    expect(json.rows[0].costUsd).toBeCloseTo(500 * 2e-6 + 150 * 10e-6, 12);
    expect(json.prices.overrides.name).toBe(file);
  });
});

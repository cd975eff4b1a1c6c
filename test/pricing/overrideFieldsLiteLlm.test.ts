/**
 * LiteLLM's own whole files (../shared/prices, when present) still read as they did: as `--prices`, the
 * same 393 token-priced models at the same prices and windows, the same 41 chat entries priced otherwise
 * than per token; its image, audio and embedding entries without per-token prices are no models, and
 * asking for one now says what its entry lacks instead of "unknown model". As `--prices-override`, the
 * whole file reads with no refusal (its entries priced otherwise are skipped, not read as window-only
 * overrides), a model in both takes the file's fields and the bundled table's for the rest.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadLiteLlmTable, loadPriceTable } from '../../src/pricing/index.js';
import { userErrorOf } from '../helpers.js';

const LITELLM_2024 = '../shared/prices/litellm-2024.json';
const MODERN = '../shared/prices/litellm-modern-fixture.json';

describe.skipIf(!existsSync(LITELLM_2024) || !existsSync(MODERN))("LiteLLM's own files", () => {
  it('as --prices: the same models and prices as before; an entry priced otherwise says so when asked for', () => {
    const table = loadLiteLlmTable(LITELLM_2024);
    expect(table.modelNames()).toHaveLength(393);
    expect(table.unpriced).toHaveLength(41);
    expect(table.resolve('gpt-4o')).toMatchObject({ model: 'gpt-4o', provider: 'openai', base: { input: 5_000_000, output: 15_000_000 }, tiers: [], contextWindow: 128_000 });
    expect(table.resolve('claude-3-5-sonnet-20240620')).toMatchObject({ base: { input: 3_000_000, output: 15_000_000 }, contextWindow: 200_000 });
    expect(table.resolve('gemini-1.5-pro')).toMatchObject({
      base: { input: 5_000_000, output: 15_000_000 },
      tiers: [{ aboveInputTokens: 128_000, prices: { input: 10_000_000, output: 30_000_000 } }],
      contextWindow: 2_097_152,
    });
    expect(table.resolve('deepseek-chat').base).toEqual({ input: 140_000, output: 280_000 });
    expect(loadLiteLlmTable(MODERN).modelNames()).toHaveLength(7);

    // whisper-1 (per second), an embedding entry without an output price, an entry with no price at all.
    const whisper = userErrorOf(() => table.resolve('whisper-1')).issues[0]!;
    expect(whisper).toMatchObject({ file: LITELLM_2024, field: 'whisper-1', code: 'unpriced_model' });
    expect(whisper.message).toBe("model 'whisper-1' is not priced: its entry (mode audio_transcription) gives no per-token prices (only input_cost_per_second, output_cost_per_second)");
    expect(userErrorOf(() => table.resolve('mistral/mistral-embed')).issues[0]!.message).toBe(
      "model 'mistral/mistral-embed' is not priced: its entry (mode embedding) gives no output_cost_per_token (only max_input_tokens, input_cost_per_token)",
    );
    expect(userErrorOf(() => table.resolve('together_ai/mistralai/Mistral-7B-Instruct-v0.1')).issues[0]!.message).toMatch(/its entry gives no prices$/);
    // A chat entry priced per character, as before, is found under its own name and refused.
    expect(userErrorOf(() => table.resolve('medlm-medium')).issues[0]).toMatchObject({ field: 'medlm-medium', code: 'unpriced_model' });
  });

  it('as --prices-override: reads whole; a model in both takes the file’s fields, the table’s for the rest', () => {
    const prices = loadPriceTable({ overridesFile: LITELLM_2024 });
    const bundled = loadPriceTable();
    // gpt-4o: input, output and window from the file; the cached price (the file of 2024 has none) the table's.
    expect(prices.resolve('gpt-4o')).toMatchObject({ base: { input: 5_000_000, output: 15_000_000, cachedInput: bundled.resolve('gpt-4o').base.cachedInput }, contextWindow: 128_000 });
    expect(prices.resolve('gpt-4o').source).toMatchObject({ name: '@pydantic/genai-prices', overrides: { name: LITELLM_2024 } });
    // Every field of gemini-1.5-pro the table has, the file gives: priced by the file alone, and says so.
    expect(prices.resolve('gemini-1.5-pro')).toMatchObject({ base: { input: 5_000_000, output: 15_000_000 }, contextWindow: 2_097_152, source: { name: LITELLM_2024, version: 'file' } });
    // Only in the file; only in the table.
    expect(prices.resolve('luminous-base')).toMatchObject({ base: { input: 30_000_000, output: 33_000_000 }, source: { version: 'file' } });
    expect(prices.resolve('gemini-2.5-pro')).toEqual(bundled.resolve('gemini-2.5-pro'));
    expect(loadPriceTable({ overridesFile: MODERN }).resolve('xai/grok-2').source.version).toBe('file');
  });
});

import { userErrorOf, usage } from '../helpers.js';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  callCostPico,
  describePricing,
  LiteLlmPriceTable,
  loadLiteLlmTable,
  loadPriceTable,
  parseLiteLlmTable,
} from '../../src/pricing/index.js';

const fixture = (name: string): string => fileURLToPath(new URL(`../fixtures/prices/${name}`, import.meta.url));
const EXCERPT = fixture('litellm-2024-excerpt.json');
const MODERN = fixture('litellm-modern-fixture.json');
const TIERS = fixture('litellm-tiers-synthetic.json');



describe('LiteLLM price file', () => {
  it('loads per-token prices, context window and provider; source is the path and the bytes hash', () => {
    const table = loadPriceTable({ pricesFile: EXCERPT });
    expect(table).toBeInstanceOf(LiteLlmPriceTable);
    expect(table.source).toEqual({
      name: EXCERPT,
      version: 'file',
      hash: createHash('sha256').update(readFileSync(EXCERPT)).digest('hex').slice(0, 16),
    });
    const gpt4o = table.resolve('gpt-4o');
    expect(gpt4o).toMatchObject({
      requested: 'gpt-4o',
      model: 'gpt-4o',
      provider: 'openai',
      contextWindow: 128_000,
      base: { input: 5_000_000, output: 15_000_000 },
      tiers: [],
    });
    expect(callCostPico(gpt4o, usage({ input: 1_000, output: 100 }))).toBe(6_500_000_000);
  });

  it('strips a provider prefix: openai/gpt-4o is gpt-4o', () => {
    const table = loadLiteLlmTable(EXCERPT);
    const pricing = table.resolve('openai/gpt-4o');
    expect(pricing.model).toBe('gpt-4o');
    expect(pricing.requested).toBe('openai/gpt-4o');
    expect(pricing.base.input).toBe(5_000_000);
    expect(table.resolve('openai:gpt-4o-mini').model).toBe('gpt-4o-mini');
  });

  it('finds a prefixed key from the bare name when only one key ends in it', () => {
    const table = loadLiteLlmTable(MODERN);
    expect(table.resolve('gemini-robotics-er-1.5-preview').model).toBe('gemini/gemini-robotics-er-1.5-preview');
  });

  it('maps above_128k prices to a whole-prompt tier', () => {
    const pricing = loadLiteLlmTable(EXCERPT).resolve('gemini-1.5-pro');
    expect(pricing.tiers).toEqual([{ aboveInputTokens: 128_000, prices: { input: 10_000_000, output: 30_000_000 } }]);
    // 128000 × $5/M + 1000 × $15/M; then 128001 × $10/M + 1000 × $30/M
    expect(callCostPico(pricing, usage({ input: 128_000, output: 1_000 }))).toBe(655_000_000_000);
    expect(callCostPico(pricing, usage({ input: 128_001, output: 1_000 }))).toBe(1_310_010_000_000);
  });

  it('skips sample_spec and non-chat entries without token prices; lists unpriced chat entries', () => {
    const modern = loadLiteLlmTable(MODERN);
    expect(modern.modelNames()).not.toContain('sample_spec');
    expect(modern.modelNames()).not.toContain('1024-x-1024/50-steps/stability.stable-diffusion-xl-v1');
    expect(modern.modelNames()).toContain('ollama/codegeex4');
    expect(modern.unpriced).toEqual([]);

    const excerpt = loadLiteLlmTable(EXCERPT);
    expect(excerpt.modelNames()).not.toContain('256-x-256/dall-e-2');
    expect(excerpt.unpriced).toEqual(['medlm-medium']);
    const error = userErrorOf(() => excerpt.resolve('medlm-medium'));
    expect(error.issues[0]).toMatchObject({ file: EXCERPT, field: 'medlm-medium', code: 'unpriced_model' });
  });

  it('reads cache read, reasoning and zero prices', () => {
    const modern = loadLiteLlmTable(MODERN);
    const robotics = modern.resolve('gemini/gemini-robotics-er-1.5-preview');
    expect(robotics.base).toEqual({ input: 300_000, cachedInput: 0, output: 2_500_000, reasoning: 2_500_000 });
    expect(robotics.contextWindow).toBe(1_048_576);
    const azure = modern.resolve('azure/eu/gpt-4o-2024-08-06');
    expect(azure.base).toEqual({ input: 2_750_000, cachedInput: 1_375_000, output: 11_000_000 });
    const qwen = modern.resolve('dashscope/qwen-plus-2025-04-28');
    // 1000 output of which 600 reasoning: 400 × $1.20/M + 600 × $4/M
    expect(callCostPico(qwen, usage({ output: 1_000, reasoning: 600 }))).toBe(2_880_000_000);
  });

  it('prices cache writes and every _above_Nk_tokens tier like the bundled anthropic table', () => {
    const table = loadLiteLlmTable(TIERS);
    const claude = table.resolve('anthropic/claude-sonnet-4-5');
    expect(claude.base).toEqual({
      input: 3_000_000,
      cachedInput: 300_000,
      cacheWrite: 3_750_000,
      cacheWrite1h: 6_000_000,
      output: 15_000_000,
    });
    expect(claude.tiers).toEqual([
      {
        aboveInputTokens: 200_000,
        prices: { input: 6_000_000, cachedInput: 600_000, cacheWrite: 7_500_000, cacheWrite1h: 12_000_000, output: 22_500_000 },
      },
    ]);
    expect(
      callCostPico(claude, usage({ input: 10_000, cached: 2_000, cacheWrite: 3_000, cacheWrite1h: 1_000, output: 500 })),
    ).toBe(37_350_000_000);

    const reasoner = table.resolve('o-reasoner-test');
    expect(reasoner.tiers.map((t) => [t.aboveInputTokens, t.prices.input, t.prices.output])).toEqual([
      [128_000, 4_000_000, 8_000_000],
      [1_000_000, 8_000_000, 8_000_000],
    ]);
    expect(describePricing(reasoner)).toMatchObject({ reasoningPerMTokUsd: 10, tiers: [{ inputPerMTokUsd: 4 }, { inputPerMTokUsd: 8 }] });
  });

  it('does not fall back to the bundled table', () => {
    const error = userErrorOf(() => loadPriceTable({ pricesFile: EXCERPT }).resolve('claude-sonnet-4-5'));
    expect(error.issues[0]).toMatchObject({ file: EXCERPT, field: 'model', code: 'unknown_model' });
  });
});

describe('LiteLLM price file errors', () => {
  it('reports malformed JSON with the file and line', () => {
    const file = fixture('litellm-bad-json.json');
    const error = userErrorOf(() => loadLiteLlmTable(file));
    expect(error.issues).toHaveLength(1);
    expect(error.issues[0]).toMatchObject({ file, line: 5, code: 'invalid_json' });
    expect(error.issues[0]!.hint).toContain('model_prices_and_context_window.json');
  });

  it('reports negative and non-numeric prices by model key and field', () => {
    const file = fixture('litellm-negative-price.json');
    const error = userErrorOf(() => loadLiteLlmTable(file));
    expect(error.issues).toEqual([
      expect.objectContaining({ file, field: 'gpt-4o.input_cost_per_token', code: 'negative_number' }),
      expect.objectContaining({ file, field: 'gpt-4o-mini.output_cost_per_token', code: 'invalid_number' }),
    ]);
    for (const issue of error.issues) expect(issue.hint).toBeTruthy();
    expect(error.message).toContain("field 'gpt-4o.input_cost_per_token'");
  });

  it('rejects a top level that is not an object, and an entry that is not an object', () => {
    const top = userErrorOf(() => parseLiteLlmTable('[{"input_cost_per_token": 1e-6}]', 'prices.json'));
    expect(top.issues[0]).toMatchObject({ file: 'prices.json', code: 'invalid_type' });
    const entry = userErrorOf(() => parseLiteLlmTable('{"gpt-4o": 3}', 'prices.json'));
    expect(entry.issues[0]).toMatchObject({ file: 'prices.json', field: 'gpt-4o', code: 'invalid_type' });
  });

  it('reports a missing file', () => {
    const file = fixture('no-such-file.json');
    const error = userErrorOf(() => loadPriceTable({ pricesFile: file }));
    expect(error.issues[0]).toMatchObject({ file, code: 'file_not_found' });
  });

  it('rejects an unknown model with suggestions from the file', () => {
    const error = userErrorOf(() => loadLiteLlmTable(EXCERPT).resolve('gpt4o'));
    expect(error.issues).toHaveLength(1);
    const [issue] = error.issues;
    expect(issue).toMatchObject({ file: EXCERPT, field: 'model', code: 'unknown_model', message: "unknown model 'gpt4o'" });
    expect(issue!.hint).toMatch(/^did you mean gpt-4o, gpt-4o-mini\b/);
    expect(issue!.hint).toContain(`loopcost prices --prices ${EXCERPT}`);
  });
});

/**
 * loopcost's corrections to the bundled price table (@pydantic/genai-prices 0.1.8, never updated): data
 * only, applied when the table resolves a model (priceCorrections.ts), so every command, the compiled
 * engines and `loopcost prices` see one table. Each entry names the table's provider and model ids, the
 * days it applies (`from` inclusive, `before` exclusive, UTC days, as the table's own dated rows: a run by
 * the day it was recorded, else `--prices-as-of`, else the table's release day), what it replaces
 * (genai-prices' own keys, USD per million tokens; or the table model it is priced as; or the window),
 * and the public source of each figure. Changing any entry means raising PRICE_CORRECTIONS_VERSION: a
 * test holds the data's hash to the version, and reports name both.
 */
import type { PriceCorrection } from './priceCorrections.js';

export const PRICE_CORRECTIONS_VERSION = '1';

/** Anthropic's long-context prices (above 200,000 prompt tokens, for the whole call) as genai-prices tiers. */
const above200k = (base: number, price: number) => ({ base, tiers: [{ start: 200_000, price }] });

const DEEPSEEK_MODELS = ['deepseek-chat', 'deepseek-reasoner'];

export const PRICE_CORRECTIONS: readonly PriceCorrection[] = [
  {
    provider: 'anthropic',
    models: ['claude-sonnet-4-0'],
    from: '2025-08-12',
    prices: {
      input_mtok: above200k(3, 6),
      cache_write_mtok: above200k(3.75, 7.5),
      cache_write_1h_mtok: above200k(6, 12),
      cache_read_mtok: above200k(0.3, 0.6),
      output_mtok: above200k(15, 22.5),
    },
    what: 'Claude Sonnet 4 above 200,000 prompt tokens (1M-context beta): $6 input, $0.60 cache read, $7.50 / $12 cache writes, $22.50 output per million for the whole call',
    source: { url: 'https://docs.anthropic.com/en/docs/about-claude/pricing#long-context-pricing', dated: '2025-08-12' },
  },
  {
    provider: 'google',
    models: ['claude-4-sonnet'],
    from: '2025-08-12',
    prices: {
      input_mtok: above200k(3, 6),
      cache_write_mtok: above200k(3.75, 7.5),
      cache_read_mtok: above200k(0.3, 0.6),
      output_mtok: above200k(15, 22.5),
    },
    what: 'Claude Sonnet 4 on Vertex AI above 200,000 prompt tokens (1M context): $6 input, $0.60 cache read, $7.50 cache write, $22.50 output per million for the whole call',
    source: { url: 'https://cloud.google.com/vertex-ai/generative-ai/pricing#claude-models', dated: '2025-08-12' },
  },
  {
    provider: 'openai',
    models: ['o3'],
    before: '2025-06-10',
    prices: { cache_read_mtok: 2.5 },
    what: 'o3 before its 2025-06-10 price cut: cached input $2.50 per million (launch prices $10 / $2.50 / $40), not $0.50',
    source: { url: 'https://openai.com/index/introducing-o3-and-o4-mini/', dated: '2025-04-16' },
  },
  {
    provider: 'openai',
    models: ['gpt-4o'],
    askedAs: 'gpt-4o',
    before: '2024-10-02',
    pricedAs: 'gpt-4o-2024-05-13',
    what: 'the gpt-4o alias meant gpt-4o-2024-05-13 ($5 / $15 per million) until 2024-10-02, when it moved to gpt-4o-2024-08-06',
    source: { url: 'https://platform.openai.com/docs/models/gpt-4o', dated: '2024-10-02' },
  },
  {
    provider: 'deepseek',
    models: DEEPSEEK_MODELS,
    from: '2025-08-21',
    contextWindow: 128_000,
    what: 'DeepSeek V3.1 and later behind deepseek-chat / deepseek-reasoner: a 128K context window, not 64K',
    source: { url: 'https://api-docs.deepseek.com/news/news250821', dated: '2025-08-21' },
  },
  {
    provider: 'deepseek',
    models: DEEPSEEK_MODELS,
    from: '2025-09-06',
    before: '2025-09-29',
    prices: { input_mtok: 0.56, cache_read_mtok: 0.07, output_mtok: 1.68 },
    what: 'DeepSeek V3.1 prices from 2025-09-05 16:00 UTC (off-peak discount ended): $0.56 input, $0.07 cache hit, $1.68 output per million',
    source: { url: 'https://api-docs.deepseek.com/news/news250821', dated: '2025-08-21' },
  },
  {
    provider: 'deepseek',
    models: DEEPSEEK_MODELS,
    from: '2025-09-29',
    prices: { input_mtok: 0.28, cache_read_mtok: 0.028, output_mtok: 0.42 },
    what: 'DeepSeek V3.2 prices from 2025-09-29: $0.28 input, $0.028 cache hit, $0.42 output per million',
    source: { url: 'https://api-docs.deepseek.com/news/news250929', dated: '2025-09-29' },
  },
  {
    provider: 'google',
    models: ['gemini-2.5-flash-preview'],
    prices: { output_reasoning_mtok: 3.5 },
    what: 'Gemini 2.5 Flash preview (04-17, 05-20): thinking output $3.50 per million, not the $0.60 of output without thinking',
    source: { url: 'https://developers.googleblog.com/en/start-building-with-gemini-25-flash/', dated: '2025-04-17' },
  },
];

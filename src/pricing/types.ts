import type { Pico } from '../money.js';

/** Prices of one model in integer picodollars per token. Absent optional prices fall back as noted. */
export interface TokenPrices {
  input: Pico;
  /** Cache read; falls back to input. */
  cachedInput?: Pico;
  /** Cache write, 5-minute TTL; falls back to input. */
  cacheWrite?: Pico;
  /** Cache write, 1-hour TTL; falls back to cacheWrite, then input. */
  cacheWrite1h?: Pico;
  output: Pico;
  /** Reasoning tokens; falls back to output. */
  reasoning?: Pico;
}

/**
 * Whole-prompt tiers: when a call's input tokens exceed `aboveInputTokens`, every token of that call is
 * billed at the tier's prices (Gemini 2.5 Pro, Claude long context). Sorted ascending.
 */
export interface PriceTier {
  aboveInputTokens: number;
  prices: TokenPrices;
}

export interface ModelPricing {
  /** Name the user asked for. */
  requested: string;
  /** Name the table knows it by. */
  model: string;
  provider?: string;
  base: TokenPrices;
  tiers: PriceTier[];
  contextWindow?: number;
  source: PriceSource;
  /** The provider's minimum cacheable prefix (applied with `--cache on`; see cacheRules.ts). */
  cacheRule?: CacheRule;
  /**
   * The fee per web search run inside a call, in picodollars, billed on top of the tokens (the bundled
   * table's `web_searches_kcount` / 1,000: $10 per 1,000 is 10,000,000,000). Absent: the table prices none
   * (a LiteLLM file prices none), so a call's searches cost nothing here and its import note says so.
   */
  webSearchPico?: Pico;
  /** The fee per request, in picodollars, billed on every call on top of its tokens (the bundled table's `requests_kcount` / 1,000: Perplexity's sonar models). Absent: none. */
  requestPico?: Pico;
  /** loopcost's corrections to the bundled table applied to this model on its day (priceCorrections.ts); absent: none. */
  corrected?: readonly PricingCorrection[];
  /** Priced as another provider's model than the one asked for, which the table does not price it for (providerFallback.ts); absent: the provider asked for (or none asked). */
  providerFallback?: ProviderFallback;
}

/** The provider a model was asked to be priced for (resolve's `provider`, a trace's `header.provider`), and in words whose price it got instead and how to give that provider's. */
export interface ProviderFallback {
  asked: string;
  detail: string;
}

/** A correction applied to a model's prices: what, and the public source of its figures (URL, the source's date). */
export interface PricingCorrection {
  what: string;
  source: string;
  dated: string;
}

/** loopcost's corrections overlay on the bundled table, as reports name it (priceCorrections.ts). */
export interface PriceCorrectionsSource {
  name: string;
  version: string;
  /** How many corrections the overlay holds (each applies to its models on its days only). */
  count: number;
  /** sha256 of the overlay's data (first 16 hex digits). */
  hash: string;
}

/** Prompt caching serves no prefix below `minPrefixTokens`, and hits in multiples of `incrementTokens`. */
export interface CacheRule {
  minPrefixTokens: number;
  incrementTokens: number;
  /** The rule in words with its numbers and where they come from (provider and model family): reports quote it as it is. */
  source: string;
}

export interface PriceSource {
  /** `@pydantic/genai-prices` or the path of a LiteLLM JSON file. */
  name: string;
  /** Package version, or `file` for a user file. */
  version: string;
  /** sha256 of the price data (first 16 hex digits). */
  hash: string;
  /**
   * The day (YYYY-MM-DD) at which dated prices were read. On a table: the day `--prices-as-of` gave (absent:
   * each run's own day, see `dating`). On a resolved model's pricing: the day its prices were read at.
   */
  asOf?: string;
  /**
   * Why a resolved model's prices are those of `asOf`: `as-of` (`--prices-as-of`), `recorded` (the day the
   * run was recorded, trace `header.recordedAt`), `release` (the table's release day: the run has no
   * recording date). Absent for tables without dated prices (LiteLLM files).
   */
  dating?: 'as-of' | 'recorded' | 'release';
  /** The bundled table's release day (YYYY-MM-DD): dated prices announced after it are not in it. */
  releasedOn?: string;
  /** A LiteLLM file whose models override the table's (`--prices-override`). */
  overrides?: { name: string; hash: string };
  /** loopcost's corrections applied over the bundled table (absent for LiteLLM files, which are taken as given). */
  corrections?: PriceCorrectionsSource;
}

/** Token usage of one call as the pricer sees it. cached/cacheWrite are parts of input, reasoning of output. */
export interface CallUsage {
  input: number;
  cached: number;
  cacheWrite: number;
  cacheWrite1h: number;
  output: number;
  reasoning: number;
  /** Web searches run inside the call, billed per search on top of the tokens (absent: none). */
  webSearches?: number;
  /** The call failed with no usage (kernel/cost.ts billedCall): it pays no fee per request and no web searches (absent: billed). */
  unbilled?: true;
}

export interface PriceTable {
  source: PriceSource;
  /**
   * Resolves a model once (per day, for dated prices); throws UserError with near-name suggestions when
   * unknown. `recordedAt` (ISO 8601, a trace's `header.recordedAt`) picks the dated prices in effect then.
   */
  resolve(model: string, provider?: string, recordedAt?: string): ModelPricing;
  /** All model names known (for suggestions and `loopcost prices`). */
  modelNames(): string[];
}

/**
 * Prices flattened once per model into one Float64Array of rows, each row a whole-prompt tier (row 0 the
 * base prices), every fallback resolved, plus the provider's minimum cacheable prefix: the rule the pricing
 * states, else its provider's (pricing/cacheRules.ts cacheRuleOf), taken here, once, for every engine and
 * every caller. The cost formula (cost.ts), the predictive bound and the meter read these.
 */
import type { ModelPricing, TokenPrices } from '../pricing/types.js';
import { cacheRuleOf } from '../pricing/cacheRules.js';

export const enum PriceField {
  /** The tier applies when the prompt is larger than this (−Infinity for the base row). */
  Above,
  Input,
  Cached,
  CacheWrite,
  CacheWrite1h,
  Output,
  Reasoning,
  Stride,
}

export interface FlatPrices {
  /** The model priced: a cache is the model's own (a summary on another model reads nothing from it). */
  model: string;
  /** (tiers + 1) rows of PriceField.Stride numbers. */
  rows: Float64Array;
  tiers: number;
  /** The model bills cache writes (Anthropic-style): with cache on, what the cache did not serve is written. */
  hasCacheWritePrice: boolean;
  /** The model has a cache-read price below its input price (else caching saves nothing). */
  cacheSaves: boolean;
  contextWindow: number;
  /** Cache on: no prompt below this is cached, and a hit below it is not served. */
  minCachePrefix: number;
  /** Cache on: hits are served in multiples of this many tokens. */
  cacheIncrement: number;
  /** Every price is a whole non-negative number of picodollars, so every cost is an exact integer. */
  exact: boolean;
  /** The fee per web search, billed on top of the tokens (ModelPricing.webSearchPico; 0 when the table prices none): cost.ts requestFeesPico. */
  webSearchPico: number;
  /** The fee per request, billed on every call on top of its tokens (ModelPricing.requestPico: Perplexity's; 0 when the table prices none): cost.ts requestFeesPico. */
  requestPico: number;
}

function writeRow(rows: Float64Array, k: number, above: number, p: TokenPrices): void {
  const cacheWrite = p.cacheWrite ?? p.input;
  const at = k * PriceField.Stride;
  rows[at + PriceField.Above] = above;
  rows[at + PriceField.Input] = p.input;
  rows[at + PriceField.Cached] = p.cachedInput ?? p.input;
  rows[at + PriceField.CacheWrite] = cacheWrite;
  rows[at + PriceField.CacheWrite1h] = p.cacheWrite1h ?? cacheWrite;
  rows[at + PriceField.Output] = p.output;
  rows[at + PriceField.Reasoning] = p.reasoning ?? p.output;
}

const flattened = new WeakMap<ModelPricing, FlatPrices>();

/** The model's prices flattened with its cache rule, stated or its provider's (once per ModelPricing object; do not mutate one after pricing with it). */
export function flattenPrices(pricing: ModelPricing): FlatPrices {
  const known = flattened.get(pricing);
  if (known !== undefined) return known;
  const rows = new Float64Array(PriceField.Stride * (pricing.tiers.length + 1));
  writeRow(rows, 0, -Infinity, pricing.base);
  pricing.tiers.forEach((tier, k) => writeRow(rows, k + 1, tier.aboveInputTokens, tier.prices));
  const webSearchPico = pricing.webSearchPico ?? 0;
  const requestPico = pricing.requestPico ?? 0;
  let exact = Number.isSafeInteger(webSearchPico) && webSearchPico >= 0 && Number.isSafeInteger(requestPico) && requestPico >= 0;
  let cacheSaves = false;
  for (let k = 0; k < rows.length; k++) {
    if (k % PriceField.Stride !== PriceField.Above && !(Number.isSafeInteger(rows[k]) && rows[k]! >= 0)) exact = false;
  }
  for (let at = 0; at < rows.length; at += PriceField.Stride) {
    if (rows[at + PriceField.Cached]! < rows[at + PriceField.Input]!) cacheSaves = true;
  }
  const cacheRule = cacheRuleOf(pricing);
  const flat: FlatPrices = {
    model: pricing.model,
    rows,
    tiers: pricing.tiers.length,
    hasCacheWritePrice: pricing.base.cacheWrite !== undefined,
    cacheSaves,
    contextWindow: pricing.contextWindow ?? Infinity,
    minCachePrefix: cacheRule?.minPrefixTokens ?? 0,
    cacheIncrement: cacheRule?.incrementTokens ?? 1,
    exact,
    webSearchPico,
    requestPico,
  };
  flattened.set(pricing, flat);
  return flat;
}

/**
 * The tier of a prompt of `inputTokens`: tiers are whole-prompt and strict, as in @pydantic/genai-prices
 * (`input_tokens > start`) and LiteLLM (`prompt_tokens > 200_000`): the last tier whose threshold the
 * prompt exceeds prices every token of the call. Returns the row's offset in `rows`.
 */
export function tierRow(rows: Float64Array, tiers: number, inputTokens: number): number {
  let k = 0;
  while (k < tiers && inputTokens > rows[(k + 1) * PriceField.Stride + PriceField.Above]!) k++;
  return k * PriceField.Stride;
}

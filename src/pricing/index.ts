import { bundledPriceTable } from './genaiPrices.js';
import { loadLiteLlmTable } from './litellm.js';
import type { PriceTable } from './types.js';

export type { CallUsage, ModelPricing, PriceSource, PriceTable, PriceTier, TokenPrices } from './types.js';
export {
  buildTieredPrices,
  callCostPico,
  describePricing,
  pricesForInput,
  TOKEN_PRICE_KEYS,
  type KeyedPrice,
  type PricingDescription,
  type TokenPriceKey,
  type TokenPricesDescription,
} from './cost.js';
export {
  bundledPriceTable,
  GENAI_PRICES_PACKAGE,
  GenaiPriceTable,
  genaiPricesSource,
  pickModelPrice,
  type GenaiPriceTableOptions,
} from './genaiPrices.js';
export { LiteLlmPriceTable, loadLiteLlmTable, parseLiteLlmTable } from './litellm.js';
export { editDistance, suggestNames, unknownModelError, type UnknownModelContext } from './suggest.js';

export interface LoadPriceTableOptions {
  /** A LiteLLM-format price file (`--prices FILE`). When given, it is the only table used. */
  pricesFile?: string;
}

/**
 * The price table for a run: with `pricesFile`, that LiteLLM file alone (no fallback to the bundled
 * data, so a run is priced by exactly one table); without it, the data bundled in @pydantic/genai-prices.
 */
export function loadPriceTable(opts: LoadPriceTableOptions = {}): PriceTable {
  return opts.pricesFile !== undefined ? loadLiteLlmTable(opts.pricesFile) : bundledPriceTable();
}

/** How reports name the price data they used: one wording for text, one set of columns for CSV. */
import type { PriceSource } from './types.js';

/** The bundled price data's package. */
export const GENAI_PRICES_PACKAGE = '@pydantic/genai-prices';

/** `@pydantic/genai-prices 0.1.8 (sha256 …)`, plus the date dated prices were read at, when set. */
export function describePriceSource(source: PriceSource): string {
  return `${source.name} ${source.version} (sha256 ${source.hash})${source.asOf === undefined ? '' : `, dated prices as of ${source.asOf}`}`;
}

export const PRICE_SOURCE_COLUMNS = ['priceSource', 'priceVersion', 'priceHash', 'priceAsOf'] as const;

/** The price source as CSV columns (`priceAsOf` empty when prices were read at their latest). */
export function priceSourceColumns(source: PriceSource): Record<(typeof PRICE_SOURCE_COLUMNS)[number], string> {
  return { priceSource: source.name, priceVersion: source.version, priceHash: source.hash, priceAsOf: source.asOf ?? '' };
}

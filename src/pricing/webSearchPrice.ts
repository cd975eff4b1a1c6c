/**
 * What the bundled table (@pydantic/genai-prices) charges per web search for a model: its
 * `web_searches_kcount` price (USD per 1,000 searches, billed on top of the tokens; $10 for the Claude
 * models). A resolved model carries it per search (ModelPricing.webSearchPico, read at the run's day as its
 * token prices are: genaiPrices.ts), and a call's searches (CallRecord.webSearchRequests) are part of its
 * cost (kernel/cost.ts requestFeesPico). The importers' notes name it with what it comes to, reading the
 * prices in force at the table's latest date (a search's fee has not changed in its history).
 */
import { bundledProviders } from './genaiData.js';
import { matchModel } from './genaiMatch.js';
import { pickModelPrice } from './genaiPick.js';
import type { Pico } from '../money.js';

/** The bundled table's key for web search prices (USD per 1,000 searches). */
export const WEB_SEARCH_PRICE_KEY = 'web_searches_kcount';

/** USD per 1,000 web searches of `model` (as the package matches it, with `providerId` as its hint), and the table's name for it; undefined when the table prices none. */
export function webSearchUsdPerThousand(model: string, providerId?: string): { usdPerThousand: number; model: string; provider: string } | undefined {
  const match = matchModel(bundledProviders, model, providerId);
  if (match === undefined) return undefined;
  const price = pickModelPrice(match.model.prices)[WEB_SEARCH_PRICE_KEY];
  if (typeof price !== 'number' || !Number.isFinite(price) || price < 0) return undefined;
  return { usdPerThousand: price, model: match.model.id, provider: match.provider.id };
}

/** The bundled table's key for a fee on every request (USD per 1,000 requests: Perplexity's sonar models). */
export const REQUEST_PRICE_KEY = 'requests_kcount';

/** A picked price set's fee per request in picodollars (USD per 1,000 × 10^9); undefined when it prices none. */
export function requestPicoOf(prices: Record<string, unknown>): Pico | undefined {
  const price = prices[REQUEST_PRICE_KEY];
  if (typeof price !== 'number' || !Number.isFinite(price) || price < 0) return undefined;
  return Math.round(price * 1_000_000_000);
}

/** A picked price set's web search fee per search in picodollars (USD per 1,000 × 10^9); undefined when it prices none. */
export function webSearchPicoOf(prices: Record<string, unknown>): Pico | undefined {
  const price = prices[WEB_SEARCH_PRICE_KEY];
  if (typeof price !== 'number' || !Number.isFinite(price) || price < 0) return undefined;
  return Math.round(price * 1_000_000_000);
}

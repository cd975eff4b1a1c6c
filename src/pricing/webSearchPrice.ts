/**
 * What the bundled table (@pydantic/genai-prices) charges per web search for a model: its
 * `web_searches_kcount` price (USD per 1,000 searches, billed on top of the tokens; $10 for the Claude
 * models). loopcost's costs price tokens only, so the Claude Code importer says this fee in a note
 * (src/import/claudeCode/billingNotes.ts) rather than leave it unsaid. The prices in force at the table's
 * latest date are read (a search's fee has not changed in its history).
 */
import { bundledProviders } from './genaiData.js';
import { matchModel } from './genaiMatch.js';
import { pickModelPrice } from './genaiPick.js';

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

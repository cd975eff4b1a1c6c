/**
 * A `--prices-override` entry merged with the table's model, field by field, as LiteLLM's own
 * `register_model` merges an entry into its table: each field the entry gives replaces the table's, a
 * field it leaves out (or writes null) keeps the table's. LiteLLM's fields map to ours one to one:
 * `input_cost_per_token` is the input price below every tier, `input_cost_per_token_above_200k_tokens` the
 * input price above 200,000 prompt tokens, and so on for the cache read, cache write (5 min, 1 h), output
 * and reasoning prices (litellm.ts BASE_FIELDS); `max_input_tokens` is the context window. So an entry
 * giving `input_cost_per_token` alone leaves the table's input tier above 200k, its cache and output
 * prices and its window as they were; prices stay integer picodollars per token throughout.
 *
 * Pure: no node:*, no clock.
 */
import { UserError } from '../errors.js';
import { shownName } from '../shownName.js';
import { buildTieredPrices, TOKEN_PRICE_KEYS, type KeyedPrice, type TokenPriceKey } from './cost.js';
import { LITELLM_PRICE_FIELD } from './litellmKeys.js';
import { isComplete, type Entry } from './litellmTable.js';
import type { ModelPricing, PriceSource, TokenPrices } from './types.js';

type Keyed = Partial<Record<TokenPriceKey, KeyedPrice>>;

/**
 * The per-field prices a table's model was built from (buildTieredPrices undone): each key's price below
 * every tier, and its own tiers, those where its price changes (a model-wide tier set by another key's
 * price is not one of this key's fields).
 */
export function keyedOf(pricing: Pick<ModelPricing, 'base' | 'tiers'>): Keyed {
  const keyed: Keyed = {};
  for (const key of TOKEN_PRICE_KEYS) {
    const base = pricing.base[key];
    let below = base;
    const tiers: KeyedPrice['tiers'] = [];
    for (const tier of pricing.tiers) {
      const price = tier.prices[key];
      if (price === undefined || price === below) continue;
      tiers.push({ aboveInputTokens: tier.aboveInputTokens, price });
      below = price;
    }
    if (base !== undefined || tiers.length > 0) keyed[key] = base === undefined ? { tiers } : { base, tiers };
  }
  return keyed;
}

/** The entry's fields over the table's; `fromTable`: some price the result charges is the table's. */
export function mergeKeyed(table: Keyed, entry: Keyed): { keyed: Keyed; fromTable: boolean } {
  const keyed: Keyed = {};
  let fromTable = false;
  for (const key of TOKEN_PRICE_KEYS) {
    const theirs = table[key];
    const mine = entry[key];
    if (theirs === undefined || mine === undefined) {
      const price = mine ?? theirs;
      if (price !== undefined) keyed[key] = price;
      if (mine === undefined && theirs !== undefined) fromTable = true;
      continue;
    }
    const given = new Set(mine.tiers.map((tier) => tier.aboveInputTokens));
    const kept = theirs.tiers.filter((tier) => !given.has(tier.aboveInputTokens));
    const base = mine.base ?? theirs.base;
    if ((mine.base === undefined && theirs.base !== undefined) || kept.length > 0) fromTable = true;
    keyed[key] = { ...(base === undefined ? {} : { base }), tiers: [...kept, ...mine.tiers] };
  }
  return { keyed, fromTable };
}

/**
 * A model priced by an override entry over the table's model. Named by the entry (as a model the file
 * prices alone is); its provider and window the entry's, else the table's (where the table fell back to another
 * provider's price and the entry gives input and output prices, the provider asked for). Its source: the file's when
 * every price and the window are the entry's, else the table's marked as overridden by the file.
 */
export function mergedPricing(requested: string, entry: Entry, table: ModelPricing, files: { file: PriceSource; overrides: { name: string; hash: string } }): ModelPricing {
  const { keyed, fromTable } = mergeKeyed(keyedOf(table), entry.keyed);
  const windowFromTable = entry.contextWindow === undefined && table.contextWindow !== undefined;
  const { base, tiers } = buildTieredPrices(keyed);
  const pricing: ModelPricing = {
    requested,
    model: entry.key,
    base: Object.freeze(base),
    tiers: tiers.map((t) => Object.freeze({ aboveInputTokens: t.aboveInputTokens, prices: Object.freeze(t.prices) })),
    source: fromTable || windowFromTable ? Object.freeze({ ...table.source, overrides: files.overrides }) : files.file,
  };
  // The entry giving what the fallback's hint asks (input and output prices) prices the provider asked for: no fallback then.
  const complete = isComplete(entry);
  const fallback = complete ? undefined : table.providerFallback;
  const provider = entry.provider ?? (complete ? table.providerFallback?.asked : undefined) ?? table.provider;
  if (provider !== undefined) pricing.provider = provider;
  const window = entry.contextWindow ?? table.contextWindow;
  if (window !== undefined) pricing.contextWindow = window;
  if (table.cacheRule !== undefined) pricing.cacheRule = table.cacheRule;
  // A LiteLLM entry prices tokens only: the table's web search and request fees stay.
  if (table.webSearchPico !== undefined) pricing.webSearchPico = table.webSearchPico;
  if (table.requestPico !== undefined) pricing.requestPico = table.requestPico;
  // An entry without both prices (a window, one price) leaves another provider's than the one asked for: said as the table said it.
  if (fallback !== undefined) pricing.providerFallback = fallback;
  checkPriceOrder(pricing, entry, files.file.name);
  return Object.freeze(pricing);
}

/** Orderings no provider bills by: `above` priced over `below` is impossible. LiteLLM's field names them. */
const IMPOSSIBLE: readonly { above: TokenPriceKey; below: TokenPriceKey; why: string }[] = [
  { above: 'cachedInput', below: 'input', why: 'a cache read never costs more than the prompt uncached' },
  { above: 'cacheWrite', below: 'cacheWrite1h', why: 'a cache write for five minutes never costs more than one for an hour' },
];

const FIELD = LITELLM_PRICE_FIELD;

/** The first pair of one row's prices in an order no provider bills by (IMPOSSIBLE), if any: the dearer, the cheaper, and why not. */
export function impossiblePriceOrder(prices: TokenPrices): { above: TokenPriceKey; below: TokenPriceKey; why: string } | undefined {
  return IMPOSSIBLE.find(({ above, below }) => prices[above] !== undefined && prices[below] !== undefined && prices[above] > prices[below]);
}

/**
 * Refuses a model an override entry prices in an impossible order (its cached-input price above its
 * input price, a five-minute cache write above an hour's), in any tier: what the entry gives with what it
 * leaves the table's. Every cost with the cache would be wrong, and no real rate is refused.
 */
export function checkPriceOrder(pricing: Pick<ModelPricing, 'base' | 'tiers'>, entry: Entry, file: string): void {
  const rows: [string, TokenPrices][] = [['', pricing.base], ...pricing.tiers.map((t): [string, TokenPrices] => [` above ${t.aboveInputTokens.toLocaleString('en-US')} prompt tokens`, t.prices])];
  for (const [where, prices] of rows) {
    const order = impossiblePriceOrder(prices);
    if (order !== undefined) {
      const { above, below, why } = order;
      const high = prices[above]!;
      const low = prices[below]!;
      const whose = (key: TokenPriceKey) => (entry.keyed[key] === undefined ? "the table's" : "the entry's");
      const model = shownName(entry.key);
      const usd = (pico: number) => `$${pico / 1_000_000} per million tokens`;
      throw new UserError({
        file,
        field: `${model}.${FIELD[above]}`,
        code: 'impossible_prices',
        message: `entry for model '${model}' leaves ${FIELD[above]} (${whose(above)}, ${usd(high)}) above ${FIELD[below]} (${whose(below)}, ${usd(low)})${where}: ${why}`,
        hint: `give both ${FIELD[above]} and ${FIELD[below]} in the entry (USD per token), the first at most the second; a field the entry leaves out keeps the table's`,
      });
    }
  }
}

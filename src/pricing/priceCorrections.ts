/**
 * loopcost's corrections overlay on the bundled table (the data: corrections.ts). The table resolves a
 * model to a provider's model entry and a day; the corrections for that entry in force that day are
 * applied before its prices are read: a `pricedAs` entry prices the name as another model of the same
 * provider (an alias that meant an older snapshot), `prices` replace the picked price set's keys, and
 * `contextWindow` the model's window. The overlay is named by its version, count and hash in every report
 * that names the table (PriceSource.corrections), and each corrected model says what was corrected and
 * where the figure comes from (ModelPricing.corrected).
 */
import type { ModelInfo, ModelPrice, Provider } from '@pydantic/genai-prices';
import { sha256Hex } from '../io/builtins.js';
import { PRICE_CORRECTIONS, PRICE_CORRECTIONS_VERSION } from './corrections.js';
import type { PriceCorrectionsSource, PricingCorrection } from './types.js';

/** A genai-prices price: flat, or tiered on the whole prompt (`start`: above that many input tokens). */
export type CorrectedPrice = number | { base: number; tiers: readonly { start: number; price: number }[] };

/** One correction: which table entry, on which days, what it replaces, and the public source of the figures. */
export interface PriceCorrection {
  /** The table's provider id (`anthropic`, `openai`, `google`, `deepseek`). */
  provider: string;
  /** The table's model ids of that provider it corrects. */
  models: readonly string[];
  /** Only when the model is asked for by this name (without a provider prefix; case-insensitive): an alias. */
  askedAs?: string;
  /** First UTC day it applies (YYYY-MM-DD); absent: from the model's first price. */
  from?: string;
  /** The UTC day it stops applying; absent: still in force. */
  before?: string;
  /** genai-prices keys (USD per million tokens) replacing the table's on those days. */
  prices?: Readonly<Record<string, CorrectedPrice>>;
  /** Price the name as this model id of the same provider instead (the table prices that one right). */
  pricedAs?: string;
  /** The model's context window in tokens. */
  contextWindow?: number;
  /** What is corrected, in words (`loopcost prices` and JSON reports quote it). */
  what: string;
  source: { url: string; dated: string };
}

/** The overlay as reports name it: version, number of corrections and a hash of the data. */
export function priceCorrectionsSource(corrections: readonly PriceCorrection[] = PRICE_CORRECTIONS, version = PRICE_CORRECTIONS_VERSION): PriceCorrectionsSource {
  return Object.freeze({ name: 'loopcost corrections', version, count: corrections.length, hash: sha256Hex(JSON.stringify(corrections)).slice(0, 16) });
}

/** `openai/gpt-4o`, `openai:gpt-4o` → `gpt-4o` (lower case): the name without any provider prefix. */
function bareName(requested: string): string {
  const name = requested.trim().toLowerCase();
  return name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf(':')) + 1);
}

/** The corrections of a table entry in force on `day` for a model asked for as `requested`, in data order. */
export function correctionsFor(target: { provider: string; model: string; requested: string; day: string }, corrections: readonly PriceCorrection[] = PRICE_CORRECTIONS): PriceCorrection[] {
  return corrections.filter(
    (c) =>
      c.provider === target.provider &&
      c.models.includes(target.model) &&
      (c.askedAs === undefined || c.askedAs.toLowerCase() === bareName(target.requested)) &&
      (c.from === undefined || c.from <= target.day) &&
      (c.before === undefined || target.day < c.before),
  );
}

/** A table entry as corrected on a day: the model priced, its price set picked for the day, its window, and what was corrected. */
export interface CorrectedEntry {
  model: ModelInfo;
  prices: ModelPrice;
  contextWindow: number | undefined;
  corrected: PricingCorrection[];
}

/**
 * The entry `model` of `provider` as the overlay corrects it on `day` (asked for as `requested`), its price
 * set picked by `pick` (the table's dated and time-of-day rule) from the model it is priced as.
 */
export function correctedEntry(
  found: { provider: Provider; model: ModelInfo; requested: string; day: string },
  pick: (model: ModelInfo) => ModelPrice,
  corrections: readonly PriceCorrection[] = PRICE_CORRECTIONS,
): CorrectedEntry {
  const applied = correctionsFor({ provider: found.provider.id, model: found.model.id, requested: found.requested, day: found.day }, corrections);
  const alias = applied.find((c) => c.pricedAs !== undefined);
  const model = (alias && found.provider.models.find((m) => m.id === alias.pricedAs)) || found.model;
  let prices = pick(model);
  let contextWindow = model.context_window;
  for (const c of applied) {
    if (c.prices !== undefined) prices = { ...prices, ...(c.prices as ModelPrice) };
    if (c.contextWindow !== undefined) contextWindow = c.contextWindow;
  }
  return { model, prices, contextWindow, corrected: applied.map((c) => Object.freeze({ what: c.what, source: c.source.url, dated: c.source.dated })) };
}

/**
 * The bundled price table: the provider data shipped inside @pydantic/genai-prices (read by genaiData.ts,
 * matched by the package's rules in genaiMatch.ts, dated prices picked in genaiPick.ts). Never updated at
 * run time (updatePrices is never called, so nothing reaches the network): the same package version
 * always prices the same way, and the source hash in every report says which data it was.
 */
import { UserError } from '../errors.js';
import { usdPerMillionToPico } from '../money.js';
import { buildTieredPrices, type KeyedPrice, type TokenPriceKey } from './cost.js';
import { bundledProviders, genaiPricesSource } from './genaiData.js';
import { findModel, prefixRefusal, providersTaking, type Match } from './genaiFind.js';
import { pickModelPrice } from './genaiPick.js';
import { correctedEntry, priceCorrectionsSource } from './priceCorrections.js';
import { requestPicoOf, webSearchPicoOf } from './webSearchPrice.js';
import { COMMAND_LINE_PRICE_OPTIONS, type PriceOptionNames } from './optionNames.js';
import { unknownModelError } from './suggest.js';
import { providerFallbackOf } from './providerFallback.js';
import type { ModelPricing, PriceSource, PriceTable } from './types.js';

import { GENAI_PRICES_PACKAGE } from './source.js';
import { atResolveArguments, requireResolveArguments } from './tableArguments.js';

export { GENAI_PRICES_PACKAGE, genaiPricesSource, pickModelPrice };

/** genai-prices price keys → our TokenPrices fields; the first key present wins. */
const PRICE_KEYS: Array<[TokenPriceKey, string[]]> = [
  ['input', ['input_mtok']],
  ['cachedInput', ['cache_read_mtok']],
  // cache_write_tokens is the parent of the 5m and 1h TTL units; our cacheWrite is the 5-minute write.
  ['cacheWrite', ['cache_write_5m_mtok', 'cache_write_mtok']],
  ['cacheWrite1h', ['cache_write_1h_mtok']],
  ['output', ['output_mtok']],
  ['reasoning', ['output_reasoning_mtok']],
];

/**
 * The day the pinned @pydantic/genai-prices version was published (npm registry). Dated prices are read
 * as of it when a run has no recording date, so a price announced for later is never charged, and
 * nothing depends on the wall clock. A test holds it to the pinned version: upgrading the package means
 * updating this day.
 */
export const BUNDLED_RELEASE = { version: '0.1.8', day: '2026-09-23' } as const;

export interface GenaiPriceTableOptions {
  /**
   * Day at which to read start-date-conditional prices for every run (`--prices-as-of`). Default: the
   * day each run was recorded (`recordedAt` given to resolve), else BUNDLED_RELEASE.day.
   */
  asOf?: Date;
  /** Whose words an unknown model's hint says the ways out in (default: the CLI's flags; loadPriceTable passes its caller's). */
  optionNames?: PriceOptionNames;
}

/** The UTC day (YYYY-MM-DD) of an ISO 8601 time, or undefined when it is not one. */
export function utcDay(iso: string | undefined): string | undefined {
  if (iso === undefined) return undefined;
  const time = Date.parse(iso);
  return Number.isFinite(time) ? new Date(time).toISOString().slice(0, 10) : undefined;
}

function keyedPrice(key: string, value: unknown): KeyedPrice {
  const bad = (): Error => new Error(`genai-prices: invalid price for ${key}: ${JSON.stringify(value)}`);
  const pico = (usd: unknown): number => {
    if (typeof usd !== 'number' || !Number.isFinite(usd) || usd < 0) throw bad();
    return usdPerMillionToPico(usd);
  };
  if (typeof value === 'number') return { base: pico(value), tiers: [] };
  if (typeof value === 'object' && value !== null && 'base' in value && 'tiers' in value) {
    const tiered = value as { base: unknown; tiers: unknown };
    if (!Array.isArray(tiered.tiers)) throw bad();
    return {
      base: pico(tiered.base),
      tiers: tiered.tiers.map((tier: { start?: unknown; price?: unknown }) => {
        if (typeof tier.start !== 'number' || !Number.isSafeInteger(tier.start) || tier.start < 0) throw bad();
        return { aboveInputTokens: tier.start, price: pico(tier.price) };
      }),
    };
  }
  throw bad();
}

export class GenaiPriceTable implements PriceTable {
  readonly source: PriceSource;
  private readonly asOf: Date | undefined;
  private readonly optionNames: PriceOptionNames | undefined;
  private readonly cache = new Map<string, ModelPricing>();
  private names: string[] | undefined;

  constructor(options: GenaiPriceTableOptions = {}) {
    this.asOf = options.asOf;
    this.optionNames = options.optionNames;
    const source = genaiPricesSource();
    if (source.version !== BUNDLED_RELEASE.version) {
      throw new Error(`${GENAI_PRICES_PACKAGE} ${source.version} is installed but BUNDLED_RELEASE names ${BUNDLED_RELEASE.version}: update its release day`);
    }
    this.source = Object.freeze({
      ...source,
      releasedOn: BUNDLED_RELEASE.day,
      corrections: priceCorrectionsSource(),
      ...(options.asOf === undefined ? {} : { asOf: options.asOf.toISOString().slice(0, 10) }),
    });
  }

  /**
   * Resolves a model once per (model, provider, day) and caches it. The day: `--prices-as-of`, else the
   * day the run was recorded (`recordedAt`), else the table's release day. Look-up order: genaiFind.ts
   * (a name whose prefix names a provider is priced by that provider or refused; a `provider` that does
   * not price it falls back to one that does, the pricing's `providerFallback` saying so); then loopcost's
   * corrections for the entry on that day (priceCorrections.ts).
   */
  resolve(model: string, provider?: string, recordedAt?: string): ModelPricing {
    requireResolveArguments(model, provider, recordedAt);
    const recordedDay = utcDay(recordedAt);
    const dating: NonNullable<PriceSource['dating']> = this.asOf !== undefined ? 'as-of' : recordedDay !== undefined ? 'recorded' : 'release';
    const day = dating === 'as-of' ? this.source.asOf! : (recordedDay ?? BUNDLED_RELEASE.day);
    const key = `${provider ?? ''}\u0000${model}\u0000${day}\u0000${dating}`;
    const hit = this.cache.get(key);
    if (hit) return hit;
    const match = findModel(bundledProviders, model.trim(), provider?.trim() || undefined);
    if (!match) throw this.unknown(model, provider);
    const fallback = providerFallbackOf(bundledProviders, { provider, requested: model, match, overridesFile: (this.optionNames ?? COMMAND_LINE_PRICE_OPTIONS).overridesFile });
    const priced = this.toPricing(model, match, day, dating);
    const pricing = fallback === undefined ? priced : Object.freeze({ ...priced, providerFallback: Object.freeze(fallback) });
    this.cache.set(key, pricing);
    return pricing;
  }

  /** Distinct model ids of all providers, sorted. */
  modelNames(): string[] {
    this.names ??= [...new Set(bundledProviders.flatMap((p) => p.models.map((m) => m.id)))].sort();
    return [...this.names];
  }

  /** Every (provider, model id) pair in data order, for `loopcost prices`. */
  modelEntries(): Array<{ provider: string; model: string }> {
    return bundledProviders.flatMap((p) => p.models.map((m) => ({ provider: p.id, model: m.id })));
  }

  /**
   * A model the table does not price: its prefix's provider does not (prefixRefusal), or no provider does.
   * Said at `<PriceTable.resolve arguments>` when a library caller loaded the table; the CLI's callers say where the model was asked for.
   */
  private unknown(model: string, provider: string | undefined): UserError {
    const names = this.optionNames ?? COMMAND_LINE_PRICE_OPTIONS;
    const refusal = this.refusal(model, provider, names);
    return names.file === COMMAND_LINE_PRICE_OPTIONS.file ? refusal : atResolveArguments(refusal);
  }

  private refusal(model: string, provider: string | undefined, names: PriceOptionNames): UserError {
    const hint = provider?.trim() || undefined;
    const refusal = prefixRefusal(bundledProviders, model, { providerHint: hint, overridesFile: names.overridesFile });
    if (refusal) return refusal;
    const takenBy = hint === undefined ? providersTaking(bundledProviders, model.trim()) : [];
    return unknownModelError(model, this.modelNames(), { ...(this.optionNames === undefined ? {} : { optionNames: this.optionNames }), ...(takenBy.length > 0 ? { pricedWithProvider: takenBy } : {}) });
  }

  private toPricing(requested: string, match: Match, day: string, dating: NonNullable<PriceSource['dating']>): ModelPricing {
    // loopcost's corrections for this entry on this day (priceCorrections.ts), over the day's price set.
    const entry = correctedEntry({ ...match, requested, day }, (model) => pickModelPrice(model.prices, new Date(`${day}T00:00:00Z`)));
    const { provider } = match;
    const { model, prices: modelPrice } = entry;
    const keyed: Partial<Record<TokenPriceKey, KeyedPrice>> = {};
    for (const [field, candidates] of PRICE_KEYS) {
      const priceKey = candidates.find((k) => modelPrice[k] !== undefined);
      if (priceKey !== undefined) keyed[field] = keyedPrice(priceKey, modelPrice[priceKey]);
    }
    const otherKeys = Object.keys(modelPrice).filter((k) => modelPrice[k] !== undefined);
    if (keyed.input === undefined && keyed.output === undefined && otherKeys.length > 0) {
      // Priced, but not per token (audio hours, messages): nothing we can apply to a token trace.
      throw new UserError({
        field: 'model',
        code: 'unpriced_model',
        message: `model '${requested}' (${provider.id}/${model.id}) has no per-token prices in ${GENAI_PRICES_PACKAGE} (only ${otherKeys.sort().join(', ')})`,
        hint: `pick a token-priced model, or pass --prices FILE with input_cost_per_token/output_cost_per_token for it`,
      });
    }
    // An empty price set is a free model (e.g. OpenRouter `:free`); a missing output price (embedding
    // models) is 0, as genai-prices' own calcPrice treats it.
    const { base, tiers } = buildTieredPrices(keyed);
    const pricing: ModelPricing = {
      requested,
      model: model.id,
      provider: provider.id,
      base: Object.freeze(base),
      tiers: tiers.map((t) => Object.freeze({ aboveInputTokens: t.aboveInputTokens, prices: Object.freeze(t.prices) })),
      source: Object.freeze({ ...this.source, asOf: day, dating }),
    };
    if (entry.contextWindow !== undefined) pricing.contextWindow = entry.contextWindow;
    if (entry.corrected.length > 0) pricing.corrected = Object.freeze(entry.corrected);
    const webSearchPico = webSearchPicoOf(modelPrice as Record<string, unknown>);
    if (webSearchPico !== undefined) pricing.webSearchPico = webSearchPico;
    const requestPico = requestPicoOf(modelPrice as Record<string, unknown>);
    if (requestPico !== undefined) pricing.requestPico = requestPico;
    return Object.freeze(pricing);
  }
}

const defaultTables = new Map<string, GenaiPriceTable>();

/** The bundled table with default options (an unknown model's hint in `optionNames`' words), shared so each model is resolved once per process (one table per vocabulary). */
export function bundledPriceTable(optionNames?: PriceOptionNames): GenaiPriceTable {
  const key = optionNames === undefined ? '' : JSON.stringify([optionNames.file, optionNames.pricesFile, optionNames.overridesFile, optionNames.asOf]);
  let table = defaultTables.get(key);
  if (table === undefined) defaultTables.set(key, (table = new GenaiPriceTable(optionNames === undefined ? {} : { optionNames })));
  return table;
}

import type { Pico } from '../money.js';
import { callCostPico as kernelCallCost, callFeesPico } from '../kernel/cost.js';
import { flattenPrices, PriceField, tierRow } from '../kernel/prices.js';
import type { CallUsage, ModelPricing, PriceSource, PriceTier, PricingCorrection, ProviderFallback, TokenPrices } from './types.js';

/**
 * Prices that apply to a call with `inputTokens` input tokens: the tier the kernel selects
 * (src/kernel/prices.ts tierRow: whole-prompt, strict `>`).
 */
export function pricesForInput(pricing: ModelPricing, inputTokens: number): TokenPrices {
  const flat = flattenPrices(pricing);
  const k = tierRow(flat.rows, flat.tiers, inputTokens) / PriceField.Stride;
  return k === 0 ? pricing.base : pricing.tiers[k - 1]!.prices;
}

/**
 * Exact cost of one call in integer picodollars: the kernel's formula (src/kernel/cost.ts) at the
 * prices of the tier selected by `usage.input` (the whole prompt, cached parts included), plus its
 * request fees (its web searches; none when it was not billed, `usage.unbilled`: kernel callFeesPico), as the meter bills a call.
 */
export function callCostPico(pricing: ModelPricing, usage: CallUsage): Pico {
  const flat = flattenPrices(pricing);
  const row = tierRow(flat.rows, flat.tiers, usage.input);
  return kernelCallCost(flat.rows, row, usage.input, usage.cached, usage.cacheWrite, usage.cacheWrite1h, usage.output, usage.reasoning) + callFeesPico(flat, usage.webSearches ?? 0, usage.unbilled !== true);
}

/** The price fields of TokenPrices, in display order. */
export const TOKEN_PRICE_KEYS = ['input', 'cachedInput', 'cacheWrite', 'cacheWrite1h', 'output', 'reasoning'] as const;
export type TokenPriceKey = (typeof TOKEN_PRICE_KEYS)[number];

/** One price of a source table, possibly tiered on the call's input tokens (whole-prompt, strict `>`). */
export interface KeyedPrice {
  /** Price at or below every threshold; undefined when the table only prices this key above a threshold. */
  base?: Pico;
  tiers: { aboveInputTokens: number; price: Pico }[];
}

/**
 * Builds base prices and model-wide tiers from per-key (possibly tiered) prices. Each key is tiered on
 * its own in the sources; the model-wide tier list is the union of all thresholds, and at each threshold
 * every key takes the price its own tiers give for an input just above it (a key without tiers keeps its
 * base). `input` and `output` default to 0 when absent.
 */
export function buildTieredPrices(keyed: Partial<Record<TokenPriceKey, KeyedPrice>>): {
  base: TokenPrices;
  tiers: PriceTier[];
} {
  const thresholds = new Set<number>();
  for (const key of TOKEN_PRICE_KEYS) for (const tier of keyed[key]?.tiers ?? []) thresholds.add(tier.aboveInputTokens);
  const at = (threshold: number | undefined): TokenPrices => {
    const out: TokenPrices = { input: 0, output: 0 };
    for (const key of TOKEN_PRICE_KEYS) {
      const price = keyed[key];
      if (!price) continue;
      let value = price.base;
      if (threshold !== undefined) {
        for (const tier of [...price.tiers].sort((a, b) => a.aboveInputTokens - b.aboveInputTokens)) {
          if (tier.aboveInputTokens <= threshold) value = tier.price;
        }
      }
      if (value !== undefined) out[key] = value;
    }
    return out;
  };
  const sorted = [...thresholds].sort((a, b) => a - b);
  return { base: at(undefined), tiers: sorted.map((t) => ({ aboveInputTokens: t, prices: at(t) })) };
}

/** Picodollars per token to USD per million tokens (exact for prices quoted to six decimals). */
function perMTokUsd(pico: Pico | undefined): number | null {
  return pico === undefined ? null : pico / 1_000_000;
}

export interface TokenPricesDescription {
  inputPerMTokUsd: number;
  /** null: falls back to input. */
  cachedInputPerMTokUsd: number | null;
  /** null: falls back to input. */
  cacheWritePerMTokUsd: number | null;
  /** null: falls back to cacheWrite, then input. */
  cacheWrite1hPerMTokUsd: number | null;
  outputPerMTokUsd: number;
  /** null: falls back to output. */
  reasoningPerMTokUsd: number | null;
}

export interface PricingDescription extends TokenPricesDescription {
  model: string;
  requested: string;
  provider: string | null;
  tiers: Array<{ aboveInputTokens: number } & TokenPricesDescription>;
  contextWindow: number | null;
  source: PriceSource;
  /** loopcost's corrections to the bundled table these prices include (what, the source's URL and date); absent when none. */
  corrected?: PricingCorrection[];
  /** Priced as another provider's model than the run's own `provider`, which the table does not price it for (ModelPricing `providerFallback`); absent when not. */
  providerFallback?: ProviderFallback;
}

function describePrices(prices: TokenPrices): TokenPricesDescription {
  return {
    inputPerMTokUsd: prices.input / 1_000_000,
    cachedInputPerMTokUsd: perMTokUsd(prices.cachedInput),
    cacheWritePerMTokUsd: perMTokUsd(prices.cacheWrite),
    cacheWrite1hPerMTokUsd: perMTokUsd(prices.cacheWrite1h),
    outputPerMTokUsd: prices.output / 1_000_000,
    reasoningPerMTokUsd: perMTokUsd(prices.reasoning),
  };
}

/** Plain JSON-able description of a model's pricing, in USD per million tokens, for reports and `loopcost prices`. */
export function describePricing(pricing: ModelPricing): PricingDescription {
  return {
    model: pricing.model,
    requested: pricing.requested,
    provider: pricing.provider ?? null,
    ...describePrices(pricing.base),
    tiers: pricing.tiers.map((tier) => ({ aboveInputTokens: tier.aboveInputTokens, ...describePrices(tier.prices) })),
    contextWindow: pricing.contextWindow ?? null,
    source: { ...pricing.source },
    ...(pricing.corrected === undefined ? {} : { corrected: pricing.corrected.map((c) => ({ ...c })) }),
    ...(pricing.providerFallback === undefined ? {} : { providerFallback: { ...pricing.providerFallback } }),
  };
}

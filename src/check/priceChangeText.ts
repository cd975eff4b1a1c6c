/**
 * A model's price change as a report says it: `gpt-4o-mini: input $0.15 → $0.165, output $0.6 → $0.66
 * per million tokens`; a price a table leaves out is the one it falls back to (cached input: input…).
 */
import type { TokenPrices } from '../pricing/types.js';
import { effectivePrices, priceRowName, type PriceRowChange } from './modelPrices.js';

const LABELS: readonly [keyof TokenPrices, string][] = [
  ['input', 'input'],
  ['cachedInput', 'cached input'],
  ['cacheWrite', 'cache write'],
  ['cacheWrite1h', 'cache write (1 h)'],
  ['output', 'output'],
  ['reasoning', 'reasoning'],
];

/** Picodollars per token as USD per million tokens: 150000 → `$0.15`. */
function perMillionText(picoPerToken: number): string {
  return `$${Number((picoPerToken / 1_000_000).toPrecision(6))}`;
}

export function priceChangeText(change: PriceRowChange): string {
  const was = effectivePrices(change.baseline.pricesPicoPerToken);
  const is = effectivePrices(change.now.pricesPicoPerToken);
  // A price neither row gives follows the one it falls back to: it is not named again.
  const given = (key: keyof TokenPrices) => change.baseline.pricesPicoPerToken[key] !== undefined || change.now.pricesPicoPerToken[key] !== undefined;
  const moved = LABELS.filter(([key]) => was[key] !== is[key] && given(key)).map(([key, label]) => `${label} ${perMillionText(was[key])} → ${perMillionText(is[key])}`);
  const parts = moved.length === 0 ? [] : [`${moved.join(', ')} per million tokens`];
  const tiers = (row: PriceRowChange['now']) => JSON.stringify(row.tiers.map((tier) => [tier.aboveInputTokens, effectivePrices(tier.pricesPicoPerToken)]));
  if (tiers(change.baseline) !== tiers(change.now)) parts.push('other long-prompt tiers');
  let text = `${priceRowName(change.now)}: ${parts.join(', ')}`;
  if (change.baseline.pricedAs !== change.now.pricedAs) text += ` (priced as ${change.now.pricedAs}, was ${change.baseline.pricedAs})`;
  return text;
}

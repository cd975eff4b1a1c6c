/** `loopcost prices MODEL`: a model's prices as a table (base and each tier a column), and its source. */
import type { PricingDescription, TokenPricesDescription } from '../pricing/cost.js';
import type { PriceSource } from '../pricing/types.js';
import { describePriceSource } from '../pricing/source.js';
import { formatTable, type Column } from './table.js';
import { printableCell, wrapLine } from './text.js';

const ROWS: [keyof TokenPricesDescription, string, string][] = [
  ['inputPerMTokUsd', 'input', ''],
  ['cachedInputPerMTokUsd', 'cached input (read)', 'input'],
  ['cacheWritePerMTokUsd', 'cache write (5 min)', 'input'],
  ['cacheWrite1hPerMTokUsd', 'cache write (1 h)', 'cache write (5 min)'],
  ['outputPerMTokUsd', 'output', ''],
  ['reasoningPerMTokUsd', 'reasoning', 'output'],
];

const usdPerMillion = (value: number): string => `$${value}`;

export function renderPricesTable(described: PricingDescription, width: number): string {
  const columns: Column[] = [
    { header: 'USD per million tokens' },
    { header: described.tiers.length === 0 ? 'price' : `prompt ≤ ${described.tiers[0]!.aboveInputTokens.toLocaleString('en-US')} tok`, align: 'right' },
    ...described.tiers.map((tier): Column => ({ header: `prompt > ${tier.aboveInputTokens.toLocaleString('en-US')} tok`, align: 'right' })),
  ];
  const rows = ROWS.map(([key, label, fallback]) => [
    label,
    ...[described, ...described.tiers].map((prices) => {
      const value = prices[key];
      return value === null ? `as ${fallback}` : usdPerMillion(value);
    }),
  ]);
  const head = `${printableCell(described.model)}${described.provider === null ? '' : ` (${printableCell(described.provider)})`}${described.requested === described.model ? '' : `, asked as ${printableCell(described.requested)}`}\n`;
  const window = `context window: ${described.contextWindow === null ? 'unknown' : `${described.contextWindow.toLocaleString('en-US')} tokens`}\n`;
  const tiers = described.tiers.length > 0 ? 'a tier prices every token of a call whose prompt is above its size\n' : '';
  return head + formatTable(columns, rows, { maxWidth: width }) + tiers + window + wrapLine('prices: ', printableCell(modelPriceSource(described.source)), width);
}

/**
 * The prices line in the words of this command, which prices no run: dated prices read at the table's
 * release day are the latest it knows (the shared wording says a run has no recording date).
 */
export function modelPriceSource(source: PriceSource): string {
  if (source.dating !== 'release') return describePriceSource(source);
  return `${describePriceSource({ ...source, dating: 'as-of' })}, the table's release day (the latest prices it knows; --prices-as-of YYYY-MM-DD for another day)`;
}

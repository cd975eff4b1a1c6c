/** `loopcost prices MODEL`: a model's prices as a table (base and each tier a column), and its source. */
import type { PricingDescription, TokenPricesDescription } from '../pricing/cost.js';
import type { ModelPricing, PriceSource } from '../pricing/types.js';
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

/** What `loopcost prices MODEL` says of a model: its prices (describePricing), and the fees the table prices its calls on top of their tokens. */
export interface PricesDescription extends PricingDescription {
  /** USD per 1,000 web searches run inside a call, billed on top of its tokens (the table's `web_searches_kcount`); absent: none priced. */
  webSearchPerThousandUsd?: number;
  /** USD per 1,000 requests, billed on every call on top of its tokens (the table's `requests_kcount`: Perplexity's); absent: none priced. */
  requestPerThousandUsd?: number;
}

/** Picodollars a search (or a request) as USD per 1,000. */
const perThousandUsd = (pico: number): number => pico / 1_000_000_000;

/** `described` with `pricing`'s fees on top of the tokens (ModelPricing.webSearchPico, requestPico) in USD per 1,000, those it has. */
export function withCallFees(described: PricingDescription, pricing: ModelPricing): PricesDescription {
  return {
    ...described,
    ...(pricing.webSearchPico === undefined ? {} : { webSearchPerThousandUsd: perThousandUsd(pricing.webSearchPico) }),
    ...(pricing.requestPico === undefined ? {} : { requestPerThousandUsd: perThousandUsd(pricing.requestPico) }),
  };
}

/** The fees' lines below the table, those the model has. */
function feeLines(described: PricesDescription): string {
  const { webSearchPerThousandUsd: search, requestPerThousandUsd: request } = described;
  return (
    (request === undefined ? '' : `requests: $${request} per 1,000 requests, billed on every call on top of its tokens\n`) +
    (search === undefined ? '' : `web searches: $${search} per 1,000 web searches, billed on top of the tokens of the call that ran them\n`)
  );
}

export function renderPricesTable(described: PricesDescription, width: number): string {
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
  const corrected = (described.corrected ?? []).map((c) => wrapLine('corrected: ', printableCell(`${c.what} (loopcost's correction to the bundled table; source ${c.source}, ${c.dated})`), width)).join('');
  return head + formatTable(columns, rows, { maxWidth: width }) + tiers + feeLines(described) + window + corrected + wrapLine('prices: ', printableCell(modelPriceSource(described.source)), width);
}

/**
 * The prices line in the words of this command, which prices no run: dated prices read at the table's
 * release day are the latest it knows (the shared wording says a run has no recording date).
 */
export function modelPriceSource(source: PriceSource): string {
  if (source.dating !== 'release') return describePriceSource(source);
  return `${describePriceSource({ ...source, dating: 'as-of' })}, the table's release day (the latest prices it knows; --prices-as-of YYYY-MM-DD for another day)`;
}

/** How reports name the price data they used: one wording for text, one set of columns for CSV. */
import type { PriceSource } from './types.js';

/** The bundled price data's package. */
export const GENAI_PRICES_PACKAGE = '@pydantic/genai-prices';

/**
 * `@pydantic/genai-prices 0.1.8 (sha256 …)`, then the overriding file if any, then which day dated prices
 * were read at: on a table, the rule (`--prices-as-of` day, else each run's recording day, else the
 * release day); on a resolved model, the day used and why. loopcost's corrections overlay follows the
 * table's hash: `… (sha256 …) + 8 loopcost corrections (v1, sha256 …)`.
 */
export function describePriceSource(source: PriceSource): string {
  let text = `${source.name} ${source.version} (sha256 ${source.hash})${correctionsSuffix(source)}`;
  if (source.overrides) text += `, overridden by ${source.overrides.name} (sha256 ${source.overrides.hash}) for the models it names`;
  return text + datingText(source);
}

/** ` + 8 loopcost corrections (v1, sha256 …)` when the table carries loopcost's corrections, else nothing. */
export function correctionsSuffix(source: PriceSource): string {
  return source.corrections === undefined ? '' : ` + ${correctionsText(source.corrections)}`;
}

/** `8 loopcost corrections (v1, sha256 …)`: the overlay on the bundled table (priceCorrections.ts). */
export function correctionsText(corrections: NonNullable<PriceSource['corrections']>): string {
  return `${corrections.count} ${corrections.name.replace(/s$/, corrections.count === 1 ? '' : 's')} (v${corrections.version}, sha256 ${corrections.hash})`;
}

function datingText(source: PriceSource): string {
  switch (source.dating) {
    case 'recorded':
      return `, dated prices as of ${source.asOf}, the day the run was recorded`;
    case 'release':
      return `, dated prices as of ${source.asOf}, the table's release day (the run has no recording date)`;
    case 'as-of':
      return `, dated prices as of ${source.asOf}`;
    default:
      if (source.asOf !== undefined) return `, dated prices as of ${source.asOf}`;
      if (source.releasedOn !== undefined) return `, dated prices as in effect on the day each run was recorded, else on the table's release day ${source.releasedOn}`;
      return '';
  }
}

export const PRICE_SOURCE_COLUMNS = ['priceSource', 'priceVersion', 'priceHash', 'priceAsOf', 'priceOverrides'] as const;

/**
 * The price source as CSV columns (`priceVersion` and `priceHash` name the corrections overlay's version and hash too). `priceAsOf`: the `--prices-as-of` day; else, for the bundled table,
 * `recorded-day` (each run's own day; per-run CSVs give it in `pricedAsOf`), empty for undated tables.
 */
export function priceSourceColumns(source: PriceSource): Record<(typeof PRICE_SOURCE_COLUMNS)[number], string> {
  return {
    priceSource: source.name,
    // The corrections overlay as semver build metadata: `0.1.8+loopcost-corrections.1` is not the bare 0.1.8.
    priceVersion: source.corrections === undefined ? source.version : `${source.version}+loopcost-corrections.${source.corrections.version}`,
    // The corrections' hash beside the table's, as text reports give both: `0c9da2297434f9f0+loopcost-corrections.1c4fa99b135a839b`.
    priceHash: source.corrections === undefined ? source.hash : `${source.hash}+loopcost-corrections.${source.corrections.hash}`,
    priceAsOf: source.asOf ?? (source.releasedOn === undefined ? '' : 'recorded-day'),
    priceOverrides: source.overrides === undefined ? '' : `${source.overrides.name} (sha256 ${source.overrides.hash})`,
  };
}

/** Which days a report's runs had their dated prices read at (bundled table, no `--prices-as-of`). */
export interface PriceDays {
  /** Runs priced as of the day they were recorded, and the first and last such day. */
  recordedRuns: number;
  firstDay?: string;
  lastDay?: string;
  /** Runs without a recording date, priced as of the table's release day. */
  undatedRuns: number;
  releaseDay?: string;
}

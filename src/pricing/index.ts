import { UserError } from '../errors.js';
import { bundledPriceTable, GenaiPriceTable } from './genaiPrices.js';
import { loadLiteLlmTable } from './litellm.js';
import { completedBy, OverriddenPriceTable } from './overrides.js';
import { PRICE_TABLE_OPTIONS, type PriceOptionNames } from './optionNames.js';
import type { PriceTable } from './types.js';
import { validatePriceTableOptions } from './tableArguments.js';

export type { CallUsage, ModelPricing, PriceSource, PriceTable, PriceTier, TokenPrices } from './types.js';
export {
  buildTieredPrices,
  callCostPico,
  describePricing,
  pricesForInput,
  TOKEN_PRICE_KEYS,
  type KeyedPrice,
  type PricingDescription,
  type TokenPriceKey,
  type TokenPricesDescription,
} from './cost.js';
export {
  BUNDLED_RELEASE,
  bundledPriceTable,
  GENAI_PRICES_PACKAGE,
  GenaiPriceTable,
  genaiPricesSource,
  pickModelPrice,
  type GenaiPriceTableOptions,
  utcDay,
} from './genaiPrices.js';
export { LiteLlmPriceTable, loadLiteLlmTable, parseLiteLlmTable, type LiteLlmReadOptions } from './litellm.js';
export { completedBy, OverriddenPriceTable } from './overrides.js';
export { overrideMisses } from './overrideMisses.js';
export { editDistance, suggestNames, unknownModelError, type UnknownModelContext } from './suggest.js';

export { COMMAND_LINE_PRICE_OPTIONS, PRICE_TABLE_OPTIONS, type PriceOptionNames } from './optionNames.js';
export { describePriceSource, PRICE_SOURCE_COLUMNS, priceSourceColumns } from './source.js';

export interface LoadPriceTableOptions {
  /** A LiteLLM-format price file (`--prices FILE`). When given, it is the only table used. */
  pricesFile?: string;
  /** A LiteLLM-format file whose models override the table's (`--prices-override FILE`). */
  overridesFile?: string;
  /**
   * Read the bundled data's dated prices as of this UTC day (`--prices-as-of`) for every run. Default:
   * the prices in effect on the day each run was recorded (`header.recordedAt`), else on the table's
   * release day. Not with `pricesFile` (LiteLLM files carry no dates).
   */
  asOf?: Date;
  /** Called with the table loaded when `overridesFile` is given (the CLI says its entries no run matched: overrideMisses.ts). */
  watchOverrides?: (table: PriceTable) => void;
  /** What a complaint calls these options (default: these options' own names; the CLI passes its flags', COMMAND_LINE_PRICE_OPTIONS). */
  optionNames?: PriceOptionNames;
}

/**
 * The price table for a run: with `pricesFile`, that LiteLLM file alone (no fallback to the bundled
 * data, so a run is priced by exactly one table); without it, the data bundled in @pydantic/genai-prices.
 * With `overridesFile`, the fields that file gives for a model (prices, tiers, window) replace the table's
 * (overrides.ts); an entry for a model the table lacks must give input and output prices. Options it could
 * not read (a misspelt key, an `asOf` that is no Date: tableArguments.ts) are a UserError naming each.
 */
export function loadPriceTable(opts: LoadPriceTableOptions = {}): PriceTable {
  validatePriceTableOptions(opts);
  const names = opts.optionNames ?? PRICE_TABLE_OPTIONS;
  const base = loadBaseTable(opts, names);
  if (opts.overridesFile === undefined) return base;
  const table = new OverriddenPriceTable(base, loadLiteLlmTable(opts.overridesFile, names.overridesFile, { overriding: completedBy(base, opts.overridesFile) }));
  opts.watchOverrides?.(table);
  return table;
}

function loadBaseTable(opts: LoadPriceTableOptions, names: PriceOptionNames): PriceTable {
  if (opts.pricesFile !== undefined) {
    if (opts.asOf !== undefined) {
      throw new UserError({
        file: names.file,
        field: names.asOf,
        code: 'conflicting_flags',
        message: `applies to the bundled price data only: a LiteLLM price file (${names.pricesFile}) has no dated prices`,
        hint: `drop one of ${names.pricesFile} and ${names.asOf}`,
      });
    }
    return loadLiteLlmTable(opts.pricesFile, names.pricesFile, { optionNames: names });
  }
  return opts.asOf === undefined ? bundledPriceTable(names) : new GenaiPriceTable({ asOf: opts.asOf, optionNames: names });
}

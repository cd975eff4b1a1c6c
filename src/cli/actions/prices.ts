import { UserError } from '../../errors.js';
import { describePricing } from '../../pricing/cost.js';
import { placePricingIssues } from '../../pricing/issuePlace.js';
import type { ModelPricing, PriceSource } from '../../pricing/types.js';
import { describePriceSource, loadPriceTable, type LoadPriceTableOptions } from '../../pricing/index.js';
import type { CliIO } from '../io.js';
import { renderPricesTable, withCallFees } from '../../report/pricesReport.js';
import { DEFAULT_TABLE_WIDTH } from '../../report/table.js';
import { printableCell, wrapLine } from '../../report/text.js';
import { priceOptionsFromFlags, type PriceFlags } from '../parseFlags.js';
import { LOOPCOST_VERSION } from '../../version.js';

/** What wrote the JSON, as every report names it. */
const TOOL = { name: 'loopcost', version: LOOPCOST_VERSION };

/** The model the command line names, resolved; a refused one is said as the command line's argument (a price file's own problem stays under its file). */
function resolveNamed(prices: ReturnType<typeof loadPriceTable>, model: string): ModelPricing {
  try {
    return prices.resolve(model);
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    throw new UserError(placePricingIssues(error.issues, { file: '<command line>', field: 'MODEL' }));
  }
}

export function runPrices(model: string | undefined, options: { priceOptions: LoadPriceTableOptions; json?: boolean; width?: number }, io: CliIO): number {
  const prices = loadPriceTable(options.priceOptions);
  const source = describePriceSource(prices.source);
  if (model === undefined) {
    const names = prices.modelNames();
    if (options.json) io.stdout(JSON.stringify({ tool: TOOL, source: prices.source, models: names }, null, 2) + '\n');
    else io.stdout(`${names.map(printableCell).join('\n')}\n${names.length} models from ${printableCell(source)}\n`);
    return 0;
  }
  const pricing = resolveNamed(prices, model);
  const described = withCallFees(describePricing(pricing), pricing);
  if (options.json) {
    io.stdout(JSON.stringify({ tool: TOOL, ...described }, null, 2) + '\n');
    return 0;
  }
  const width = options.width ?? DEFAULT_TABLE_WIDTH;
  io.stdout(renderPricesTable(described, width) + pastReleaseNote(described.source, width));
  return 0;
}

/**
 * A `--prices-as-of` day after the bundled table's release day: the table holds no price announced since
 * then, so the prices shown are its latest, which that day may no longer have. (A day before a model
 * existed cannot be told: the table dates only a model's price changes, not its first price.)
 */
export function pastReleaseNote(source: PriceSource, width: number): string {
  const { asOf, dating, releasedOn } = source;
  if (dating !== 'as-of' || asOf === undefined || releasedOn === undefined || asOf <= releasedOn) return '';
  return wrapLine('note: ', `${asOf} is after the table's release day ${releasedOn}: prices announced since are not in it, so these are the latest it knows`, width);
}

export type PricesFlags = PriceFlags & { json?: boolean; format?: string };

/** --format table|json, as every other command; --json (the older spelling) is --format json, and refused beside --format table. */
export function pricesFormat(opts: { json?: boolean; format?: string }): 'table' | 'json' {
  if (opts.json === true && opts.format !== undefined && opts.format !== 'json') {
    throw new UserError({ file: '<command line>', field: '--json', code: 'bad_combination', message: `contradicts --format ${opts.format}`, hint: 'give one of them: --format json (or --json) for JSON, --format table for a table' });
  }
  return opts.json === true || opts.format === 'json' ? 'json' : 'table';
}

export function pricesAction(model: string | undefined, opts: PricesFlags, io: CliIO): number {
  const json = pricesFormat(opts) === 'json';
  return runPrices(model, { priceOptions: priceOptionsFromFlags(opts), json, ...(io.columns === undefined ? {} : { width: io.columns }) }, io);
}

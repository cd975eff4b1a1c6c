import Table from 'cli-table3';
import { describePricing } from '../../pricing/cost.js';
import { describePriceSource, loadPriceTable, type LoadPriceTableOptions } from '../../pricing/index.js';
import type { CliIO } from '../io.js';
import { priceOptionsFromFlags, type PriceFlags } from '../parseFlags.js';

export function runPrices(model: string | undefined, options: { priceOptions: LoadPriceTableOptions; json?: boolean }, io: CliIO): number {
  const prices = loadPriceTable(options.priceOptions);
  const source = describePriceSource(prices.source);
  if (model === undefined) {
    const names = prices.modelNames();
    if (options.json) io.stdout(JSON.stringify({ source: prices.source, models: names }, null, 2) + '\n');
    else io.stdout(`${names.join('\n')}\n${names.length} models from ${source}\n`);
    return 0;
  }
  const described = describePricing(prices.resolve(model)) as unknown as Record<string, unknown>;
  if (options.json) {
    io.stdout(JSON.stringify(described, null, 2) + '\n');
    return 0;
  }
  const table = new Table({ style: { head: [], border: [] } });
  for (const [key, value] of Object.entries(described)) {
    if (value === undefined || key === 'source') continue;
    table.push({ [key]: [typeof value === 'object' ? JSON.stringify(value) : String(value)] });
  }
  io.stdout(`${table.toString()}\nsource: ${source}\n`);
  return 0;
}

export function pricesAction(model: string | undefined, opts: PriceFlags & { json?: boolean }, io: CliIO): number {
  return runPrices(model, { priceOptions: priceOptionsFromFlags(opts), json: opts.json === true }, io);
}

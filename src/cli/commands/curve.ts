import Table from 'cli-table3';
import { stringify } from 'csv-stringify/sync';
import type { ContextStrategy } from '../../context/strategy.js';
import { checkOutputFile, writeFileAtomic } from '../../io/atomicWrite.js';
import { describePriceSource, loadPriceTable, priceSourceColumns, PRICE_SOURCE_COLUMNS, type LoadPriceTableOptions } from '../../pricing/index.js';
import { growthCurve, type CurveRow } from '../../replay/curve.js';
import type { ConstantStepsSpec } from '../../synthetic/constantSteps.js';
import type { CliIO } from '../io.js';

export interface CurveCommand {
  spec: ConstantStepsSpec;
  strategy: ContextStrategy;
  priceOptions: LoadPriceTableOptions;
  format: 'table' | 'csv' | 'json';
  out?: string;
}

const COLUMNS: (keyof CurveRow)[] = [
  'step', 'inputTokens', 'cachedInputTokens', 'outputTokens', 'cumulativeInputTokens', 'cumulativeOutputTokens', 'costUsd', 'cumulativeCostUsd',
];

export function runCurve(command: CurveCommand, io: CliIO): number {
  if (command.out !== undefined) checkOutputFile(command.out);
  const prices = loadPriceTable(command.priceOptions);
  const rows = growthCurve(command.spec, command.strategy, prices);
  let text: string;
  if (command.format === 'json') {
    text = JSON.stringify({ model: prices.resolve(command.spec.model).model, prices: prices.source, rows }, null, 2) + '\n';
  } else if (command.format === 'csv') {
    const withSource = rows.map((row) => ({ ...row, ...priceSourceColumns(prices.source) }));
    text = stringify(withSource, { header: true, columns: [...(COLUMNS as string[]), ...PRICE_SOURCE_COLUMNS] });
  } else {
    const table = new Table({ head: COLUMNS, style: { head: [], border: [] } });
    for (const row of rows) table.push(COLUMNS.map((column) => (column.endsWith('Usd') ? `$${(row[column] as number).toFixed(6)}` : row[column])));
    const last = rows[rows.length - 1];
    text = `${table.toString()}\n${last ? `total: ${last.cumulativeInputTokens} input + ${last.cumulativeOutputTokens} output tokens, $${last.cumulativeCostUsd} — input grows linearly per step, the total quadratically` : ''}\nprices: ${describePriceSource(prices.source)}\n`;
  }
  if (command.out !== undefined) writeFileAtomic(command.out, text);
  else io.stdout(text);
  return 0;
}

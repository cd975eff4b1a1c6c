import Table from 'cli-table3';
import { stringify } from 'csv-stringify/sync';
import type { ContextStrategy } from '../../context/strategy.js';
import { writeFileAtomic } from '../../io/atomicWrite.js';
import { describePriceSource, loadPriceTable, priceSourceColumns, PRICE_SOURCE_COLUMNS, type LoadPriceTableOptions } from '../../pricing/index.js';
import { growthCurve, type CurveRow } from '../../replay/curve.js';
import type { ConstantStepsSpec } from '../../synthetic/constantSteps.js';
import type { CliIO } from '../io.js';
import { nonNegativeInt, positiveInt, priceOptionsFromFlags, strategyFromFlags, type ContextFlags, type PriceFlags } from '../parseFlags.js';

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

export type CurveFlags = ContextFlags & PriceFlags & Record<string, string | undefined>;

export function curveAction(opts: CurveFlags, io: CliIO): number {
  return runCurve(
    {
      spec: {
        model: opts.model!,
        systemTokens: nonNegativeInt('--system-tokens', opts.systemTokens!),
        goalTokens: nonNegativeInt('--goal-tokens', opts.goalTokens ?? '0'),
        outputTokens: nonNegativeInt('--output-tokens', opts.outputTokens!),
        toolTokens: nonNegativeInt('--tool-tokens', opts.toolTokens!),
        steps: positiveInt('--steps', opts.steps!),
      },
      strategy: strategyFromFlags(opts),
      format: (opts.format ?? 'table') as 'table' | 'csv' | 'json',
      priceOptions: priceOptionsFromFlags(opts),
      ...(opts.out === undefined ? {} : { out: opts.out }),
    },
    io,
  );
}

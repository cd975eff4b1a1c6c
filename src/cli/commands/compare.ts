import Table from 'cli-table3';
import { stringify } from 'csv-stringify/sync';
import { checkOutputFile, writeFileAtomic } from '../../io/atomicWrite.js';
import { skippedMessage, TraceInputs, type InputSetOptions } from '../../import/inputSet.js';
import { picoToUsd } from '../../money.js';
import { describePriceSource, loadPriceTable, priceSourceColumns, PRICE_SOURCE_COLUMNS, type LoadPriceTableOptions } from '../../pricing/index.js';
import { compareRun, type FidelityRow } from '../../replay/compare.js';
import type { CliIO } from '../io.js';

export async function runCompare(
  command: { inputs: string[]; priceOptions: LoadPriceTableOptions; tolerance: number; format: 'table' | 'csv' | 'json'; out?: string; read?: InputSetOptions },
  io: CliIO,
): Promise<number> {
  if (command.out !== undefined) checkOutputFile(command.out);
  const prices = loadPriceTable(command.priceOptions);
  const inputs = new TraceInputs(command.inputs, command.read);
  const compared: { file: string; row: FidelityRow }[] = [];
  for await (const run of inputs.runs()) {
    const row = inputs.guard(run, () => compareRun(run.trace, prices, command.tolerance));
    if (row) compared.push({ file: run.file, row });
  }
  const skipped = inputs.finish();
  io.stderr(skippedMessage(skipped, inputs.files.length));
  const rows = inputs.keep(compared).map(({ row }) => ({
    source: row.source,
    model: row.model,
    calls: row.calls,
    recordedCalls: row.recordedCalls ?? null,
    costUsd: picoToUsd(row.costPico),
    recordedCostUsd: row.recordedCostPico === undefined ? null : picoToUsd(row.recordedCostPico),
    costRelativeError: row.costRelativeError ?? null,
    inputTokens: row.inputTokens,
    recordedInputTokens: row.recordedInputTokens ?? null,
    outputTokens: row.outputTokens,
    recordedOutputTokens: row.recordedOutputTokens ?? null,
    growthModelDelta: row.growthModelDelta ?? null,
    agrees: row.agrees,
    problems: row.problems.join('; '),
  }));
  const disagreements = rows.filter((row) => !row.agrees).length;
  let text: string;
  if (command.format === 'json') {
    text = JSON.stringify({ prices: prices.source, tolerance: command.tolerance, runs: rows, summary: { runs: rows.length, disagreements } }, null, 2) + '\n';
  } else if (command.format === 'csv') {
    text = stringify(rows.map((row) => ({ ...row, ...priceSourceColumns(prices.source) })), { header: true });
  } else {
    const table = new Table({ head: ['source', 'model', 'calls', 'cost', 'recorded', 'rel. error', 'input tok', 'recorded', 'Δ growth model', ''], style: { head: [], border: [] } });
    for (const row of rows) {
      table.push([
        row.source,
        row.model,
        row.recordedCalls === null ? row.calls : `${row.calls}/${row.recordedCalls}`,
        `$${row.costUsd.toFixed(6)}`,
        row.recordedCostUsd === null ? '-' : `$${row.recordedCostUsd.toFixed(6)}`,
        row.costRelativeError === null ? '-' : row.costRelativeError.toExponential(1),
        row.inputTokens,
        row.recordedInputTokens ?? '-',
        row.growthModelDelta ?? '-',
        row.agrees ? 'ok' : `DISAGREES: ${row.problems}`,
      ]);
    }
    text = `${table.toString()}\n${rows.length} runs, ${disagreements} disagree with what was recorded (cost tolerance ${command.tolerance} relative)\nprices: ${describePriceSource(prices.source)}\n`;
  }
  if (command.out !== undefined) writeFileAtomic(command.out, text);
  else io.stdout(text);
  return 0;
}

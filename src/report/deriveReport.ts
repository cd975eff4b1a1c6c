/** The report of `loopcost prices derive`: per model, the prices recovered and how well they explain the recorded costs. */
import type { TokenPriceKey } from '../pricing/cost.js';
import { redundantPrice, type DerivedModel } from '../pricing/derive.js';
import { formatUsd } from './money.js';
import { picoToUsd } from '../money.js';
import { formatTable, type Column } from './table.js';
import { printableCell, wrapLine } from './text.js';

const PRICE_COLUMNS: [TokenPriceKey, string][] = [
  ['input', 'input'],
  ['cachedInput', 'cached'],
  ['cacheWrite', 'write 5m'],
  ['cacheWrite1h', 'write 1h'],
  ['output', 'output'],
  ['reasoning', 'reasoning'],
];

function priceCell(model: DerivedModel, key: TokenPriceKey): string {
  const pico = model.prices[key];
  if (pico === undefined) return '-';
  if (redundantPrice(model, key)) return key === 'reasoning' ? '= output' : '= write 5m';
  return String(pico / 1e6);
}

function relative(model: DerivedModel): string {
  const { totalPico, recordedPico } = model.residual;
  if (totalPico === 0n) return '0';
  return `${((Number(totalPico) / Number(recordedPico)) * 100).toPrecision(2)}%`;
}

export interface DeriveReportInput {
  models: readonly DerivedModel[];
  skippedRuns: number;
  /** Where the price file was written, if it was (the report then leaves out how to write one). */
  out?: string;
}

export function renderDeriveTable(input: DeriveReportInput, width: number): string {
  const usable = input.models.filter((model) => model.usable);
  const calls = input.models.reduce((sum, model) => sum + model.calls, 0);
  const runs = input.models.reduce((sum, model) => sum + model.runs, 0);
  let text = `prices derived from ${[calls > 0 ? `${calls} calls` : '', runs > 0 ? `${runs} runs` : ''].filter(Boolean).join(' and ')} that recorded their cost${input.skippedRuns > 0 ? ` (${input.skippedRuns} runs recorded none)` : ''}\n`;
  const columns: Column[] = [
    { header: 'model', shrink: true, minWidth: 16 },
    { header: 'based on', align: 'right' },
    ...PRICE_COLUMNS.map(([, header]): Column => ({ header, align: 'right' })),
    { header: 'largest miss', align: 'right' },
    { header: 'total miss', align: 'right' },
  ];
  const rows = usable.map((model) => [
    model.model,
    model.calls > 0 ? `${model.calls} calls` : `${model.runs} runs`,
    ...PRICE_COLUMNS.map(([key]) => priceCell(model, key)),
    formatUsd(model.residual.maxAbsPico),
    relative(model),
  ]);
  if (rows.length > 0) {
    text += formatTable(columns, rows, { maxWidth: width });
    text += wrapLine(
      '',
      "USD per million tokens, exact least squares rounded to $0.000001/M; '-': no such tokens in these runs (the price falls back: cached and cache writes to input, reasoning to output); largest miss: the largest difference between a recorded cost and the derived prices' cost of that call (or run); total miss: Σ differences / Σ recorded.",
      width,
    );
  }
  for (const model of input.models) {
    if (!model.usable) text += wrapLine('not derived: ', printableCell(`${model.model} — ${model.problem}`), width);
    else if (model.problem) text += wrapLine('note: ', printableCell(`${model.model} — ${model.problem}`), width);
    for (const missing of model.notIdentifiable.filter((n) => n.reason !== 'no tokens of this kind')) {
      if (model.usable) text += wrapLine('note: ', printableCell(`${model.model} — ${missing.key} price not told apart: ${missing.reason}`), width);
    }
  }
  // A price file written is said on stderr (the CLI's announceWritten), not in the report.
  if (usable.length > 0 && input.out === undefined) text += 'add --out prices.json to write these prices as a price file (LiteLLM format) for --prices-override\n';
  return text;
}

/** The report as JSON: per model the prices (USD per million tokens), the exact solution, the residual. */
export function deriveJson(input: DeriveReportInput, file: Record<string, unknown>): unknown {
  return {
    models: input.models.map((model) => ({
      model: model.model,
      ...(model.provider === undefined ? {} : { provider: model.provider }),
      usable: model.usable,
      ...(model.problem === undefined ? {} : { problem: model.problem }),
      calls: model.calls,
      runs: model.runs,
      pricesPerMTokUsd: Object.fromEntries(Object.entries(model.prices).map(([key, pico]) => [key, pico! / 1e6])),
      exactPerMTokUsd: Object.fromEntries(Object.entries(model.exact).map(([key, pico]) => [key, pico! / 1e6])),
      notIdentifiable: model.notIdentifiable,
      residual: {
        maxAbsUsd: picoToUsd(model.residual.maxAbsPico),
        rmsUsd: model.residual.rmsPico / 1e12,
        totalUsd: picoToUsd(model.residual.totalPico),
        recordedUsd: picoToUsd(model.residual.recordedPico),
      },
    })),
    skippedRuns: input.skippedRuns,
    priceFile: file,
  };
}

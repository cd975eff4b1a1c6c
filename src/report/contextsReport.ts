/**
 * The `contexts` report: cost per run of the same runs under each context strategy and cache mode,
 * with the change against the first strategy under the same cache mode, summary calls and the cache
 * hits the strategy lost. Recorded runs are replayed open loop, which one line says. Where real-loop recordings
 * state the strategy their loop ran under, `as recorded` rows hold each run as it ran and a line says what
 * they hold (every other row, `full` included, compares the runs' full history: replay/contexts.ts).
 */
import { LOOPCOST_VERSION } from '../version.js';
import type { ContextCell, ContextCellTotals } from '../replay/contexts.js';
import { meanPico, picoToUsd } from '../money.js';
import { PRICE_SOURCE_COLUMNS, priceSourceColumns } from '../pricing/source.js';
import { formatCsv } from './csv.js';
import type { PricesRecord } from './pricedModels.js';
import { formatUsdNumber, usdOrDash } from './money.js';
import { signedPercentText } from './percentText.js';
import { settingsColumns, SETTINGS_COLUMNS, type ReportSettings } from './settings.js';
import { cellWidthsOf, COLUMN_GAP, formatTable, type Cell, type Column } from './table.js';
import { reportFooter, type ReportView } from './view.js';
import type { ReportWarning } from './warnings.js';
import { numberedLegend, tokenCount, wrapLine } from './text.js';

export interface ContextsRow {
  /** `--context` syntax, or `as recorded` (each run as its loop ran it). */
  strategy: string;
  /** An `as recorded` row (each run as its loop ran it and was billed; what it holds: ContextsReport.asRecorded); absent on a strategy's row (CSV column `asRecorded`: 1, or empty). */
  asRecorded?: true;
  cache: string;
  runs: number;
  completed: number;
  costPerRunUsd: number | null;
  totalCostUsd: number;
  /** Cost against the first strategy under the same cache mode, in percent, unrounded (null for that one). */
  vsFirstPercent: number | null;
  inputTokens: number;
  cachedInputTokens: number;
  summaryCalls: number;
  summaryCostUsd: number;
  cacheHitsLostTokens: number;
}

export interface ContextsReport {
  tool: { name: 'loopcost'; version: string };
  settings: ReportSettings;
  /** Replay's prices block (pricedModels.ts pricesRecord): the table, `source`, `models` (each run compared priced once, whatever the rows), `days`, `note`. */
  prices: PricesRecord;
  note: string;
  /** What the `as recorded` rows hold, when shown (some recording states the strategy its loop ran under). */
  asRecorded?: string;
  rows: ContextsRow[];
}

export const OPEN_LOOP_NOTE = 'recorded runs replayed open loop: each strategy changes what the calls cost, not what the agent did (completions as recorded)';

export function buildContextsReport(args: { cells: readonly ContextCell[]; totals: readonly ContextCellTotals[]; settings: ReportSettings; prices: PricesRecord; asRecorded?: string }): ContextsReport {
  const rows = args.cells.map((cell, i): ContextsRow => {
    const t = args.totals[i]!;
    const firstIndex = args.cells.findIndex((c) => c.cache === cell.cache);
    const first = args.totals[firstIndex]!.costPico;
    return {
      strategy: cell.context,
      ...(cell.asRecorded === true ? { asRecorded: true as const } : {}),
      cache: cell.cache,
      runs: t.runs,
      completed: t.completed,
      costPerRunUsd: t.runs === 0 ? null : picoToUsd(meanPico(t.costPico, t.runs)),
      totalCostUsd: picoToUsd(t.costPico),
      vsFirstPercent: firstIndex === i || first === 0n ? null : (Number(t.costPico - first) / Number(first)) * 100,
      inputTokens: t.inputTokens,
      cachedInputTokens: t.cachedInputTokens,
      summaryCalls: t.summaryCalls,
      summaryCostUsd: picoToUsd(t.summaryCostPico),
      cacheHitsLostTokens: t.strategyCacheLostTokens,
    };
  });
  const asRecorded = args.asRecorded === undefined ? {} : { asRecorded: args.asRecorded };
  return { tool: { name: 'loopcost', version: LOOPCOST_VERSION }, settings: args.settings, prices: args.prices, note: OPEN_LOOP_NOTE, ...asRecorded, rows };
}

// `asRecorded` after the figures, so the columns before it stay where they were.
const CSV_COLUMNS = ['strategy', 'cache', 'runs', 'completed', 'costPerRunUsd', 'totalCostUsd', 'vsFirstPercent', 'inputTokens', 'cachedInputTokens', 'summaryCalls', 'summaryCostUsd', 'cacheHitsLostTokens', 'asRecorded'];

export function renderContextsCsv(report: ContextsReport): string {
  return formatCsv(report.rows, [...CSV_COLUMNS, ...SETTINGS_COLUMNS, ...PRICE_SOURCE_COLUMNS], { ...settingsColumns(report.settings), ...priceSourceColumns(report.prices.source) });
}

const COLUMNS: Column[] = [
  { header: 'context', shrink: true, minWidth: 12 },
  { header: 'cache' },
  { header: 'runs', align: 'right' },
  { header: 'cost per run', align: 'right' },
  { header: 'vs first\nsame cache', align: 'right' },
  { header: 'input tok', align: 'right' },
  { header: 'cached tok', align: 'right' },
  { header: 'summaries', align: 'right' },
  { header: 'cache hits lost', align: 'right' },
];

const percent = (p: number | null): string => (p === null ? '-' : signedPercentText(p / 100));

/** Where the `vs first same cache` column is among COLUMNS. */
const VS_FIRST = COLUMNS.findIndex((c) => c.header.startsWith('vs first'));

/**
 * The `vs first same cache` column (`vs #1 same cache` when strategies are numbered) and the line under the
 * table saying what it compares: each row against the first strategy's row of its own cache mode, not
 * against the first row (`#2 off` against `#1 off`, though `#1 on` may be cheaper).
 */
function againstFirst(report: ContextsReport, label: (strategy: string) => string): { columns: Column[]; legend: string } {
  const first = report.rows[0];
  if (first === undefined) return { columns: COLUMNS, legend: '' };
  const numbered = label(first.strategy) !== first.strategy;
  const name = numbered ? label(first.strategy) : 'first';
  const columns = COLUMNS.map((c, i) => (i === VS_FIRST ? { ...c, header: `vs ${name}\nsame cache` } : c));
  if (report.rows.every((r) => r.vsFirstPercent === null)) return { columns, legend: '' };
  const whose = numbered ? `${name}'s` : `the first strategy's (${first.strategy})`;
  const other = report.rows.find((r) => r.cache !== first.cache);
  const firstName = numbered ? name : first.strategy;
  const example = other === undefined ? '' : ` (an ${other.cache} row against ${firstName} ${other.cache}, not ${firstName} ${first.cache})`;
  return { columns, legend: `vs ${name} same cache: each row's cost per run against ${whose} under the same cache mode${example}` };
}

/**
 * Each strategy as its rows say it: whole when the table fits `width` so (or with --wide), else `#1`, `#2`, …
 * with a legend above the table (numberedLegend, as curve and whatif do), so two long strategies are never
 * cut to the same label.
 */
function strategyLabels(report: ContextsReport, rows: readonly (readonly Cell[])[], view: ReportView): { label: (strategy: string) => string; legend: string } {
  const whole = cellWidthsOf(COLUMNS.length, [COLUMNS.map((c) => c.header.replace('\n', ' ')), ...rows]).reduce((sum, w) => sum + w, COLUMN_GAP * (COLUMNS.length - 1));
  if (view.wide || whole <= view.width) return { label: (strategy) => strategy, legend: '' };
  const strategies = [...new Set(report.rows.map((r) => r.strategy))];
  const { labels, legend } = numberedLegend(strategies, view.width);
  return { label: (strategy) => labels[strategies.indexOf(strategy)]!, legend };
}

export function renderContextsTable(report: ContextsReport, view: ReportView, warnings: readonly ReportWarning[]): string {
  const rows = report.rows.map((r) => [
    r.strategy,
    r.cache,
    r.runs,
    usdOrDash(r.costPerRunUsd),
    percent(r.vsFirstPercent),
    tokenCount(r.inputTokens),
    tokenCount(r.cachedInputTokens),
    r.summaryCalls === 0 ? '-' : `${r.summaryCalls} (${formatUsdNumber(r.summaryCostUsd)})`,
    r.cacheHitsLostTokens === 0 ? '-' : tokenCount(r.cacheHitsLostTokens),
  ]);
  const { label, legend } = strategyLabels(report, rows, view);
  const against = againstFirst(report, label);
  const table = formatTable(against.columns, rows.map(([strategy, ...rest]) => [label(strategy as string), ...rest]), { maxWidth: view.wide ? Infinity : view.width });
  const asRecorded = report.asRecorded === undefined ? '' : wrapLine('', report.asRecorded, view.width);
  return `${legend}${table}${against.legend === '' ? '' : wrapLine('', against.legend, view.width)}${asRecorded}${wrapLine('note: ', report.note, view.width)}\n${reportFooter({ settings: report.settings, priceSource: report.prices.source, pricesNote: report.prices.note ?? '', warnings, width: view.width })}`;
}

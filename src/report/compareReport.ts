/**
 * The fidelity report (`loopcost compare`): each run replayed as recorded beside what its source
 * recorded. Text leads with a per-model summary (runs, disagreements, computed vs recorded spend), then
 * the runs (when few, or with --per-run).
 */
import { LOOPCOST_VERSION } from '../version.js';
import { picoToUsd, usdToPico } from '../money.js';
import { PRICE_SOURCE_COLUMNS, priceSourceColumns } from '../pricing/source.js';
import type { FidelityRow } from '../replay/compare.js';
import { NO_BRAKES } from '../brakes/config.js';
import { counted } from '../plural.js';
import { formatCsv } from './csv.js';
import type { PricesRecord } from './pricedModels.js';
import { reportSettings, settingsColumns, SETTINGS_COLUMNS, type ReportSettings } from './settings.js';
import { type RunsTook } from './runsTook.js';
import { formatUsd, usdOrDash } from './money.js';
import { formatTable, type Cell, type Column } from './table.js';
import { shortenPaths, tokenCount } from './text.js';
import { perRunHint, reportFooter, showPerRunRows, sourcesLineOf, type ReportView } from './view.js';
import type { ReportWarning } from './warnings.js';

export interface CompareRun {
  source: string;
  model: string;
  calls: number;
  recordedCalls: number | null;
  costUsd: number;
  recordedCostUsd: number | null;
  costRelativeError: number | null;
  inputTokens: number;
  recordedInputTokens: number | null;
  outputTokens: number;
  recordedOutputTokens: number | null;
  growthModelDelta: number | null;
  /** Nothing the source recorded (calls, cost, tokens) disagrees; true too when it recorded nothing to compare. */
  agrees: boolean;
  /** The source recorded a cost, so the computed cost was compared with it (recordedCostUsd is not null). */
  costCompared: boolean;
  /** Only some calls recorded a cost: the cost compared is theirs (`compared` of `calls`), `computedCostUsd` the table's price of them; null otherwise. */
  costComparedCalls: { compared: number; calls: number; computedCostUsd: number } | null;
  problems: string;
}

export interface CompareReport {
  tool: { name: 'loopcost'; version: string };
  /** Runs are replayed as recorded: no brakes, full history, cache as recorded. */
  settings: ReportSettings;
  /** Replay's prices block (pricedModels.ts pricesRecord): the table, `source`, `models` (each run priced once), `days`, `note`. */
  prices: PricesRecord;
  /** `prices.note` again (kept for scripts that read it). */
  pricesNote?: string;
  tolerance: number;
  runs: CompareRun[];
  /** costCompared: runs whose source recorded a cost (the others' cost was not checked). */
  summary: { runs: number; costCompared: number; disagreements: number };
  warnings: ReportWarning[];
}

export function buildCompareReport(rows: readonly FidelityRow[], args: { prices: PricesRecord; tolerance: number; warnings: readonly ReportWarning[]; /** What the runs took of the cache and latency (reportSettings). */ took?: RunsTook }): CompareReport {
  const runs = rows.map((row) => ({
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
    costCompared: row.recordedCostPico !== undefined,
    costComparedCalls: row.costComparedCalls === undefined ? null : { compared: row.costComparedCalls.compared, calls: row.costComparedCalls.calls, computedCostUsd: picoToUsd(row.costComparedCalls.computedPico) },
    problems: row.problems.join('; '),
  }));
  return {
    tool: { name: 'loopcost', version: LOOPCOST_VERSION },
    settings: reportSettings({ brakes: NO_BRAKES, strategy: { kind: 'full' }, ...(args.took === undefined ? {} : { took: args.took }) }),
    prices: args.prices,
    ...(args.prices.note ? { pricesNote: args.prices.note } : {}),
    tolerance: args.tolerance,
    runs,
    summary: { runs: runs.length, costCompared: runs.filter((run) => run.costCompared).length, disagreements: runs.filter((run) => !run.agrees).length },
    warnings: [...args.warnings],
  };
}

const CSV_COLUMNS: (keyof CompareRun)[] = [
  'source', 'model', 'calls', 'recordedCalls', 'costUsd', 'recordedCostUsd', 'costRelativeError', 'inputTokens', 'recordedInputTokens',
  'outputTokens', 'recordedOutputTokens', 'growthModelDelta', 'agrees', 'costCompared', 'problems',
];

/** Where only some calls recorded a cost, the cost was compared over those: how many, of how many, and their computed cost (empty otherwise). */
const PARTIAL_COST_COLUMNS = ['costComparedCalls', 'costComparedOfCalls', 'costComparedComputedUsd'];

export function renderCompareCsv(report: CompareReport): string {
  const trailing = { tolerance: report.tolerance, ...settingsColumns(report.settings), ...priceSourceColumns(report.prices.source) };
  const rows = report.runs.map((run) => ({
    ...run,
    costComparedCalls: run.costComparedCalls?.compared ?? null,
    costComparedOfCalls: run.costComparedCalls?.calls ?? null,
    costComparedComputedUsd: run.costComparedCalls?.computedCostUsd ?? null,
  }));
  return formatCsv(rows, [...(CSV_COLUMNS as string[]), ...PARTIAL_COST_COLUMNS, 'tolerance', ...SETTINGS_COLUMNS, ...PRICE_SOURCE_COLUMNS], trailing);
}

function relative(value: number | null): string {
  if (value === null) return '-';
  if (!Number.isFinite(value)) return 'recorded 0';
  return `${value > 0 ? '+' : ''}${(value * 100).toPrecision(3)}%`;
}

/** Per model: runs, disagreements, computed and recorded spend of the runs that recorded a cost. */
function modelSummary(report: CompareReport, view: ReportView): string {
  const byModel = new Map<string, { runs: number; disagree: number; cost: bigint; recorded: bigint; recordedRuns: number }>();
  for (const run of report.runs) {
    const entry = byModel.get(run.model) ?? { runs: 0, disagree: 0, cost: 0n, recorded: 0n, recordedRuns: 0 };
    entry.runs += 1;
    if (!run.agrees) entry.disagree += 1;
    if (run.recordedCostUsd !== null) {
      entry.recordedRuns += 1;
      entry.cost += BigInt(usdToPico(run.costComparedCalls?.computedCostUsd ?? run.costUsd)); // Of the calls compared, where only some recorded a cost.
      entry.recorded += BigInt(usdToPico(run.recordedCostUsd));
    }
    byModel.set(run.model, entry);
  }
  const columns: Column[] = [
    { header: 'model', shrink: true },
    { header: 'runs', align: 'right' },
    { header: 'disagree', align: 'right' },
    { header: 'computed', align: 'right' },
    { header: 'recorded', align: 'right' },
    { header: 'gap', align: 'right' },
  ];
  const rows = [...byModel].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([model, e]): Cell[] => [
    model,
    e.runs,
    e.disagree,
    e.recordedRuns === 0 ? '-' : formatUsd(e.cost),
    e.recordedRuns === 0 ? '-' : formatUsd(e.recorded),
    e.recordedRuns === 0 ? '-' : relative(e.recorded === 0n ? (e.cost === 0n ? 0 : Infinity) : Number(e.cost - e.recorded) / Number(e.recorded)),
  ]);
  return formatTable(columns, rows, { maxWidth: view.width });
}

const RUN_COLUMNS: (Column & { wide?: boolean; cell: (run: CompareRun, name: string) => Cell })[] = [
  { header: 'run', shrink: true, cell: (_, name) => name },
  { header: 'model', shrink: true, wide: true, cell: (run) => run.model },
  { header: 'calls', align: 'right', cell: (run) => (run.recordedCalls === null ? run.calls : `${run.calls}/${run.recordedCalls}`) },
  { header: 'cost', align: 'right', cell: (run) => usdOrDash(run.costUsd) },
  { header: 'recorded', align: 'right', cell: (run) => (run.costComparedCalls === null ? usdOrDash(run.recordedCostUsd) : `${usdOrDash(run.recordedCostUsd)} (${run.costComparedCalls.compared} of ${run.costComparedCalls.calls} calls)`) },
  { header: 'gap', align: 'right', cell: (run) => relative(run.costRelativeError) },
  { header: 'input tok', align: 'right', wide: true, cell: (run) => tokenCount(run.inputTokens) },
  { header: 'recorded input', align: 'right', wide: true, cell: (run) => (run.recordedInputTokens === null ? '-' : tokenCount(run.recordedInputTokens)) },
  { header: 'Δ growth model', align: 'right', wide: true, cell: (run) => (run.growthModelDelta === null ? '-' : tokenCount(run.growthModelDelta)) },
  { header: 'verdict', shrink: true, minWidth: 20, cell: verdict },
];

/** `ok` only for a run whose cost was compared: a run without a recorded cost says so (its calls and tokens may still disagree). */
export function verdict(run: CompareRun): string {
  if (!run.agrees) return `disagrees: ${run.problems}`;
  if (run.costCompared) return 'ok';
  return recordedAny(run) ? 'no recorded cost' : 'nothing recorded';
}

/** The source recorded calls or tokens of the run (its cost aside). */
function recordedAny(run: CompareRun): boolean {
  return run.recordedCalls !== null || run.recordedInputTokens !== null || run.recordedOutputTokens !== null;
}

/**
 * `36 runs, 2 with a recorded cost, 0 disagree …`; the middle part only when some run recorded no cost.
 * With no recorded cost at all, what was compared (calls and tokens of the runs that recorded them), or that nothing was.
 */
function summaryLine(report: CompareReport): string {
  const s = report.summary;
  if (s.costCompared === 0 && s.runs > 0) {
    const withCounts = report.runs.filter(recordedAny).length;
    if (withCounts === 0) return `${counted(s.runs, 'run')}, none with a recorded cost, calls or tokens: nothing was compared (the source recorded none of them)\n`;
    return `${counted(s.runs, 'run')}, none with a recorded cost, so no cost was compared; ${s.disagreements} of the ${counted(withCounts, 'run')} with recorded calls or tokens disagree with them\n`;
  }
  const withCost = s.costCompared === s.runs ? '' : ` ${s.costCompared === 0 ? 'none' : s.costCompared} with a recorded cost,`;
  return `${counted(s.runs, 'run')},${withCost} ${s.disagreements} disagree with what was recorded (cost tolerance ${report.tolerance} relative)\n`;
}

export function renderCompareTable(report: CompareReport, view: ReportView): string {
  const s = report.summary;
  let text = summaryLine(report);
  text += modelSummary(report, view);
  if (report.runs.length > 0) {
    if (showPerRunRows(view, report.runs.length)) {
      const { prefix, suffix, short, runs } = shortenPaths(report.runs.map((run) => run.source));
      const columns = RUN_COLUMNS.filter((column) => view.wide || !column.wide);
      const rows = report.runs.map((run, i) => columns.map((column) => column.cell(run, short[i]!)));
      text += `\n${sourcesLineOf(s.runs, { prefix, suffix, short, runs })}${formatTable(columns, rows, { maxWidth: view.wide ? Infinity : view.width })}`;
    } else text += `\n${perRunHint(report.runs.length)}`;
  }
  return `${text}\n${reportFooter({ settings: report.settings, priceSource: report.prices.source, pricesNote: report.prices.note ?? '', warnings: report.warnings, width: view.width })}`;
}

/** Renders a replay report as JSON, a table, CSV or an ASCII chart (replayChart.ts). Output is a pure function of input. */
import { isPredictiveStop, predictiveStopsLine } from './predictiveStops.js';
import type { RunResult } from '../replay/replay.js';
import type { ReplayReport } from './replayReport.js';
import type { RunRecord } from './records.js';
import { PRICE_SOURCE_COLUMNS, priceSourceColumns } from '../pricing/source.js';
import { formatCsv } from './csv.js';
import { usdOrDash } from './money.js';
import { csvSettings, scenarioOfRun } from './scenarios.js';
import { SETTINGS_COLUMNS } from './settings.js';
import { formatFields, formatTable, type Cell, type Column } from './table.js';
import { shortenPaths, tokenCount, wrapLine } from './text.js';
import { strategyFields } from './strategyFields.js';
import { DEFAULT_VIEW, perRunHint, reportFooter, showPerRunRows, sourcesLineOf, type ReportView } from './view.js';
import { percentText } from './percentText.js';
import { OVERSHOOT_LABEL, overshootText } from './overshootWords.js';
import { falseStopsText, type FalseStopFigures } from './replayFalseStops.js';
import { tasksDoneText } from './replayTasksDone.js';

export type { ReportFormat } from '../cli/options.js';
export { REPORT_FORMATS } from '../cli/options.js';
import type { ReportFormat } from '../cli/options.js';
import { renderChart, type ChartInputOf } from './replayChart.js';
import { runsPerModelText } from './modelCounts.js';
import { byInputTable, type ReportInputs } from './byInputSummary.js';

export { chartUsd } from './replayChart.js';
export { runsPerModelText } from './modelCounts.js';

export function renderJson(report: unknown): string {
  return JSON.stringify(report, null, 2) + '\n';
}

const CSV_COLUMNS: (keyof RunRecord)[] = [
  'source', 'task', 'model', 'recordedModel', 'stopReason', 'stopDetail', 'steps', 'modelCalls', 'recordedCalls',
  'backtracks', 'failedCalls', 'toolCalls', 'inputTokens', 'cachedInputTokens', 'cacheWriteTokens', 'outputTokens',
  'reasoningTokens', 'costUsd', 'overshootUsd', 'recordedCostUsd', 'elapsedSeconds', 'cache', 'recordedOutcome',
  'recordedStatus', 'recordedInputTokens', 'inputTokenDelta', 'pricedAsOf',
];

const STEP_COLUMNS = [
  'source', 'call', 'step', 'inputTokens', 'cachedInputTokens', 'cacheWriteTokens', 'outputTokens', 'costUsd',
  'cumulativeInputTokens', 'cumulativeOutputTokens', 'cumulativeCostUsd', 'modelInputTokens', 'recordedInputTokens', 'backtrack', 'failed',
  'summary', 'cacheWrite1hTokens', 'tools', 'toolResultTokens', 'toolResultTokensBeforeCap', 'skippedTools',
];

/** A call's tool names in one CSV cell: joined with a comma, which the CSV writer quotes (csv.ts). */
const TOOL_NAMES_SEPARATOR = ',';

/** The settings and price table on every CSV row, so a CSV stands alone (a synthetic run's: its scenario's settings). */
function standAloneCsv(rows: readonly { source: string }[], report: ReplayReport, columns: readonly string[]): string {
  const csv = csvSettings(rows, report.settings.spec, report.settings.scenarios, priceSourceColumns(report.prices.source));
  return formatCsv(csv.rows, columns, csv.shared);
}

const TRAILING_COLUMNS = [...SETTINGS_COLUMNS, ...PRICE_SOURCE_COLUMNS];

/** One row per model call of every run (the report must have been built with perStep). */
export function renderStepsCsv(report: ReplayReport): string {
  const rows = report.runs.flatMap((run) =>
    (run.perStep ?? []).map((step) => ({
      source: run.source,
      cache: run.cache,
      ...step,
      tools: step.tools?.join(TOOL_NAMES_SEPARATOR),
      skippedTools: step.skippedTools?.join(TOOL_NAMES_SEPARATOR),
    })),
  );
  return standAloneCsv(rows, report, [...STEP_COLUMNS, ...TRAILING_COLUMNS]);
}

/** One row per run (or per call, with perStep); settings and price source repeated on every row. */
export function renderCsv(report: ReplayReport): string {
  if (report.runs.some((run) => run.perStep !== undefined)) return renderStepsCsv(report);
  return standAloneCsv(report.runs, report, [...(CSV_COLUMNS as string[]), ...TRAILING_COLUMNS]);
}

function signed(n: number): string {
  return n > 0 ? `+${tokenCount(n)}` : tokenCount(n);
}

function summaryFields(report: ReplayReport, width: number): string {
  const s = report.summary;
  const reasons = Object.entries(s.stopReasons)
    .filter(([, n]) => n > 0)
    .map(([reason, n]) => `${reason} ${n}`)
    .join(', ');
  // Where runs carry ground truth, completion as a sweep counts it (tasks done), beside the stop reasons'.
  const tasks = s.tasksDone;
  const fields: [string, Cell][] = [
    ['runs', `${s.runs}, completed ${s.completed} (${percentText(s.completionRate)})`],
    ...(tasks === undefined ? [] : [['tasks done', tasksDoneText(tasks, s.runs)] as [string, Cell]]),
    ['stop reasons', reasons || '-'],
    ['models', modelCounts(report)],
    ['total cost', s.recordedCostUsd === undefined ? usdOrDash(s.totalCostUsd) : `${usdOrDash(s.totalCostUsd)} (recorded ${usdOrDash(s.recordedCostUsd)})`],
    ['cost per run', usdOrDash(s.meanCostPerRunUsd)],
    tasks === undefined ? ['cost per completed run', usdOrDash(s.costPerCompletedRunUsd)] : ['cost per task done', usdOrDash(tasks.costPerDoneUsd)],
    ['wasted (runs not completed)', usdOrDash(s.wastedUsd)],
  ];
  if (s.falseStops !== undefined) fields.push(['false stops', falseStopsText(s as FalseStopFigures)]);
  if (budgetBrakeOn(report)) fields.push([OVERSHOOT_LABEL, overshootText(s.totalOvershootUsd, s.maxOvershootUsd, 'run')]);
  fields.push(...strategyFields(s));
  return formatFields(fields, { maxWidth: width });
}

/**
 * Whether a budget brake (`--max-cost`) was on: given, a scenario file's, or (each run under its own
 * recorded limits) one a run overshot. Overshoot is spend past the budget: without one it is always $0.
 */
function budgetBrakeOn(report: ReplayReport): boolean {
  const { brakeSettings: brakes, scenarios = [] } = report.settings;
  return brakes.maxCostUsd !== undefined || scenarios.some((scenario) => scenario.brakes.maxCostUsd !== undefined) || report.summary.totalOvershootUsd > 0;
}

/** `deepseek-chat 23, deepseek-reasoner 15` (runs per model as priced), or the one model. */
function modelCounts(report: ReplayReport): string {
  return runsPerModelText(report.runs.map((run) => run.model));
}

/** A per-run row's run: its source as the table shows it, and whether it is a scenario file's synthetic run (scenarios.ts scenarioOfRun). */
interface RunRow {
  source: string;
  synthetic: boolean;
}

/** Which kinds of run the table holds: a column of one kind is shown only when its runs are there. */
interface RunKinds {
  synthetic: boolean;
  recorded: boolean;
}

interface RunColumn extends Column {
  cell: (run: RunRecord, row: RunRow) => Cell;
  /** Shown only with --wide. */
  wide?: boolean;
  /** Shown only for these runs (default: always): the entry where some run is synthetic, recorded figures where some is recorded. */
  shownFor?: (kinds: RunKinds) => boolean;
}

/** What a synthetic run has no recording of (its recorded calls are the calls it made): said as not there. */
const NOT_RECORDED = '-';
const someSynthetic = (kinds: RunKinds) => kinds.synthetic;
const someRecorded = (kinds: RunKinds) => kinds.recorded;

const RUN_COLUMNS: RunColumn[] = [
  { header: 'run', shrink: true, cell: (_, row) => row.source },
  // The population entry a synthetic run was drawn from: its name, else its behaviour (RunRecord.task, CSV/JSON `task`).
  { header: 'entry', shrink: true, shownFor: someSynthetic, cell: (run, row) => (row.synthetic ? (run.task ?? NOT_RECORDED) : NOT_RECORDED) },
  { header: 'model', shrink: true, wide: true, cell: (run) => run.model },
  { header: 'stop', cell: (run) => (allCallsFailed(run) ? `${run.stopReason} *` : run.stopReason) },
  { header: 'steps', align: 'right', cell: (run) => run.steps },
  { header: 'calls/recorded', align: 'right', wide: true, shownFor: someRecorded, cell: (run, row) => `${run.modelCalls}/${row.synthetic ? NOT_RECORDED : run.recordedCalls}` },
  { header: 'calls', align: 'right', wide: true, shownFor: (kinds) => !kinds.recorded, cell: (run) => run.modelCalls },
  { header: 'input tok', align: 'right', cell: (run) => tokenCount(run.inputTokens) },
  { header: 'cached tok', align: 'right', wide: true, cell: (run) => tokenCount(run.cachedInputTokens) },
  { header: 'output tok', align: 'right', cell: (run) => tokenCount(run.outputTokens) },
  { header: 'cost', align: 'right', cell: (run) => usdOrDash(run.costUsd) },
  { header: 'recorded', align: 'right', shownFor: someRecorded, cell: (run) => usdOrDash(run.recordedCostUsd) },
  { header: 'overshoot', align: 'right', wide: true, cell: (run) => usdOrDash(run.overshootUsd) },
  { header: 'elapsed s', align: 'right', wide: true, cell: (run) => run.elapsedSeconds.toFixed(1) },
  { header: 'Δ input vs model', align: 'right', wide: true, shownFor: someRecorded, cell: (run) => (run.inputTokenDelta === undefined ? '-' : signed(run.inputTokenDelta)) },
];

/**
 * A run whose every call failed at the provider (a recording that ended on its first call's timeout or
 * server error): its steps are those failed calls, and nothing was billed. Such rows are marked `*` in the
 * stop column and said in a line under the table, not left as unexplained 0s.
 */
export function allCallsFailed(run: Pick<RunRecord, 'failedCalls' | 'modelCalls'>): boolean {
  return run.failedCalls > 0 && run.failedCalls === run.modelCalls;
}

/** The line under the per-run table for the runs allCallsFailed marks, with their recorded end (`Timeout`); empty when none. */
export function failedRunsNote(runs: readonly RunRecord[], width: number): string {
  const failed = runs.filter(allCallsFailed);
  if (failed.length === 0) return '';
  const ends = [...new Set(failed.map((run) => run.stopDetail).filter((detail) => detail !== ''))];
  const why = ends.length === 0 ? '' : ` (${ends.join(', ')})`;
  return wrapLine('* ', `every call of the run failed at the provider${why} and the recording ends there: a failed call counts as a step, and nothing was billed`, width);
}

/** The per-run table (columns marked `wide` only with view.wide), sources shortened to the part that differs. */
function runsTable(report: ReplayReport, view: ReportView): string {
  const shortened = shortenPaths(report.runs.map((run) => run.source));
  const runRows = report.runs.map((run, i): RunRow => ({ source: shortened.short[i]!, synthetic: scenarioOfRun(run.source, report.settings.scenarios) !== undefined }));
  const kinds = { synthetic: runRows.some((row) => row.synthetic), recorded: runRows.some((row) => !row.synthetic) };
  const columns = RUN_COLUMNS.filter((column) => (view.wide || !column.wide) && (column.shownFor?.(kinds) ?? true));
  const rows = report.runs.map((run, i) => columns.map((column) => column.cell(run, runRows[i]!)));
  const deltaNote =
    view.wide && report.runs.some((run) => run.inputTokenDelta !== undefined)
      ? 'Δ input vs model: recorded prompt tokens minus what the growth model rebuilds (system + goal + outputs + tool results): overhead such as tool schemas and framing\n'
      : '';
  // --wide asks for every column: the table may then be wider than the terminal.
  return sourcesLineOf(report.runs.length, shortened) + formatTable(columns, rows, { maxWidth: view.wide ? Infinity : view.width }) + failedRunsNote(report.runs, view.width) + deltaNote;
}

/** Summary first (by input too, from two inputs up: byInputSummary.ts), then per-run rows (when few, or with --per-run), then settings, prices and warnings. */
export function renderTable(report: ReplayReport, view: ReportView = DEFAULT_VIEW, inputs?: ReportInputs): string {
  let text = summaryFields(report, view.width);
  const byInput = byInputTable(report, inputs, view.width);
  if (byInput !== '') text += '\n' + byInput;
  if (report.runs.length > 0) text += '\n' + (showPerRunRows(view, report.runs.length) ? runsTable(report, view) : perRunHint(report.runs.length));
  const predictive = predictiveStopsLine(report.runs.filter(isPredictiveStop).length);
  if (predictive !== '') text += wrapLine('', predictive, view.width);
  return `${text}\n${reportFooter({ settings: report.settings.spec, scenarios: report.settings.scenarios, priceSource: report.prices.source, pricesNote: report.prices.note ?? '', warnings: report.warnings, width: view.width })}`;
}

/** `inputOf`: which input the chart and the table's by-input rows group a run's file under (replayChart.ts chartInputOf); `judged`: each run as judged for tasks done. */
export function renderReport(format: ReportFormat, report: ReplayReport, results: readonly RunResult[], view: ReportView = DEFAULT_VIEW, inputs?: Omit<ReportInputs, 'results'> & { inputOf: ChartInputOf }): string {
  switch (format) {
    case 'json':
      return renderJson(report);
    case 'csv':
      return renderCsv(report);
    case 'table':
      return renderTable(report, view, inputs === undefined ? undefined : { ...inputs, results });
    case 'chart':
      return renderChart(results, report, view, inputs?.inputOf);
  }
}

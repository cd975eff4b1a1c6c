/**
 * The what-if report: per setting, how many runs completed (with ground truth: tasks done, as sweep counts them), false stops, runs caught early and the spend
 * saved on them, spend (in text, its change too), against the baseline (each run under the limits it was
 * recorded with); per run, each setting's stop, steps and spend, and the strategy figures the summary has (whatifFigures.ts). Text
 * leads with the summary; per-run rows follow when few or asked for.
 */
import { picoToUsd } from '../money.js';
import type { CacheMode } from '../context/strategy.js';
import type { PricesRecord } from './pricedModels.js';
import { whatIfBaselineStrategy, whatIfBaselineTotals, type WhatIfRun, type WhatIfSetting, type WhatIfTotal } from '../replay/whatif.js';
import { LOOPCOST_VERSION } from '../version.js';
import { formatUsdNumber } from './money.js';
import { COST_PICO, spendChange, type ExactSpend } from './whatifSpendChange.js';
import { scenarioSettingsRecords, type ScenarioRunSettings, type ScenarioSettingsRecord } from './scenarios.js';
import { withScenarioCaches, type ReportSettings } from './settings.js';
import { COLUMN_GAP as GAP, formatTable, type Cell, type Column } from './table.js';
import { completedApart, layOutStops, narrowestWidth, type StopsOptions } from './stopColumns.js';
import { strategyFieldsText, type StrategyFigureRecord } from './strategyFields.js';
import { figureKeysOf, strategyRecord, type RunFigures } from './whatifFigures.js';
import { renderWhatIfCsv } from './whatifCsv.js';
import { perRunText } from './whatifRunTable.js';
import type { TasksDone } from '../population/sweep.js';
import { countedLabels } from './sweepCounted.js';
import { whatIfRunRows, whatIfTotalRows } from './whatifRows.js';
import { displayWidth, numberedLegend, printableCell, wrapLine } from './text.js';
import { perRunHint, reportFooter, showPerRunRows, type ReportView } from './view.js';
import type { ReportWarning } from './warnings.js';
import { maxOf } from '../metrics/extremes.js';
import { predictiveStopsLine } from './predictiveStops.js';
import { legendText } from './whatifLegend.js';
import { everyStopReason } from './stopReasonCounts.js';

export { legendText, renderWhatIfCsv };

export interface WhatIfReport {
  tool: { name: 'loopcost'; version: string };
  /** `scenarios`: what each scenario file's synthetic runs ran under; their baseline is the file's brakes. */
  settings: ReportSettings & { scenarios?: ScenarioSettingsRecord[] };
  /** Replay's prices block (pricedModels.ts pricesRecord): the table, `source`, `models` (each run priced once, whatever the settings), `days`, `note`. */
  prices: PricesRecord;
  /** `prices.note` again (kept for scripts that read it). */
  pricesNote?: string;
  /** Strategy figures (summary calls and cost, cache hits lost, skipped actions), baseline and totals alike: present where not 0. */
  /** `predictiveBudgetStops`: runs the predictive budget bound stopped (present when any). */
  /** `groundTruthRuns`: runs whose completions stopped were judged by their ground truth (synthetic runs, generated traces; present when any). */
  /** `tasksDone` (present where some run carries ground truth): as replay's summary and sweep's rows count them (replay/whatifTasksDone.ts); so each setting's. */
  baseline: StrategyFigureRecord & ExactSpend & { runs: number; completed: number; tasksDone?: TasksDone; costUsd: number; stopReasons: Partial<Record<string, number>>; predictiveBudgetStops?: number; groundTruthRuns?: number };
  totals: (StrategyFigureRecord & ExactSpend & {
    setting: string;
    /** The setting's brakes were set on top of each run's baseline brakes (false: a whole set in their place, as a setting naming a preset is). */
    onBaseline: boolean;
    runs: number;
    completed: number;
    tasksDone?: TasksDone;
    /** Runs that completed in the baseline that a brake of this setting stopped (with ground truth: whose task was done in the baseline, stopped before the step it was done at): counted against the baseline, not against no brakes (sweep's and check's false stops). */
    baselineCompletionsStopped: number;
    /** The same count under its former name, kept for readers of it. */
    falseStops: number;
    caughtRuns: number;
    costUsd: number;
    savedUsd: number;
    stopReasons: Partial<Record<string, number>>;
    /** Runs the predictive budget bound stopped (budget stops under budget-mode predict): present when any. */
    predictiveBudgetStops?: number;
  })[];
  /** Each run under each setting; with the strategy figures the baseline or any setting has, on every row (0 where none): whatifFigures.ts. */
  runs: (RunFigures & {
    source: string;
    setting: string;
    baselineStopReason: string;
    /** Whether the run did its task in the baseline, and under the setting (`taskDone`): present where it carries ground truth. */
    baselineTaskDone?: boolean;
    baselineSteps: number;
    baselineCostUsd: number;
    stopReason: string;
    taskDone?: boolean;
    steps: number;
    costUsd: number;
    /** The run completed in the baseline and a brake of this setting stopped it (with ground truth: its task done in the baseline, stopped before the step it was done at). */
    baselineCompletionStopped: boolean;
    /** The same under its former name, kept for readers of it. */
    falseStop: boolean;
    savedUsd: number;
    /** The cache the run took (RunResult.cache, as replay's rows carry it: `recorded`, `on`, `off`); absent on a session tree's rows (its parts may differ). */
    cache?: CacheMode;
    pricedAsOf?: string;
  })[];
  warnings: ReportWarning[];
}

export function buildWhatIfReport(args: {
  result: { runs: WhatIfRun[]; totals: WhatIfTotal[] };
  settings: readonly WhatIfSetting[];
  reportSettings: ReportSettings;
  prices: PricesRecord;
  /** The day a run's dated prices were read at. */
  pricedAsOf?: (source: string) => string | undefined;
  warnings: readonly ReportWarning[];
  /** The scenario files among the inputs, with what their runs ran under. */
  scenarios?: readonly ScenarioRunSettings[];
  /** The cache each run took, in the order of `result.runs` (a trace file's: `--cache`, else defaultCacheMode; a synthetic run's: its file's). */
  runCaches?: readonly CacheMode[];
}): WhatIfReport {
  const { result } = args;
  const base = whatIfBaselineTotals(result.runs);
  const baselineFigures = strategyRecord(whatIfBaselineStrategy(result.runs));
  const byTruth = result.runs.filter((run) => run.byGroundTruth === true).length;
  const keys = figureKeysOf([baselineFigures, ...result.totals]);
  return {
    tool: { name: 'loopcost', version: LOOPCOST_VERSION },
    settings: args.scenarios === undefined || args.scenarios.length === 0 ? args.reportSettings : scenarioSettings(args.reportSettings, args.scenarios),
    prices: args.prices,
    ...(args.prices.note ? { pricesNote: args.prices.note } : {}),
    baseline: {
      runs: base.runs,
      completed: base.completed,
      ...(base.tasksDone === undefined ? {} : { tasksDone: base.tasksDone }),
      costUsd: picoToUsd(base.costPico),
      [COST_PICO]: base.costPico,
      stopReasons: everyStopReason(base.stopReasons),
      ...(base.predictiveStops === 0 ? {} : { predictiveBudgetStops: base.predictiveStops }),
      ...(byTruth === 0 ? {} : { groundTruthRuns: byTruth }),
      ...baselineFigures,
    },
    totals: whatIfTotalRows(result.totals, args.settings).map((row, i) => ({ ...row, [COST_PICO]: result.totals[i]!.costPico })),
    runs: whatIfRunRows(result.runs, { settings: args.settings, keys, pricedAsOf: args.pricedAsOf, runCaches: args.runCaches }),
    warnings: [...args.warnings],
  };
}

/** The settings with the scenario files' own: the default cache said as their runs took it (withScenarioCaches). */
function scenarioSettings(settings: ReportSettings, scenarios: readonly ScenarioRunSettings[]): WhatIfReport['settings'] {
  return { ...withScenarioCaches(settings, scenarios.map((scenario) => scenario.strategy.cache)), scenarios: scenarioSettingsRecords(scenarios) };
}

const usd = (value: number): string => formatUsdNumber(value);

/** Runs caught and the spend saved on them alone (`2 ($0.2296)`; `0` when none): the saving is not the drop in spend. */
const caughtText = (t: { caughtRuns: number; savedUsd: number }): string => (t.caughtRuns === 0 ? '0' : `${t.caughtRuns} (${usd(t.savedUsd)})`);

/**
 * The baseline row's name: each recorded run under its recorded limits (under the command's context, so
 * not "as recorded" when a strategy re-prices it); with scenario files, each
 * synthetic run under its file's brakes (said in the note under the table, to keep the name short).
 */
function baselineLabel(report: WhatIfReport): string {
  return report.settings.scenarios === undefined ? 'baseline (recorded limits)' : 'baseline';
}

const SETTING_COLUMN: Column = { header: 'setting' };

const FIGURE_COLUMNS: Column[] = [
  { header: 'completed', align: 'right' },
  { header: 'completions\nstopped', align: 'right' },
  { header: 'caught (saved)', align: 'right' },
  { header: 'spend', align: 'right' },
  { header: 'Δ spend', align: 'right' },
];

/** The figure columns, completion counted as sweep's table counts it (countedLabels: `tasks done` where runs carry ground truth). */
function figureColumns(report: WhatIfReport): Column[] {
  const count = countedLabels([report.baseline, ...report.totals]).count;
  return count === FIGURE_COLUMNS[0]!.header ? FIGURE_COLUMNS : [{ ...FIGURE_COLUMNS[0]!, header: count }, ...FIGURE_COLUMNS.slice(1)];
}

/** Stop counts with `completed` among them where the first column counts tasks done (not stop reasons): a row's stops then add up to its runs. */
const stopsOptions = (report: WhatIfReport): StopsOptions => ({ withCompleted: completedApart([report.baseline, ...report.totals]) });

/** A row's count in that column: its tasks done where counted (replay/whatifTasksDone.ts), else its runs that ended `completed`. */
const countText = (row: { runs: number; completed: number; tasksDone?: TasksDone }): string => `${row.tasksDone?.done ?? row.completed}/${row.runs}`;

/** The figure columns as measured beside the stop counts: each header on one line, as a table that fits shows it (not `\n` escaped). */
const onOneLine = (columns: readonly Column[]): Column[] => columns.map((column) => ({ ...column, header: column.header.replace('\n', ' ') }));

/** The setting column keeps this much room (less when every setting is shorter) before stop counts take any; a longer setting may become `#1`, …. */
const SETTING_ROOM = 16;

/**
 * Settings longer than `room` are shown as `#1`, `#2`, … with a legend above the table (wrapped at
 * `width`), so neither the table nor a setting is cut.
 */
function settingLabels(report: WhatIfReport, room: number, width: number): { labels: Map<string, string>; legend: string } {
  const labels = new Map(report.totals.map((t) => [t.setting, t.setting]));
  const longest = maxOf(report.totals.map((t) => displayWidth(printableCell(t.setting))), 0);
  if (longest <= room) return { labels, legend: '' };
  const numbered = numberedLegend(report.totals.map((t) => t.setting), width);
  report.totals.forEach((t, i) => labels.set(t.setting, numbered.labels[i]!));
  return { labels, legend: numbered.legend };
}

/**
 * The per-setting summary: the baseline, then each setting. Stop counts are never cut (stopColumns.ts):
 * long settings give way first (as `#1`, …); counts that still do not fit get a table of their own.
 */
function summaryTable(report: WhatIfReport, width: number, textWidth: number): { text: string; labels: Map<string, string> } {
  const b = report.baseline;
  const baseline = baselineLabel(report);
  const figures: Cell[][] = [
    [countText(b), '-', '-', usd(b.costUsd), '-'],
    ...report.totals.map((t) => [countText(t), t.baselineCompletionsStopped, caughtText(t), usd(t.costUsd), spendChange(t, b)]),
  ];
  const counts = [b.stopReasons, ...report.totals.map((t) => t.stopReasons)];
  const figureHeads = figureColumns(report);
  const besides = GAP + narrowestWidth(onOneLine(figureHeads), figures);
  const longest = maxOf(report.totals.map((t) => displayWidth(printableCell(t.setting))), 0);
  const floor = Math.max(SETTING_COLUMN.header.length, baseline.length, Math.min(longest, SETTING_ROOM));
  const stops = layOutStops(counts, width - floor - besides, stopsOptions(report));
  const own = stops.fits ? undefined : layOutStops(counts, width - floor, { ...stopsOptions(report), oneColumn: false });
  const { labels, legend } = settingLabels(report, Math.max(floor, width - Math.max(besides + (stops.fits ? stops.width : 0), own?.width ?? 0)), textWidth);
  const names = [baseline, ...report.totals.map((t) => labels.get(t.setting)!)];
  const columns = [SETTING_COLUMN, ...figureHeads, ...(stops.fits ? stops.columns : [])];
  let text = legend + formatTable(columns, figures.map((cells, i) => [names[i]!, ...cells, ...(stops.fits ? stops.cells(counts[i]!) : [])]), { maxWidth: width });
  if (own !== undefined) text += `\n${own.title}, per setting:\n${formatTable([SETTING_COLUMN, ...own.columns], names.map((name, i) => [name, ...own.cells(counts[i]!)]), { maxWidth: width })}`;
  const note = (own ?? stops).note;
  return { text: note === '' ? text : text + wrapLine('', note, textWidth), labels };
}

/** Each row's strategy figures (the baseline's first) under its name in the summary, one line each where any. */
function strategyLines(report: WhatIfReport, labels: Map<string, string>, width: number): string {
  const rows: [string, StrategyFigureRecord][] = [[baselineLabel(report), report.baseline], ...report.totals.map((t): [string, StrategyFigureRecord] => [labels.get(t.setting)!, t])];
  let text = '';
  for (const [name, figures] of rows) {
    const strategy = strategyFieldsText(figures);
    if (strategy !== '') text += wrapLine(`${printableCell(name)}: `, strategy, width, ';');
  }
  return text;
}

/** Under the legend, when the predictive budget stopped runs: how many, in the baseline and under which settings. */
function predictiveLine(report: WhatIfReport, labels: Map<string, string>, width: number): string {
  const rows: [string, number][] = [[baselineLabel(report), report.baseline.predictiveBudgetStops ?? 0], ...report.totals.map((t): [string, number] => [labels.get(t.setting)!, t.predictiveBudgetStops ?? 0])];
  const stopped = rows.filter(([, runs]) => runs > 0);
  const runs = stopped.reduce((sum, [, n]) => sum + n, 0);
  const where = `(${stopped.map(([name, n]) => `${n} ${name === baselineLabel(report) ? 'in the baseline' : `under ${printableCell(name)}`}`).join(', ')})`;
  return runs === 0 ? '' : wrapLine('', predictiveStopsLine(runs, where), width);
}


/** The summary, then per-run rows when few or asked for. `--wide`: no table cut, however wide. */
export function renderWhatIfTable(report: WhatIfReport, view: ReportView): string {
  const width = view.wide ? Infinity : view.width;
  const summary = summaryTable(report, width, view.width);
  const labels = summary.labels;
  let text = summary.text + strategyLines(report, labels, view.width);
  text += wrapLine('', legendText(report), view.width);
  text += predictiveLine(report, labels, view.width);
  if (report.runs.length > 0) {
    if (showPerRunRows(view, report.runs.length)) text += `\n${perRunText(report, { labels, width })}`;
    else text += `\n${perRunHint(report.runs.length, 'run × setting rows')}`;
  }
  return `${text}\n${reportFooter({ settings: report.settings, scenarios: report.settings.scenarios, priceSource: report.prices.source, pricesNote: report.prices.note ?? '', warnings: report.warnings, width: view.width })}`;
}

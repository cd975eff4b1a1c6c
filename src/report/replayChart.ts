/**
 * replay's chart report (`--format chart`, `replay-chart.txt`). For each input — a trace file or a
 * scenario file: a run's name before its `#`, as the table's names group runs — one chart of its runs
 * together: input tokens per call and cumulative cost by call, median and p95 (chartPopulation.ts), with
 * how many runs make each call under them. Each run's own chart follows for an input of at most FEW_RUNS
 * runs (an input of one run has only its own), or for every run with `--per-run`. A directory or glob
 * that brought in more than MANY_FILES trace files (a folder of sessions, one run each) is one input: its
 * runs charted together, not a chart per file. Needs runs replayed with keepSteps. Output is a pure
 * function of the input.
 */
import { STOP_REASONS } from '../brakes/stopReasons.js';
import { picoToUsd } from '../money.js';
import { counted } from '../plural.js';
import type { RunResult } from '../replay/replay.js';
import { plotOnRows } from './chartRows.js';
import { AXIS_LABEL_COLUMNS, callAxisRows, chartColumns, plottedValues, populationFigures, type ChartColumns, type PopulationFigures } from './chartPopulation.js';
import { formatUsd, formatUsdNumber } from './money.js';
import { runsPerModelText } from './modelCounts.js';
import type { ReplayReport } from './replayReport.js';
import { printableCell, splitRun, truncateMiddle, wrapLine } from './text.js';
import { DEFAULT_VIEW, perRunHint, reportFooter, type ReportView } from './view.js';

/** An input of at most this many runs gets each run's chart after its population chart (every input does with --per-run). */
export const FEW_RUNS = 3;

/** Rows of a chart above its lowest (asciichart draws height + 1 rows). */
const CHART_HEIGHT = 8;

/** Columns asciichart's axis labels take, and one spare at the end of each line. */
const CHART_LABEL_WIDTH = AXIS_LABEL_COLUMNS + 2;

/** A cost axis label in the report's money format, right-aligned. */
export function chartUsd(usd: number): string {
  return formatUsdNumber(Math.max(0, usd)).padStart(11);
}

/** A token axis label, right-aligned. */
function tokenLabel(tokens: number): string {
  return tokens.toFixed(0).padStart(11);
}

/**
 * A chart of `series` sharing one set of rows, each point on its nearest labelled row (chartRows.ts). A
 * flat chart (every value the same: a run of one call) is drawn from 0 up to its value, which labels the
 * line's row (not $0 for $0.000102, as asciichart's own rounding of a flat line said).
 */
function plot(series: number[][], format: (value: number) => string): string {
  const first = series[0]?.[0];
  const flat = series.every((values) => values.every((value) => value === first));
  return plotOnRows(series, { height: CHART_HEIGHT, format, ...(flat ? { span: [0] } : {}) });
}

/** A directory or glob that brought in more than this many trace files is charted as one input (its runs together), not file by file. */
export const MANY_FILES = 12;

/** Which input a run's file is charted under (its own name, or the directory or glob that brought it in). */
export type ChartInputOf = (file: string) => string;

const ownFile: ChartInputOf = (file) => file;

/**
 * Each file charted as its own input, but a trace file of a directory or glob (as given) that brought in
 * more than MANY_FILES trace files: under that (scenario files, each a population of its own, never).
 * `broughtIn`: file → directory or glob, for every file one brought in.
 */
export function chartInputOf(traceFiles: readonly string[], broughtIn: ReadonlyMap<string, string> | undefined): ChartInputOf {
  if (broughtIn === undefined) return ownFile;
  const files = new Map<string, number>();
  for (const file of traceFiles) {
    const from = broughtIn.get(file);
    if (from !== undefined) files.set(from, (files.get(from) ?? 0) + 1);
  }
  return (file) => {
    const from = broughtIn.get(file);
    return from !== undefined && (files.get(from) ?? 0) > MANY_FILES ? from : file;
  };
}

/** The runs of each input, inputs in the order their first run came. */
export function runsByInput(results: readonly RunResult[], inputOf: ChartInputOf = ownFile): Map<string, RunResult[]> {
  const groups = new Map<string, RunResult[]>();
  for (const run of results) {
    const input = inputOf(splitRun(run.source)[0]);
    const group = groups.get(input);
    if (group === undefined) groups.set(input, [run]);
    else group.push(run);
  }
  return groups;
}

/** Whether each of an input's runs gets its own chart. */
function chartsEachRun(runs: number, view: ReportView): boolean {
  return view.perRun === true || runs <= FEW_RUNS;
}

/** The charts, then the report's footer (settings, prices, warnings). */
export function renderChart(results: readonly RunResult[], report: ReplayReport, view: ReportView = DEFAULT_VIEW, inputOf: ChartInputOf = ownFile): string {
  const footer = reportFooter({ settings: report.settings.spec, scenarios: report.settings.scenarios, priceSource: report.prices.source, pricesNote: report.prices.note ?? '', warnings: report.warnings, width: view.width });
  return `${chartBody(results, view, inputOf)}\n${footer}`;
}

/** A heading, then every input's population chart and the per-run charts shown, a blank line between charts. */
export function chartBody(results: readonly RunResult[], view: ReportView = DEFAULT_VIEW, inputOf: ChartInputOf = ownFile): string {
  const groups = runsByInput(results, inputOf);
  const parts: string[] = [chartsHeading(groups, view, results.length)];
  for (const [input, runs] of groups) {
    if (runs.length > 1) parts.push(populationChart(input, runs, view));
    if (chartsEachRun(runs.length, view)) parts.push(...runs.map((run) => runChart(run, view)));
  }
  return parts.join('\n');
}

/** What the charts below are, and how many runs' own charts were left out (and how to see them). */
function chartsHeading(groups: Map<string, RunResult[]>, view: ReportView, runs: number): string {
  const sizes = [...groups.values()].map((group) => group.length);
  const hidden = sizes.filter((n) => !chartsEachRun(n, view)).reduce((sum, n) => sum + n, 0);
  const shown = view.perRun === true ? "then each run's own chart" : `each run's own chart only for an input of at most ${FEW_RUNS} runs`;
  const folded = [...groups].some(([input, group]) => group.some((run) => splitRun(run.source)[0] !== input));
  const inputs = folded ? `trace or scenario files; a directory or glob of more than ${MANY_FILES} trace files is one` : 'trace or scenario files';
  const text = wrapLine('', `${counted(runs, 'run')} from ${counted(groups.size, 'input')} (${inputs}): one chart of each input's runs together (median and p95 by call), ${shown}`, view.width);
  return text + (hidden > 0 ? perRunHint(hidden, `per-run charts of inputs with more than ${FEW_RUNS} runs`) : '');
}

/** `completed 80, max_steps 100`: runs per stop reason, in STOP_REASONS order. */
function stopCounts(runs: readonly RunResult[]): string {
  return STOP_REASONS.map((reason) => [reason, runs.filter((run) => run.stopReason === reason).length] as const)
    .filter(([, n]) => n > 0)
    .map(([reason, n]) => `${reason} ${n}`)
    .join(', ');
}

/** An input's name as a chart's title shows it. */
function shownName(name: string, view: ReportView): string {
  return truncateMiddle(printableCell(name), Math.max(20, view.width - 50));
}

/**
 * One input's runs together: a line of what they are (runs, models, cost per run, stops), then tokens per
 * call and cumulative cost by call (p95, median), the runs making each call under the first.
 */
function populationChart(input: string, runs: readonly RunResult[], view: ReportView): string {
  const figures = populationFigures(runs);
  const calls = figures.reaching.length;
  const models = printableCell(runsPerModelText(runs.map((run) => run.model)));
  const cost = calls === 0 ? '' : `, cost per run median ${formatUsd(figures.cumulativeCostPico.p50[calls - 1]!)}, p95 ${formatUsd(figures.cumulativeCostPico.p95[calls - 1]!)}`;
  const title = wrapLine('', `${shownName(input, view)} — ${runs.length} runs (${models})${cost}; stop: ${stopCounts(runs)}`, view.width);
  if (calls === 0) return `${title}no model calls\n`;
  const columns = chartColumns(calls, view.width - CHART_LABEL_WIDTH);
  return title + populationTokens(figures, columns, view.width) + populationCost(figures, columns, view.width);
}

/** `, largest of every 3 calls per column` when calls are bucketed. */
function perColumnText(columns: ChartColumns): string {
  return columns.per > 1 ? `, largest of every ${columns.per} calls per column` : '';
}

function populationTokens(figures: PopulationFigures, columns: ChartColumns, width: number): string {
  const { p50, p95 } = figures.inputTokens;
  const about = `input tokens per call, p95 and median (upper, lower line) of the runs that make it${perColumnText(columns)}; below, how many do`;
  return wrapLine('', about, width) + plot([plottedValues(p95, columns), plottedValues(p50, columns)], tokenLabel) + '\n' + callAxisRows(figures.reaching, columns, width);
}

function populationCost(figures: PopulationFigures, columns: ChartColumns, width: number): string {
  const { p50, p95 } = figures.cumulativeCostPico;
  const about = `cumulative cost (USD) by call, p95 and median (upper, lower line) of every run, one that stopped at its total${perColumnText(columns)}`;
  const usd = (values: number[]) => plottedValues(values.map((pico) => picoToUsd(pico)), columns);
  return wrapLine('', about, width) + plot([usd(p95), usd(p50)], chartUsd) + '\n';
}

/** One run's tokens per call (its cached part too, when any) and cumulative cost. */
function runChart(run: RunResult, view: ReportView): string {
  const name = shownName(run.source, view);
  if (run.rows.length === 0) return `${name}: no model calls\n`;
  const columns = chartColumns(run.rows.length, view.width - CHART_LABEL_WIDTH);
  const input = plottedValues(run.rows.map((row) => row.inputTokens), columns);
  const cached = plottedValues(run.rows.map((row) => row.cachedInputTokens), columns);
  const cost = plottedValues(run.rows.map((row) => picoToUsd(row.cumulativeCostPico)), columns);
  const anyCached = cached.some((n) => n > 0);
  return (
    wrapLine('', `${name} — ${printableCell(run.model)}, stop: ${run.stopReason}`, view.width) +
    `input tokens per call (${counted(run.rows.length, 'call')}${perColumnText(columns)})${anyCached ? ', upper line; cached part, lower line' : ''}\n` +
    plot(anyCached ? [input, cached] : [input], tokenLabel) +
    `\ncumulative cost (USD)\n` +
    plot([cost], chartUsd) +
    '\n'
  );
}

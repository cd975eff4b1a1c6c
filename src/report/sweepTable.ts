/**
 * The sweep report's table: one row per configuration (grid values, figures, stop counts, strategy
 * figures), in pieces (sweepTablePieces): every row's figures are made once to measure them and again to
 * write them, a few thousand rows at a time, so a sweep of 122,880 configurations never holds its rows'
 * cells or the table's text whole (measuring in one pass, not three, took its CPU from ~1.4× JSON's to
 * within ~5%). The recommendation and the notes under it (shared with the chart).
 */
import { predictiveStopsLine } from './predictiveStops.js';
import { counted } from '../plural.js';
import { formatUsdNumber as usd, usdOrDash } from './money.js';
import { percentText } from './percentText.js';
import { noneReachesText } from './sweepRecommendation.js';
import { countedLabels, type CountedLabels } from './sweepCounted.js';
import { countedRow } from '../population/recommend.js';
import { STRATEGY_FIGURES } from './sweepCsv.js';
import type { SweepReport, SweepRow } from './sweepReport.js';
import { cellWidthsOf, formatTablePieces, rowsIn, type Cell, type Column, type RowSource } from './table.js';
import { keyCells } from './sweepKeyCells.js';
import { frontierSettings, shownLine, shownRows, type SweepShow } from './sweepShow.js';
import { SAVED_LEGEND } from './sweepBaselines.js';
import { completedApart, layOutStops, narrowestOf, type StopCounts, type StopsLayout } from './stopColumns.js';
import { printableCell, printableText, wrapLine } from './text.js';
import { labelledLine, reportFooter, type ReportView } from './view.js';
import { SETTINGS_SEPARATOR, type ReportSettings } from './settings.js';
import type { PriceSource } from '../pricing/types.js';
import type { ReportWarning } from './warnings.js';

function strategyCell(row: SweepRow): string {
  let text = row.summaryCalls === undefined ? '' : `${row.summaryCalls} summaries ${usd(row.summaryCostUsd ?? 0)}`;
  if (row.strategyCacheLostTokens !== undefined) text += `${text === '' ? '' : ', '}${row.strategyCacheLostTokens.toLocaleString('en-US')} cache tok lost`;
  if (row.skippedActions !== undefined) text += `${text === '' ? '' : ', '}${row.skippedActions} skipped`;
  return text || '-';
}

/** The figures' columns, completion as the pick and the frontier count it (countedLabels: tasks done where runs carry ground truth). */
const figureColumns = (labels: CountedLabels): Column[] => [
  { header: labels.count, align: 'right' },
  { header: labels.per, align: 'right' },
  { header: 'spend', align: 'right' },
  { header: 'p95/run', align: 'right' },
  { header: 'false stops', align: 'right' },
  { header: 'caught', align: 'right' },
  { header: 'saved', align: 'right' },
];

/** A configuration's figures, pushed onto `cells` (its grid values, or none); its completion as countedRow counts it (tasks done where its runs carry ground truth). */
function figureCells(row: SweepRow, cells: Cell[]): Cell[] {
  const done = countedRow(row);
  cells.push(`${done.completed}/${done.runs} ${percentText(done.completionRate)}`, usdOrDash(done.costPerCompletedUsd), usd(row.costUsd), usd(row.costPerRunUsd.p95), row.falseStops, row.caughtEarly, usd(row.savedUsd));
  return cells;
}

/** The table of configurations whole: sweepTablePieces joined. */
export function renderSweepTable(report: SweepReport, view: ReportView, show: SweepShow = 'all'): string {
  return [...sweepTablePieces(report, view, show)].join('');
}

/** Each stop-count column's widest cell (the counts alone: cheap to measure again). */
function stopWidths(stops: StopsLayout, counts: readonly StopCounts[]): number[] {
  return cellWidthsOf(stops.columns.length, rowsIn({ count: counts.length, at: (r) => stops.cells(counts[r]!) }));
}

/**
 * The table of configurations, in pieces. Counts are never cut (stop counts: src/report/stopColumns.ts;
 * strategy figures): grid values give way first, and what still does not fit beside the figures goes into
 * a table of its own, a row per configuration again. `--wide`: nothing cut, however wide. Every row's
 * figures and strategy figures are made and measured once (grid values: keyCells), for the room the stop
 * counts have and the widths either layout writes with, then made again to be written. `show`: every
 * configuration, or the frontier's and the recommended (sweepShow.ts) with a line saying how many are shown.
 */
export function* sweepTablePieces(report: SweepReport, view: ReportView, show: SweepShow = 'all'): Generator<string> {
  const width = view.wide ? Infinity : view.width;
  // The frontier's settings as a set: looked up once per row (a list searched per row took ~4 s at 122,880 configurations).
  const onFrontier = frontierSettings(report);
  // --show frontier: its rows alone (sweepShow.ts), laid out as a table of them; the legend and lines under it of the whole sweep.
  const configurations = shownRows(report, show, onFrontier);
  const completion = countedLabels(report.configurations);
  const figures = figureColumns(completion);
  const keys: Column[] = report.grid.length === 0 ? [{ header: 'configuration' }] : report.grid.map((axis) => ({ header: printableCell(axis.key), shrink: true }));
  const withStrategy = configurations.some((row) => STRATEGY_FIGURES.some((key) => row[key] !== undefined));
  const strategy: Column[] = withStrategy ? [{ header: 'strategy' }] : [];
  const labels = keyCells({ ...report, configurations }, onFrontier);
  const counts = configurations.map((row) => row.stopReasons);
  /** Row i's `cells`, its stop counts (laid out as `stops`) and strategy figures pushed onto them. */
  const finishRow = (i: number, cells: Cell[], stops?: StopsLayout): Cell[] => {
    if (stops !== undefined) for (const cell of stops.cells(counts[i]!)) cells.push(cell);
    if (withStrategy) cells.push(strategyCell(configurations[i]!));
    return cells;
  };
  const rows = (at: (i: number) => Cell[]): RowSource => ({ count: configurations.length, at });
  const measured = cellWidthsOf(figures.length + strategy.length, rowsIn(rows((i) => finishRow(i, figureCells(configurations[i]!, [])))));
  const figureWidths = measured.slice(0, figures.length);
  const strategyWidths = measured.slice(figures.length);
  // Where the figures count tasks done (not stop reasons), `completed` among the stop counts: a row's then add up to its runs.
  const withCompleted = completedApart(report.configurations);
  const stops = layOutStops(counts, width - narrowestOf([...keys, ...figures, ...strategy], [...labels.widths, ...measured]), { withCompleted });
  if (stops.fits) {
    const columns = [...keys, ...figures, ...stops.columns, ...strategy];
    const cellWidths = [...labels.widths, ...figureWidths, ...stopWidths(stops, counts), ...strategyWidths];
    yield* formatTablePieces(columns, rows((i) => finishRow(i, figureCells(configurations[i]!, labels.at(i)), stops)), { maxWidth: width, cellWidths });
    if (stops.note !== '') yield wrapLine('', stops.note, view.width);
  } else {
    // The figures first; stop counts (and strategy figures) in a table of their own under them.
    const own = layOutStops(counts, width - narrowestOf([...keys, ...strategy], [...labels.widths, ...strategyWidths]), { withCompleted, oneColumn: false });
    yield* formatTablePieces([...keys, ...figures], rows((i) => figureCells(configurations[i]!, labels.at(i))), { maxWidth: width, cellWidths: [...labels.widths, ...figureWidths] });
    yield `\n${withStrategy ? `${own.title} and strategy figures` : own.title}, per configuration:\n`;
    const cellWidths = [...labels.widths, ...stopWidths(own, counts), ...strategyWidths];
    yield* formatTablePieces([...keys, ...own.columns, ...strategy], rows((i) => finishRow(i, labels.at(i), own)), { maxWidth: width, cellWidths });
    if (own.note !== '') yield wrapLine('', own.note, view.width);
  }
  const shown = shownLine(report, configurations.length, { show, onFrontier });
  if (shown !== '') yield wrapLine('', shown, view.width);
  yield wrapLine('', `${completion.legend} false stop: a brake ended a run that completes with no brakes (a synthetic run: before the step its task is done at with no brakes, by its ground truth); caught: any other brake stop before the run's end with no brakes (a run that would not complete, or a task not done or already done); ${SAVED_LEGEND}`, view.width);
  yield predictiveSweepLine(report, view.width);
  yield recommendationLines(report, view.width);
  yield notesAndFooter(report, view.width);
}

/** Under the table, when the predictive budget stopped runs: how many, in how many configurations. */
function predictiveSweepLine(report: SweepReport, width: number): string {
  const counts = report.configurations.map((row) => row.predictiveBudgetStops ?? 0).filter((n) => n > 0);
  const runs = counts.reduce((sum, n) => sum + n, 0);
  return runs === 0 ? '' : wrapLine('', predictiveStopsLine(runs, `(in ${counted(counts.length, 'configuration')})`), width);
}

/** The recommendation under the table or chart (with --target-completion), or that none reaches the target. */
export function recommendationLines(report: SweepReport, width: number): string {
  if (report.recommendation === undefined) return '';
  // What the recommendation counted as completed, where runs carry ground truth (sweepCounted.ts).
  const counted = report.completionCounted === undefined ? '' : wrapLine('  ', report.completionCounted.text, width);
  if (report.recommendation === null) return wrapLine('', noneReachesText(report), width) + counted;
  const howSure = report.recommendation.howSure;
  // Its text is a line per thing said: each wrapped under the arrow.
  const said = report.recommendation.text.split('\n').map((line, i) => wrapLine(i === 0 ? '→ ' : '  ', line, width));
  const sure = howSure === undefined ? [] : howSure.text.split('\n').map((line) => wrapLine('  ', line, width));
  return said.join('') + sure.join('') + counted;
}

export function notesAndFooter(report: SweepReport, width: number): string {
  return `\n${notesAroundSettings({ notes: report.notes, settings: report.settings, prices: report.prices, warnings: report.warnings }, width)}`;
}

/** How a note naming one scenario file's own settings starts (`synthetic: x.yaml (20 runs, seed 1) · brakes …`, where the files' differ). */
export const SCENARIO_LINE_START = 'synthetic: ';

/**
 * The notes, the settings line, then the notes naming each scenario file's own settings (the settings line
 * says `each scenario file's own, listed below`), the prices and the warnings.
 */
export function notesAroundSettings(report: { notes: readonly string[]; settings: ReportSettings; prices: PriceSource; warnings: readonly ReportWarning[] }, width: number): string {
  const files = report.notes.filter((note) => note.startsWith(SCENARIO_LINE_START));
  const notes = report.notes.filter((note) => !note.startsWith(SCENARIO_LINE_START)).map((note) => wrapLine('', note, width)).join('');
  const fileLines = files.map((line) => labelledLine(printableText(line), width, SETTINGS_SEPARATOR)).join('');
  return `${notes}${reportFooter({ settings: report.settings, warnings: [], width })}${fileLines}${reportFooter({ priceSource: report.prices, warnings: report.warnings, width })}`;
}

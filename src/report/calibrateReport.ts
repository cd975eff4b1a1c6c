/**
 * The calibration report (`loopcost calibrate`): per loop-detector setting, precision and recall of
 * catching stuck synthetic runs (ground truth), the steps wasted before the catch, and false stops in two
 * columns, each saying its definition: on synthetic runs by ground truth (stopped before the step their
 * task is done at with no brakes, among the runs whose task is done), on recorded runs by outcome (stopped,
 * among the runs that complete with no brakes); both shown `stopped/of rate`, each followed by how many of
 * them a loop detector made. A table too wide for the view gives the false stops a table of their own.
 */
import { LOOPCOST_VERSION } from '../version.js';
import type { CalibrationFigures, FalseStopsByStop } from '../population/calibrate.js';
import { gridValuesOf, type GridAxis } from '../population/grid.js';
import { PRICE_SOURCE_COLUMNS, priceSourceColumns } from '../pricing/source.js';
import type { PricesRecord } from './pricedModels.js';
import { formatCsv } from './csv.js';
import { replayCommandLine, type ReportSettings } from './settings.js';
import { formatTable, widestLine, type Cell, type Column } from './table.js';
import { printableCell, wrapLine } from './text.js';
import type { ReportView } from './view.js';
import { notesAroundSettings } from './sweepTable.js';
import { percentText } from './percentText.js';
import type { ReportWarning } from './warnings.js';

export interface CalibrationRow extends CalibrationFigures {
  settings: string;
  /** The command-line flags that reproduce this configuration (settingsFlags). */
  flags: string;
  brakes: string;
}

export interface CalibrateReport {
  tool: { name: 'loopcost'; version: string };
  command: 'calibrate';
  settings: ReportSettings;
  /** Replay's prices block, as sweep's (cli/actions/sweepPrices.ts). */
  prices: PricesRecord;
  grid: GridAxis[];
  inputs: { recordedRuns: number; syntheticRuns: number };
  configurations: CalibrationRow[];
  notes: string[];
  warnings: ReportWarning[];
}

export function buildCalibrateReport(args: Omit<CalibrateReport, 'tool' | 'command'>): CalibrateReport {
  return { tool: { name: 'loopcost', version: LOOPCOST_VERSION }, command: 'calibrate', ...args };
}

const rate = (value: number | null): string => (value === null ? '-' : percentText(value));

/**
 * When synthetic runs were judged but none gets stuck with no brakes: precision and recall then say nothing
 * of the loop detectors (a note, in every format). `fitted`: the scenario files among the inputs that
 * `loopcost fit` wrote, whose agents are healthy by construction (fit draws repeats and errors as recorded,
 * never a stuck loop). Undefined when some run is stuck, or none is synthetic.
 */
export function noStuckRunsNote(configurations: readonly Pick<CalibrationFigures, 'synthetic'>[], fitted: readonly string[]): string | undefined {
  const runs = configurations[0]?.synthetic.runs ?? 0;
  if (runs === 0 || configurations.some((row) => row.synthetic.stuck > 0)) return undefined;
  const why = fitted.length === 0 ? '' : ` ${fitted.join(', ')} ${fitted.length === 1 ? 'is a profile' : 'are profiles'} loopcost fit wrote: ${fitted.length === 1 ? 'it has' : 'they have'} no stuck agents by construction (fit gives each group of runs a healthy agent that repeats and fails as its runs did, never one stuck in a loop).`;
  return `No stuck runs: none of the ${runs} synthetic runs gets stuck with no brakes (ground truth), so precision (none of those caught is stuck) and recall (no stuck run to catch) say nothing of the loop detectors here.${why} To calibrate the detectors, add a scenario whose population has behaviours that get stuck (repeater, retrier, asker, perfectionist); the false stops stand as they are.`;
}

export function renderCalibrateCsv(report: CalibrateReport): string {
  const rows = report.configurations.map((row) => ({
    settings: row.settings,
    flags: replayCommandLine(row.flags),
    brakes: row.brakes,
    ...Object.fromEntries(Object.entries(row.synthetic).filter(([key]) => key !== 'stepsWastedBeforeCatch').map(([key, value]) => [`synthetic.${key}`, value])),
    'synthetic.stepsWastedBeforeCatch.mean': row.synthetic.stepsWastedBeforeCatch?.mean,
    'synthetic.stepsWastedBeforeCatch.max': row.synthetic.stepsWastedBeforeCatch?.max,
    'synthetic.precisionLow': row.synthetic.precisionInterval?.[0],
    'synthetic.precisionHigh': row.synthetic.precisionInterval?.[1],
    'synthetic.recallLow': row.synthetic.recallInterval?.[0],
    'synthetic.recallHigh': row.synthetic.recallInterval?.[1],
    'synthetic.falseStopsByDetectors': detectorStops(row.synthetic.falseStopsByStop),
    ...Object.fromEntries(Object.entries(row.recorded).map(([key, value]) => [`recorded.${key}`, value])),
    'recorded.falseStopsByDetectors': detectorStops(row.recorded.falseStopsByStop),
  }));
  const columns = [
    'settings', 'flags', 'brakes', 'synthetic.runs', 'synthetic.stuck', 'synthetic.caught', 'synthetic.caughtStuck', 'synthetic.precision', 'synthetic.precisionLow', 'synthetic.precisionHigh', 'synthetic.recall', 'synthetic.recallLow', 'synthetic.recallHigh',
    'synthetic.stepsWastedBeforeCatch.mean', 'synthetic.stepsWastedBeforeCatch.max', 'synthetic.tasksDoneWithoutBrakes', 'synthetic.falseStops', 'synthetic.falseStopRate', 'synthetic.falseStopsByDetectors',
    'recorded.runs', 'recorded.completedWithoutBrakes', 'recorded.falseStops', 'recorded.falseStopRate', 'recorded.falseStopsByDetectors',
  ];
  return formatCsv(rows, [...columns, ...PRICE_SOURCE_COLUMNS], priceSourceColumns(report.prices));
}

/** How well the detectors catch stuck runs. */
const CATCH_FIGURES: Column[] = [
  { header: 'precision', align: 'right' },
  { header: 'recall', align: 'right' },
  { header: 'wasted steps', align: 'right' },
];

/** False stops, each beside how many of them a loop detector made (the rest, another brake): a count in a column of its own. */
const FALSE_STOP_FIGURES: Column[] = [
  { header: 'false stops\n(synthetic)', align: 'right' },
  { header: 'detector', align: 'right' },
  { header: 'false stops\n(recorded)', align: 'right' },
  { header: 'detector', align: 'right' },
];

/** The loop detectors a calibration judges: their stops are its catches, and the false stops it causes. */
const DETECTOR_STOPS: readonly string[] = ['repeat', 'error_limit'];

/** Of the false stops, those a loop detector made. */
export function detectorStops(byStop: FalseStopsByStop): number {
  return byStop.reduce((sum, entry) => sum + (DETECTOR_STOPS.includes(entry.stopReason) ? entry.runs : 0), 0);
}

/** A false-stop column's cells: `stopped/of rate`, then how many of them a loop detector made; `-` without runs to judge. */
function falseStopCells(runs: number, stopped: number, of: number, value: number | null, byStop: FalseStopsByStop): Cell[] {
  return runs === 0 ? ['-', '-'] : [`${stopped}/${of} ${rate(value)}`, detectorStops(byStop)];
}

/** Whole percents, the low end down and the high end up (the interval shown holds the one computed). */
const wholePercents = ([low, high]: [number, number]): string => `${Math.floor(low * 100 + 1e-9)}–${Math.ceil(high * 100 - 1e-9)}%`;

/** Precision or recall as counts and their 95% Wilson interval: `12/16 (50–90%)`; `-` when there is nothing to count. */
const countCell = (k: number, n: number, interval: [number, number] | null): string => (interval === null ? '-' : `${k}/${n} (${wholePercents(interval)})`);

export function renderCalibrateTable(report: CalibrateReport, view: ReportView): string {
  const keys: Column[] = report.grid.length === 0 ? [{ header: 'configuration' }] : report.grid.map((axis) => ({ header: printableCell(axis.key), shrink: true }));
  const rows = report.configurations.map((row) => {
    const values = gridValuesOf(row.settings, report.grid);
    const s = row.synthetic;
    const r = row.recorded;
    return {
      keys: report.grid.length === 0 ? [row.settings] : report.grid.map((axis) => printableCell(values.get(axis.key) ?? '')),
      caught: [
        countCell(s.caughtStuck, s.caught, s.precisionInterval),
        countCell(s.caughtStuck, s.stuck, s.recallInterval),
        s.stepsWastedBeforeCatch === null ? '-' : `${s.stepsWastedBeforeCatch.mean.toFixed(1)} (max ${s.stepsWastedBeforeCatch.max})`,
      ],
      falseStops: [
        ...falseStopCells(s.runs, s.falseStops, s.tasksDoneWithoutBrakes, s.falseStopRate, s.falseStopsByStop),
        ...falseStopCells(r.runs, r.falseStops, r.completedWithoutBrakes, r.falseStopRate, r.falseStopsByStop),
      ],
    };
  });
  // --wide: nothing cut, as in sweep's table (a long grid key or configuration shown whole).
  const width = view.wide ? Infinity : view.width;
  const whole = formatTable([...keys, ...CATCH_FIGURES, ...FALSE_STOP_FIGURES], rows.map((row) => [...row.keys, ...row.caught, ...row.falseStops]), { maxWidth: width });
  // Too wide for one table (grid keys, wide counts): the false stops in a table of their own under the catches, as sweep's stop counts.
  let text =
    widestLine(whole) <= width
      ? whole
      : `${formatTable([...keys, ...CATCH_FIGURES], rows.map((row) => [...row.keys, ...row.caught]), { maxWidth: width })}\nfalse stops, per configuration:\n${formatTable([...keys, ...FALSE_STOP_FIGURES], rows.map((row) => [...row.keys, ...row.falseStops]), { maxWidth: width })}`;
  text += wrapLine(
    '',
    'stuck: a synthetic run whose agent gets stuck in a loop with no brakes (ground truth); caught: stopped by a loop detector (repeat, error_limit); precision: stuck among those caught (k/n, 95% Wilson interval); recall: caught among the stuck (k/n, 95% Wilson interval); wasted steps: steps a caught run took from the step it got stuck (mean, max); false stops (synthetic), by ground truth: runs a brake stopped before the step their task is done at with no brakes / runs whose task is done with no brakes; false stops (recorded), by outcome: runs a brake stopped / runs that complete with no brakes (as sweep and check count them); detector, after each: how many of those a loop detector made (the brakes calibrated), the rest another brake (the step cap, the budget, …; by stop reason in the JSON, falseStopsByStop).',
    view.width,
  );
  return `${text}\n${notesAroundSettings(report, view.width)}`;
}

export function renderCalibrate(report: CalibrateReport, format: string, view: ReportView): string {
  if (format === 'json') return JSON.stringify(report, null, 2) + '\n';
  if (format === 'csv') return renderCalibrateCsv(report);
  return renderCalibrateTable(report, view);
}

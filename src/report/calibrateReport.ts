/**
 * The calibration report (`loopcost calibrate`): per loop-detector setting, precision and recall of
 * catching stuck synthetic runs (ground truth), the steps wasted before the catch, and false stops in two
 * columns, each saying its definition: on synthetic runs by ground truth (stopped before the step their
 * task is done at with no brakes, among the runs whose task is done), on recorded runs by outcome (stopped,
 * among the runs that complete with no brakes); both shown `stopped/of rate`.
 */
import { LOOPCOST_VERSION } from '../version.js';
import type { CalibrationFigures } from '../population/calibrate.js';
import { gridValuesOf, type GridAxis } from '../population/grid.js';
import { PRICE_SOURCE_COLUMNS, priceSourceColumns } from '../pricing/source.js';
import type { PriceSource } from '../pricing/types.js';
import { formatCsv } from './csv.js';
import { replayCommandLine, type ReportSettings } from './settings.js';
import { formatTable, type Column } from './table.js';
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
  prices: PriceSource;
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

export function renderCalibrateCsv(report: CalibrateReport): string {
  const rows = report.configurations.map((row) => ({
    settings: row.settings,
    flags: replayCommandLine(row.flags),
    brakes: row.brakes,
    ...Object.fromEntries(Object.entries(row.synthetic).filter(([key]) => key !== 'stepsWastedBeforeCatch').map(([key, value]) => [`synthetic.${key}`, value])),
    'synthetic.stepsWastedBeforeCatch.mean': row.synthetic.stepsWastedBeforeCatch?.mean,
    'synthetic.stepsWastedBeforeCatch.max': row.synthetic.stepsWastedBeforeCatch?.max,
    ...Object.fromEntries(Object.entries(row.recorded).map(([key, value]) => [`recorded.${key}`, value])),
  }));
  const columns = [
    'settings', 'flags', 'brakes', 'synthetic.runs', 'synthetic.stuck', 'synthetic.caught', 'synthetic.caughtStuck', 'synthetic.precision', 'synthetic.recall',
    'synthetic.stepsWastedBeforeCatch.mean', 'synthetic.stepsWastedBeforeCatch.max', 'synthetic.tasksDoneWithoutBrakes', 'synthetic.falseStops', 'synthetic.falseStopRate',
    'recorded.runs', 'recorded.completedWithoutBrakes', 'recorded.falseStops', 'recorded.falseStopRate',
  ];
  return formatCsv(rows, [...columns, ...PRICE_SOURCE_COLUMNS], priceSourceColumns(report.prices));
}

const FIGURES: Column[] = [
  { header: 'stuck caught', align: 'right' },
  { header: 'precision', align: 'right' },
  { header: 'recall', align: 'right' },
  { header: 'wasted steps', align: 'right' },
  { header: 'false stops\n(synthetic)', align: 'right' },
  { header: 'false stops\n(recorded)', align: 'right' },
];

/** A false-stop column: `stopped/of rate`, `-` without runs to judge. */
const falseStopCell = (runs: number, stopped: number, of: number, value: number | null): string => (runs === 0 ? '-' : `${stopped}/${of} ${rate(value)}`);

export function renderCalibrateTable(report: CalibrateReport, view: ReportView): string {
  const keys: Column[] = report.grid.length === 0 ? [{ header: 'configuration' }] : report.grid.map((axis) => ({ header: printableCell(axis.key), shrink: true }));
  const rows = report.configurations.map((row) => {
    const values = gridValuesOf(row.settings, report.grid);
    const s = row.synthetic;
    const r = row.recorded;
    return [
      ...(report.grid.length === 0 ? [row.settings] : report.grid.map((axis) => printableCell(values.get(axis.key) ?? ''))),
      `${s.caughtStuck}/${s.stuck}`,
      rate(s.precision),
      rate(s.recall),
      s.stepsWastedBeforeCatch === null ? '-' : `${s.stepsWastedBeforeCatch.mean.toFixed(1)} (max ${s.stepsWastedBeforeCatch.max})`,
      falseStopCell(s.runs, s.falseStops, s.tasksDoneWithoutBrakes, s.falseStopRate),
      falseStopCell(r.runs, r.falseStops, r.completedWithoutBrakes, r.falseStopRate),
    ];
  });
  // --wide: nothing cut, as in sweep's table (a long grid key or configuration shown whole).
  let text = formatTable([...keys, ...FIGURES], rows, { maxWidth: view.wide ? Infinity : view.width });
  text += wrapLine(
    '',
    'stuck: a synthetic run whose agent gets stuck in a loop with no brakes (ground truth); caught: stopped by a loop detector (repeat, error_limit); precision: stuck among those caught; recall: caught among the stuck; wasted steps: steps a caught run took from the step it got stuck (mean, max); false stops (synthetic), by ground truth: runs a brake stopped before the step their task is done at with no brakes / runs whose task is done with no brakes; false stops (recorded), by outcome: runs a brake stopped / runs that complete with no brakes (as sweep and check count them).',
    view.width,
  );
  return `${text}\n${notesAroundSettings(report, view.width)}`;
}

export function renderCalibrate(report: CalibrateReport, format: string, view: ReportView): string {
  if (format === 'json') return JSON.stringify(report, null, 2) + '\n';
  if (format === 'csv') return renderCalibrateCsv(report);
  return renderCalibrateTable(report, view);
}

/**
 * The figures of a population chart (replayChart.ts): for each model call by its number, how many runs
 * make it, and the median and p95 (nearest rank: costQuantiles.ts) of the input tokens of those that do
 * and of every run's cumulative cost by then (a run that stopped earlier at its total).
 */
import type { StepRow } from '../loop/types.js';
import { costQuantilesInPlace } from '../metrics/costQuantiles.js';
import { maxOf } from '../metrics/extremes.js';

/** Median and p95 of a figure, index k for call k + 1. */
export interface CallQuantiles {
  p50: number[];
  p95: number[];
}

export interface PopulationFigures {
  /** Runs that make call k + 1 (index k): they thin out as runs stop. */
  reaching: number[];
  /** Input tokens of call k + 1, among the runs that make it. */
  inputTokens: CallQuantiles;
  /** Cumulative cost by call k + 1 in picodollars, of every run: one that stopped before it counts at its total. */
  cumulativeCostPico: CallQuantiles;
}

/** What a population chart reads of a run: its calls in order. */
export interface ChartedRun {
  rows: readonly Pick<StepRow, 'inputTokens' | 'cumulativeCostPico'>[];
}

/** The figures of `runs`, call by call up to the longest run's last call. */
export function populationFigures(runs: readonly ChartedRun[]): PopulationFigures {
  const calls = maxOf(runs.map((run) => run.rows.length), 0);
  const figures: PopulationFigures = { reaching: [], inputTokens: { p50: [], p95: [] }, cumulativeCostPico: { p50: [], p95: [] } };
  for (let k = 0; k < calls; k++) {
    const making = runs.filter((run) => run.rows.length > k);
    figures.reaching.push(making.length);
    pushQuantiles(figures.inputTokens, making.map((run) => run.rows[k]!.inputTokens));
    pushQuantiles(figures.cumulativeCostPico, runs.map((run) => costByCall(run, k)));
  }
  return figures;
}

/** A run's cumulative cost by call k + 1 (its total when it made fewer calls; 0 when it made none). */
function costByCall(run: ChartedRun, k: number): number {
  const last = Math.min(k, run.rows.length - 1);
  return last < 0 ? 0 : run.rows[last]!.cumulativeCostPico;
}

function pushQuantiles(into: CallQuantiles, values: readonly number[]): void {
  const { p50, p95 } = costQuantilesInPlace([Float64Array.from(values)]);
  into.p50.push(p50);
  into.p95.push(p95);
}

/**
 * How calls map to a chart's columns: `per` calls a column (the largest of them shown) when there are
 * more calls than columns, else each call stretched over `stretch` columns (a short run still reads).
 */
export interface ChartColumns {
  per: number;
  stretch: number;
  /** Columns of values before stretching. */
  count: number;
}

/** Most columns one call is stretched over. */
const MAX_STRETCH = 8;

/** The columns for `calls` calls in `room` columns of plot. */
export function chartColumns(calls: number, room: number): ChartColumns {
  const fit = Math.max(1, room);
  const per = Math.max(1, Math.ceil(calls / fit));
  const stretch = per > 1 ? 1 : Math.min(MAX_STRETCH, Math.max(1, Math.floor(fit / Math.max(1, calls))));
  return { per, stretch, count: Math.ceil(calls / per) };
}

/** `values` as plotted: the largest of every `per` (so peaks stay), each stretched. */
export function plottedValues(values: readonly number[], columns: ChartColumns): number[] {
  const out: number[] = [];
  for (let i = 0; i < values.length; i += columns.per) {
    const value = maxOf(values.slice(i, i + columns.per));
    for (let s = 0; s < columns.stretch; s++) out.push(value);
  }
  return out;
}

/** Columns asciichart's axis labels take before the first point (11-wide labels, a space, the axis). */
export const AXIS_LABEL_COLUMNS = 12;

/**
 * Two rows under a chart, aligned with its points: the number of the call at every few columns, and how
 * many runs make that call. Ticks are as far apart as their widest label needs; the last column's is
 * added when it has room (the runs still going at the end); none runs past `width`.
 */
export function callAxisRows(reaching: readonly number[], columns: ChartColumns, width: number): string {
  const room = Math.max(String(reaching.length).length, String(reaching[0] ?? 0).length) + 1;
  const every = Math.ceil(room / columns.stretch);
  const ticks: number[] = [];
  for (let j = 0; j < columns.count; j += every) ticks.push(j);
  const last = columns.count - 1;
  if (ticks.at(-1) !== last && (last - ticks.at(-1)!) * columns.stretch >= room) ticks.push(last);
  let calls = 'call'.padStart(AXIS_LABEL_COLUMNS - 1) + ' ';
  let runs = 'runs'.padStart(AXIS_LABEL_COLUMNS - 1) + ' ';
  for (const j of ticks) {
    const at = AXIS_LABEL_COLUMNS + j * columns.stretch;
    const call = j * columns.per;
    if (at + room - 1 > width) break;
    calls = calls.padEnd(at) + String(call + 1);
    runs = runs.padEnd(at) + String(reaching[call]);
  }
  return `${calls}\n${runs}\n`;
}

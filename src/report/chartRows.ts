/**
 * An asciichart whose every point sits on the labelled row nearest its value. asciichart scales the
 * least value and each value by height / range and rounds each on its own, so a point can land a row off
 * the nearest label (0.11734 drawn at the 0.11621 row of a chart with a 0.11751 row). Here the rows are
 * worked out first: `height` + 1 labels evenly from the least value of every series to the greatest, each
 * value snapped to the nearest; asciichart is given the row numbers (whole numbers, which it draws where
 * they are) and labels each row with the value it stands for. Several series share one set of rows. Pure.
 */
import { maxOf, minOf } from '../metrics/extremes.js';
import asciichart from 'asciichart';

/** The labelled rows of a chart of `values`: row k (0 at the bottom) stands for `labels[k]`; `rowOf[i]` is the row nearest values[i]. */
export interface ChartRows {
  labels: number[];
  rowOf: number[];
}

/** The labelled rows several series share: `rowOf[s][i]` is the row nearest series[s][i]. */
export interface SharedChartRows {
  labels: number[];
  rowOf: number[][];
}

/** What the rows are: `height` + 1 of them (one when every value is the same), reaching `span`'s values too (none by default). */
export interface RowsOptions {
  height: number;
  span?: readonly number[];
}

/** `height` + 1 evenly spaced labels from the least value to the greatest (one when all are equal), each value on its nearest. */
export function chartRows(values: readonly number[], height: number): ChartRows {
  const { labels, rowOf } = sharedChartRows([values], { height });
  return { labels, rowOf: rowOf[0]! };
}

/** chartRows of several series at once: the labels run from the least value of any series (or of `span`) to the greatest. */
export function sharedChartRows(series: readonly (readonly number[])[], options: RowsOptions): SharedChartRows {
  const all = [...series.flat(), ...(options.span ?? [])];
  const low = minOf(all);
  const high = maxOf(all);
  const rows = high > low ? options.height : 0;
  const step = rows === 0 ? 0 : (high - low) / rows;
  const labels = Array.from({ length: rows + 1 }, (_, k) => (k === rows ? high : low + k * step));
  const rowOf = series.map((values) => values.map((v) => (rows === 0 ? 0 : Math.round((v - low) / step))));
  return { labels, rowOf };
}

/** One series (`[3, 5, 4]`) or several (`[[3, 5], [1, 2]]`), as asciichart takes them. */
export type PlotSeries = readonly number[] | readonly (readonly number[])[];

function seriesList(values: PlotSeries): readonly (readonly number[])[] {
  return values.length > 0 && Array.isArray(values[0]) ? (values as readonly (readonly number[])[]) : [values as readonly number[]];
}

/**
 * asciichart's plot of `values` (one series or several, sharing the rows) on their nearest labelled rows
 * (sharedChartRows), each label written by `format`. The rows go to asciichart as 1 … height + 1: whole
 * numbers it neither rescales nor rounds, none of them 0 (the row it would mark as the axis' zero).
 */
export function plotOnRows(values: PlotSeries, options: RowsOptions & { format: (value: number) => string }): string {
  const { labels, rowOf } = sharedChartRows(seriesList(values), options);
  return asciichart.plot(
    rowOf.map((rows) => rows.map((row) => row + 1)),
    // min and max: the rows `span` reaches may hold no point.
    { height: labels.length - 1, min: 1, max: labels.length, format: (row: number) => options.format(labels[Math.round(row) - 1]!) },
  );
}

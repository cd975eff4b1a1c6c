/**
 * An asciichart line whose every point sits on the labelled row nearest its value. asciichart scales the
 * least value and each value by height / range and rounds each on its own, so a point can land a row off
 * the nearest label (0.11734 drawn at the 0.11621 row of a chart with a 0.11751 row). Here the rows are
 * worked out first: `height` + 1 labels evenly from the least value to the greatest, each value snapped to
 * the nearest; asciichart is given the row numbers (whole numbers, which it draws where they are) and
 * labels each row with the value it stands for. Pure.
 */
import { maxOf, minOf } from '../metrics/extremes.js';
import asciichart from 'asciichart';

/** The labelled rows of a chart of `values`: row k (0 at the bottom) stands for `labels[k]`; `rowOf[i]` is the row nearest values[i]. */
export interface ChartRows {
  labels: number[];
  rowOf: number[];
}

/** `height` + 1 evenly spaced labels from the least value to the greatest (one when all are equal), each value on its nearest. */
export function chartRows(values: readonly number[], height: number): ChartRows {
  const low = minOf(values);
  const high = maxOf(values);
  const rows = high > low ? height : 0;
  const step = rows === 0 ? 0 : (high - low) / rows;
  const labels = Array.from({ length: rows + 1 }, (_, k) => (k === rows ? high : low + k * step));
  return { labels, rowOf: values.map((v) => (rows === 0 ? 0 : Math.round((v - low) / step))) };
}

/**
 * asciichart's plot of `values` on their nearest labelled rows (chartRows), each label written by `format`.
 * The rows go to asciichart as 1 … height + 1: whole numbers it neither rescales nor rounds, none of them 0
 * (the row it would mark as the axis' zero).
 */
export function plotOnRows(values: readonly number[], options: { height: number; format: (value: number) => string }): string {
  const { labels, rowOf } = chartRows(values, options.height);
  return asciichart.plot(
    rowOf.map((row) => row + 1),
    { height: labels.length - 1, format: (row: number) => options.format(labels[Math.round(row) - 1]!) },
  );
}

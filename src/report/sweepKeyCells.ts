/**
 * The cells under a sweep table's grid keys: each configuration's value for each key, made printable,
 * the first marked `*` on the frontier and `→` when recommended. Every configuration's settings are read
 * back once (gridValuesOf), each distinct value made printable and measured once, and each row kept as its
 * mark and its values' indices (a few bytes a row): the table's passes then only look them up (reading
 * the settings back on each pass was most of a 122,880-row table's time).
 */
import { gridValuesOf } from '../population/grid.js';
import { maxOf } from '../metrics/extremes.js';
import type { SweepReport } from './sweepReport.js';
import { cellWidth, cellWidthsOf, rowsIn, type Cell } from './table.js';
import { printableCell } from './text.js';

export interface KeyCells {
  /** Row `r`'s cells under the keys, as a new array (the row's other cells may be pushed onto it). */
  at(r: number): Cell[];
  /** Each key column's widest cell, as cellWidthsOf measures it. */
  widths: number[];
}

const MARKS = ['', '*', '→', '*→'];

/** The cells under the keys of `report.grid` (one `configuration` column, its settings whole, for an empty grid); `onFrontier`: the settings of report.pareto. */
export function keyCells(report: SweepReport, onFrontier: ReadonlySet<string>): KeyCells {
  const { grid, configurations } = report;
  const recommended = report.recommendation?.settings;
  const marks = Uint8Array.from(configurations, (row) => (onFrontier.has(row.settings) ? 1 : 0) + (recommended === row.settings ? 2 : 0));
  if (grid.length === 0) {
    const whole = (r: number): Cell[] => [`${MARKS[marks[r]!]}${configurations[r]!.settings}`];
    return { at: whole, widths: cellWidthsOf(1, rowsIn({ count: configurations.length, at: whole })) };
  }
  const n = grid.length;
  const texts = grid.map((): string[] => []);
  const idsOf = grid.map(() => new Map<string, number>());
  const ids = new Uint32Array(configurations.length * n);
  configurations.forEach((row, r) => {
    const values = gridValuesOf(row.settings, grid);
    for (let a = 0; a < n; a++) {
      const value = values.get(grid[a]!.key) ?? '';
      let id = idsOf[a]!.get(value);
      if (id === undefined) idsOf[a]!.set(value, (id = texts[a]!.push(printableCell(value)) - 1));
      ids[r * n + a] = id;
    }
  });
  const at = (r: number): Cell[] => {
    const cells: Cell[] = [MARKS[marks[r]!]! + texts[0]![ids[r * n]!]!];
    for (let a = 1; a < n; a++) cells.push(texts[a]![ids[r * n + a]!]!);
    return cells;
  };
  const widths = texts.map((column) => maxOf(column.map(cellWidth), 0));
  marks.forEach((mark, r) => {
    if (mark !== 0) widths[0] = Math.max(widths[0]!, cellWidth(at(r)[0]));
  });
  return { at, widths };
}

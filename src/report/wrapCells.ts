/**
 * Cells that wrap instead of running a table past its width: a column marked `wrap` (its separator, `', '`
 * for a list) has its long cells broken onto continuation lines under them (the row's other cells blank
 * there), at that separator (as wrapLine breaks a line, then after spaces and commas), when the table
 * would not fit whole. Columns that shrink give way first (cut to their floor, as formatTable cuts them);
 * the widest wrapping column is then narrowed until the table fits, never below its header or its longest
 * word (a word is never broken: the table may then stay wider). For tables whose cells are counts and
 * lists that must never be cut (check's measured values and limits).
 */
import { maxOf } from '../metrics/extremes.js';
import { cellWidthsOf, COLUMN_GAP, GROUP_INDENT, type Cell, type Column, type RowGroup } from './table.js';
import { displayWidth, printableCell, wrapLine } from './text.js';

/** A header's widest line when shown on one line (formatTable joins a broken header's lines with a space). */
function headerWidth(column: Column): number {
  return displayWidth(printableCell(column.header.split('\n').join(' ')));
}

/**
 * The width each wrapping column is to wrap at so that the table fits `maxWidth` (undefined for a column
 * that does not wrap); undefined when the table fits whole, has no wrapping column, or the width is unbounded.
 */
export function wrapWidths(columns: readonly Column[], rows: readonly (readonly Cell[])[], maxWidth: number): (number | undefined)[] | undefined {
  if (maxWidth === Infinity || !columns.some((column) => column.wrap !== undefined)) return undefined;
  const cells = cellWidthsOf(columns.length, rows);
  const widths = columns.map((column, i) => {
    const natural = Math.max(headerWidth(column), cells[i]!);
    return column.shrink ? Math.min(natural, column.minWidth ?? Math.max(headerWidth(column), 12)) : natural;
  });
  let excess = widths.reduce((sum, width) => sum + width, 0) + COLUMN_GAP * (columns.length - 1) - maxWidth;
  if (excess <= 0) return undefined;
  const floor = columns.map((column, i) => (column.wrap === undefined ? 0 : Math.max(headerWidth(column), longestWord(rows, i))));
  while (excess > 0) {
    let widest = -1;
    for (let i = 0; i < columns.length; i++) {
      if (columns[i]!.wrap !== undefined && widths[i]! > floor[i]! && (widest < 0 || widths[i]! > widths[widest]!)) widest = i;
    }
    if (widest < 0) break;
    const next = Math.max(floor[widest]!, maxOf(widths.filter((_, i) => i !== widest && columns[i]!.wrap !== undefined)));
    const cut = Math.min(excess, Math.max(1, widths[widest]! - next));
    widths[widest]! -= cut;
    excess -= cut;
  }
  return columns.map((column, i) => (column.wrap === undefined ? undefined : widths[i]));
}

/** The widest piece of column `i`'s cells that wrapLine cannot break (it breaks after spaces and commas), with its comma. */
function longestWord(rows: readonly (readonly Cell[])[], i: number): number {
  let widest = 0;
  for (const row of rows) {
    const cell = row[i];
    if (typeof cell === 'string') for (const word of printableCell(cell).split(/(?<=,)|\s+/)) widest = Math.max(widest, displayWidth(word));
  }
  return widest;
}

/** A row as the lines it takes: its wrapping cells wider than their width broken at their column's separator, continued on rows of their own. */
export function wrapRow(columns: readonly Column[], row: readonly Cell[], widths: readonly (number | undefined)[]): Cell[][] {
  const pieces = columns.map((column, i) => {
    const cell = row[i];
    const width = widths[i];
    if (width === undefined || typeof cell !== 'string' || displayWidth(printableCell(cell)) <= width) return [cell ?? ''];
    return wrapLine('', cell, width, column.wrap).slice(0, -1).split('\n');
  });
  const tall = maxOf(pieces.map((lines) => lines.length), 1);
  return Array.from({ length: tall }, (_, k) => pieces.map((lines) => lines[k] ?? ''));
}

/** `rows` with their wrapping cells wrapped to fit `maxWidth` (the rows as given when the table fits whole). */
export function wrapRows(columns: readonly Column[], rows: readonly (readonly Cell[])[], maxWidth: number): (readonly Cell[])[] {
  const widths = wrapWidths(columns, rows, maxWidth);
  return widths === undefined ? [...rows] : rows.flatMap((row) => wrapRow(columns, row, widths));
}

/** formatGroupedTable's groups with their wrapping cells wrapped to fit `maxWidth` (measured as laid out: each first cell indented). */
export function wrapGroups(columns: readonly Column[], groups: readonly RowGroup[], maxWidth: number): RowGroup[] {
  const indented = groups.flatMap((group) => group.rows.map((row) => row.map((cell, i) => (i === 0 ? GROUP_INDENT + String(cell) : cell))));
  const widths = wrapWidths(columns, indented, maxWidth);
  return widths === undefined ? [...groups] : groups.map((group) => ({ heading: group.heading, rows: group.rows.flatMap((row) => wrapRow(columns, row, widths)) }));
}

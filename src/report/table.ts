/**
 * A plain table layout for reports: a header line, a rule under it, one line per row, columns two spaces
 * apart, no borders and no lines between rows. Every cell is made printable (control characters and ANSI
 * escapes shown escaped) and measured once; when the table is wider than allowed, the columns marked
 * `shrink` (paths, names) are cut in the middle with `…` until it fits. Linear in the number of cells
 * (cli-table3 took ~0.8 s for a 2,000-row what-if table; this takes milliseconds: bench/render.mjs).
 */
import { displayWidth, printableCell, truncateMiddle, wrapLine } from './text.js';
import { maxOf } from '../metrics/extremes.js';

export interface Column {
  /**
   * Its header; `\n` marks where it may break into lines when the table would not fit on one header line
   * (the header block is then as tall as the tallest, each aligned to its bottom); where it fits, one line.
   */
  header: string;
  /** Numbers and money right-aligned; text left (default). */
  align?: 'left' | 'right';
  /** May be cut (middle ellipsis) to make the table fit. */
  shrink?: boolean;
  /** Narrowest a shrinking column may become (default: its header's width, at least 12). */
  minWidth?: number;
  /** Where a long cell may break onto continuation lines (`', '`), for rows wrapped by wrapCells.ts before they are laid out. */
  wrap?: string;
}

export type Cell = string | number;

export interface TableOptions {
  /** Widest a line may be, in terminal columns (default 120). */
  maxWidth?: number;
}

export const DEFAULT_TABLE_WIDTH = 120;
/** The spaces between two columns (their count: COLUMN_GAP, which layouts that measure columns use). */
export const COLUMN_GAP = 2;
const GAP = ' '.repeat(COLUMN_GAP);

export function formatTable(columns: readonly Column[], rows: readonly (readonly Cell[])[], options: TableOptions = {}): string {
  checkHeaders(columns);
  const n = columns.length;
  const cellWidths = columns.map(() => 0);
  // A column repeats its values (a run's source under every setting, a setting's label for every run):
  // each distinct value is made printable, measured, then cut and padded once; a cell is its value's index.
  const distinct = columns.map(() => new Map<Cell | undefined, number>());
  const texts: string[][] = columns.map(() => []);
  const textWidths: number[][] = columns.map(() => []);
  const cellIds = new Int32Array(rows.length * n);
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    for (let i = 0; i < n; i++) {
      const value = row[i];
      let id = distinct[i]!.get(value);
      if (id === undefined) {
        const text = cellText(value);
        const width = displayWidth(text);
        id = texts[i]!.push(text) - 1;
        textWidths[i]!.push(width);
        distinct[i]!.set(value, id);
        if (width > cellWidths[i]!) cellWidths[i] = width;
      }
      cellIds[r * n + i] = id;
    }
  }
  const layout = layOut(columns, cellWidths, options.maxWidth ?? DEFAULT_TABLE_WIDTH);
  let out = layout.head;
  const shown = texts.map((column, i) => column.map((text, id) => (i === 0 ? '' : GAP) + layout.cell(text, textWidths[i]![id]!, i)));
  for (let r = 0; r < rows.length; r++) {
    let line = '';
    for (let i = 0; i < n; i++) line += shown[i]![cellIds[r * n + i]!]!;
    out += line.trimEnd() + '\n';
  }
  return out;
}

/** A table's rows made one at a time when asked (`at(r)`, each time anew): a table too large to hold its rows (or its text) whole. */
export interface RowSource {
  readonly count: number;
  at(r: number): readonly Cell[];
}

/** A source's rows in order, each made once (to measure them: narrowestWidth). */
export function* rowsIn(rows: RowSource): Generator<readonly Cell[]> {
  for (let r = 0; r < rows.count; r++) yield rows.at(r);
}

/** Rows a piece of formatTablePieces holds (a few hundred KB of text). */
export const ROWS_PER_PIECE = 2048;

/** A cell's width as a table shows it (made printable, in terminal columns; none: 0). */
export function cellWidth(value: Cell | undefined): number {
  return displayWidth(cellText(value));
}

/** Each column's widest cell (cellWidth) over `rows`, read once, in order: what formatTablePieces measures. */
export function cellWidthsOf(columnCount: number, rows: Iterable<readonly (Cell | undefined)[]>): number[] {
  const widths: number[] = new Array<number>(columnCount).fill(0);
  for (const row of rows) {
    for (let i = 0; i < columnCount; i++) {
      const width = cellWidth(row[i]);
      if (width > widths[i]!) widths[i] = width;
    }
  }
  return widths;
}

/** Distinct values per column formatTablePieces keeps as written. */
const WRITTEN_PER_COLUMN = 512;

export interface PiecesOptions extends TableOptions {
  /** Rows a piece holds (default ROWS_PER_PIECE). */
  rowsPerPiece?: number;
  /** Each column's widest cell when measured already (cellWidthsOf the same rows): the rows are then made only to be written. */
  cellWidths?: readonly number[];
}

/**
 * formatTable's text in pieces (the same bytes joined): a pass over the rows measures every column (none
 * with `cellWidths`), then the header block comes, then the lines `rowsPerPiece` rows at a time. Neither
 * the rows nor the text are ever held whole (a sweep's table of 122,880 configurations). Each cell is made
 * printable and measured in each pass, but for a column's first WRITTEN_PER_COLUMN distinct values, kept
 * as written (formatTable keeps every distinct value's).
 */
export function* formatTablePieces(columns: readonly Column[], rows: RowSource, options: PiecesOptions = {}): Generator<string> {
  checkHeaders(columns);
  const n = columns.length;
  const cellWidths = options.cellWidths ?? cellWidthsOf(n, rowsIn(rows));
  if (cellWidths.length !== n) throw new Error(`formatTablePieces: ${cellWidths.length} cell widths for ${n} columns`);
  const layout = layOut(columns, cellWidths, options.maxWidth ?? DEFAULT_TABLE_WIDTH);
  yield layout.head;
  const per = Math.max(1, options.rowsPerPiece ?? ROWS_PER_PIECE);
  // A column's first few hundred distinct values, each as written (gap, cut and padding included): most
  // columns repeat a few values (a grid key's, a count's) and are then only looked up; the rest are made.
  const written = columns.map(() => new Map<Cell | undefined, string>());
  for (let from = 0; from < rows.count; from += per) {
    let piece = '';
    for (let r = from; r < Math.min(rows.count, from + per); r++) {
      const row = rows.at(r);
      let line = '';
      for (let i = 0; i < n; i++) {
        const value = row[i];
        let shown = written[i]!.get(value);
        if (shown === undefined) {
          const text = cellText(value);
          shown = (i === 0 ? '' : GAP) + layout.cell(text, displayWidth(text), i);
          if (written[i]!.size < WRITTEN_PER_COLUMN) written[i]!.set(value, shown);
        }
        line += shown;
      }
      piece += line.trimEnd() + '\n';
    }
    yield piece;
  }
}

function checkHeaders(columns: readonly Column[]): void {
  if (columns.some((column) => column.header.trim() === '')) throw new Error('formatTable: every column needs a header');
}

/** A cell's value as shown: printable (a number always is), `''` for none. */
function cellText(value: Cell | undefined): string {
  return typeof value === 'string' ? printableCell(value) : value === undefined ? '' : String(value);
}

/** A table laid out from each column's widest cell: its header block (rule line included), and a cell cut and padded to its column. */
interface Layout {
  head: string;
  cell(text: string, textWidth: number, i: number): string;
}

function layOut(columns: readonly Column[], cellWidths: readonly number[], maxWidth: number): Layout {
  const brokenHeaders = columns.map((column) => column.header.split('\n').map(printableCell));
  const headerLines = headersThatFit(brokenHeaders, cellWidths, maxWidth);
  const headerWidths = headerLines.map((lines) => maxOf(lines.map(displayWidth), 0));
  const widths = headerWidths.map((width, i) => Math.max(width, cellWidths[i]!));
  fitWidths(columns, headerWidths, widths, maxWidth);
  const right = columns.map((column) => column.align === 'right');

  const cell = (text: string, textWidth: number, i: number): string => {
    const width = widths[i]!;
    if (textWidth > width) {
      text = truncateMiddle(text, width);
      textWidth = displayWidth(text);
    }
    if (textWidth === width) return text;
    const pad = spaces(width - textWidth);
    return right[i] ? pad + text : text + pad;
  };
  const tall = maxOf(headerLines.map((lines) => lines.length), 1);
  let head = '';
  for (let k = 0; k < tall; k++) {
    const lineOf = (lines: readonly string[]): string => lines[k - (tall - lines.length)] ?? '';
    head += headerLines.map((lines, i) => cell(lineOf(lines), displayWidth(lineOf(lines)), i)).join(GAP).trimEnd() + '\n';
  }
  head += widths.map((width) => '─'.repeat(width)).join(GAP) + '\n';
  return { head, cell };
}

/** Each header on one line when the table fits `maxWidth` so, else broken where its `\n`s say. */
function headersThatFit(broken: string[][], cellWidths: readonly number[], maxWidth: number): string[][] {
  const whole = broken.map((lines) => [lines.join(' ')]);
  const width = whole.reduce((sum, [header], i) => sum + Math.max(displayWidth(header!), cellWidths[i]!), 0) + COLUMN_GAP * (broken.length - 1);
  return width <= maxWidth ? whole : broken;
}

/** Rows under a heading line of their own (a scenario's name, say), in a grouped table. */
export interface RowGroup {
  heading: string;
  rows: readonly (readonly Cell[])[];
}

/** How far a group's rows are indented under its heading (their first cell). */
export const GROUP_INDENT = '  ';

/**
 * One table whose rows come in groups, each under its heading on a line of its own, shown whole (wrapped
 * when too wide, never cut) and the group's rows indented under it. The columns line up across groups.
 * For rows that would otherwise repeat a long name in a first column that has to be cut to fit.
 */
export function formatGroupedTable(columns: readonly Column[], groups: readonly RowGroup[], options: TableOptions = {}): string {
  const maxWidth = options.maxWidth ?? DEFAULT_TABLE_WIDTH;
  const indented = (row: readonly Cell[]): Cell[] => row.map((cell, i) => (i === 0 ? GROUP_INDENT + String(cell) : cell));
  const lines = formatTable(columns, groups.flatMap((group) => group.rows.map(indented)), { maxWidth }).split('\n');
  // The header block, then its rule line.
  let line = lines.findIndex((text) => text.startsWith('─')) + 1;
  let out = lines.slice(0, line).join('\n') + '\n';
  for (const group of groups) {
    out += wrapLine('', printableCell(group.heading), maxWidth);
    for (let r = 0; r < group.rows.length; r++) out += `${lines[line++]}\n`;
  }
  return out;
}

const SPACES: string[] = [''];

/** `n` spaces (cached: a table pads thousands of cells to a few widths). */
function spaces(n: number): string {
  while (SPACES.length <= n) SPACES.push(SPACES[SPACES.length - 1] + ' ');
  return SPACES[n]!;
}

/** Narrows shrinkable columns, widest first, until the line fits `maxWidth` (or none can shrink further). */
function fitWidths(columns: readonly Column[], headerWidths: readonly number[], widths: number[], maxWidth: number): void {
  let excess = widths.reduce((sum, width) => sum + width, 0) + GAP.length * (widths.length - 1) - maxWidth;
  const floor = columns.map((column, i) => column.minWidth ?? Math.max(headerWidths[i]!, 12));
  while (excess > 0) {
    let widest = -1;
    for (let i = 0; i < columns.length; i++) {
      if (columns[i]!.shrink && widths[i]! > floor[i]! && (widest < 0 || widths[i]! > widths[widest]!)) widest = i;
    }
    if (widest < 0) return;
    const next = Math.max(floor[widest]!, maxOf(widths.filter((_, i) => i !== widest && columns[i]!.shrink)));
    const cut = Math.min(excess, Math.max(1, widths[widest]! - next));
    widths[widest]! -= cut;
    excess -= cut;
  }
}

/** Label / value pairs as aligned lines (`label  value`), for summaries; long values wrap at `, ` within `maxWidth`. */
export function formatFields(fields: readonly (readonly [string, Cell])[], options: TableOptions = {}): string {
  const labels = fields.map(([label]) => printableCell(label));
  const width = maxOf(labels.map(displayWidth), 0);
  return fields
    .map(([, value], i) => wrapLine(`${labels[i]}${' '.repeat(width - displayWidth(labels[i]!))}${GAP}`, printableCell(String(value)), options.maxWidth ?? DEFAULT_TABLE_WIDTH, ', ').trimEnd())
    .join('\n') + '\n';
}

/** The widest line of a rendered text, in terminal columns (tests and the width check). */
export function widestLine(text: string): number {
  return maxOf(text.split('\n').map(displayWidth), 0);
}

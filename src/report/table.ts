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
  const maxWidth = options.maxWidth ?? DEFAULT_TABLE_WIDTH;
  const n = columns.length;
  if (columns.some((column) => column.header.trim() === '')) throw new Error('formatTable: every column needs a header');
  const brokenHeaders = columns.map((column) => column.header.split('\n').map(printableCell));
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
        const text = value === undefined ? '' : printableCell(typeof value === 'string' ? value : String(value));
        const width = displayWidth(text);
        id = texts[i]!.push(text) - 1;
        textWidths[i]!.push(width);
        distinct[i]!.set(value, id);
        if (width > cellWidths[i]!) cellWidths[i] = width;
      }
      cellIds[r * n + i] = id;
    }
  }
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
  let out = '';
  for (let k = 0; k < tall; k++) {
    const lineOf = (lines: readonly string[]): string => lines[k - (tall - lines.length)] ?? '';
    out += headerLines.map((lines, i) => cell(lineOf(lines), displayWidth(lineOf(lines)), i)).join(GAP).trimEnd() + '\n';
  }
  out += widths.map((width) => '─'.repeat(width)).join(GAP) + '\n';
  const shown = texts.map((column, i) => column.map((text, id) => (i === 0 ? '' : GAP) + cell(text, textWidths[i]![id]!, i)));
  for (let r = 0; r < rows.length; r++) {
    let line = '';
    for (let i = 0; i < n; i++) line += shown[i]![cellIds[r * n + i]!]!;
    out += line.trimEnd() + '\n';
  }
  return out;
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

const GROUP_INDENT = '  ';

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

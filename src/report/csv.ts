/**
 * CSV as RFC 4180, written the way csv-stringify writes it (a test holds the two equal on random rows;
 * this one is 5–10× faster, which keeps a 2,000-row report within the time of the replay it reports):
 * a field is quoted when it holds a comma, a quote, CR or LF (csv-stringify leaves a lone CR bare; RFC
 * 4180 quotes it), quotes doubled; numbers as JavaScript prints them but never in exponent form (a
 * one-token call's $0.00000005 is `0.00000005`, not `5e-8`: plainNumberText), true as 1, false/null/absent
 * as empty, objects as JSON.
 *
 * Text cells are neutralised against formula injection as OWASP recommends: a cell that starts with `=`,
 * `+`, `-`, `@`, a tab or a carriage return gets a leading `'` so a spreadsheet shows it as text instead
 * of running it. Only text is touched: numbers stay numbers (a negative amount is not a formula).
 */
import { GENAI_PRICES_PACKAGE } from '../pricing/source.js';

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** Values loopcost itself writes that start with `@` (its price data's package name): never from input. */
const OWN_VALUES = new Set([GENAI_PRICES_PACKAGE]);

/** `value` with a leading `'` when a spreadsheet would read it as a formula. */
export function neutraliseCsvText(value: string): string {
  return FORMULA_START.test(value) && !OWN_VALUES.has(value) ? `'${value}` : value;
}

function field(text: string): string {
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * A number as JavaScript prints it (the shortest text that reads back as it), written out positionally
 * where JavaScript would use an exponent (below 1e-6, from 1e21): `5e-8` → `0.00000005`, `1.5e21` →
 * `1500000000000000000000`. The digits are JavaScript's own, so the text reads back as the same number.
 */
export function plainNumberText(value: number): string {
  const text = String(value);
  const e = text.indexOf('e');
  if (e < 0) return text;
  const sign = text.startsWith('-') ? '-' : '';
  const [whole = '', fraction = ''] = text.slice(sign.length, e).split('.');
  const digits = whole + fraction;
  const point = whole.length + Number(text.slice(e + 1));
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

function csvCell(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return field(neutraliseCsvText(value));
    case 'number':
      return plainNumberText(value);
    case 'bigint':
      return String(value);
    case 'boolean':
      return value ? '1' : '';
    case 'undefined':
      return '';
    default:
      return value === null ? '' : field(JSON.stringify(value));
  }
}

/** Text held before it is given out as one piece (csvPieces): a report's text is never held twice whole. */
const PIECE_CHARS = 1 << 20;

/** Rows to write as CSV, and their columns. */
export interface CsvSource<Row> {
  rows: Iterable<Row>;
  /** Every column, in order; the columns `shared` holds come last. */
  columns: readonly string[];
  /** Columns with the same value on every row (settings, price source): written once per row, never merged into rows. */
  shared?: Record<string, unknown>;
  /** How a row gives a column's value, for the columns that are not a field of that name (none: each a field). */
  values?: Readonly<Record<string, (row: Row) => unknown>>;
}

/**
 * A header line of `columns`, then one line per row (absent fields empty), in pieces of about a MiB
 * (the last ends the text): a large report goes out without its whole text held, nor an object per row.
 */
export function* csvPieces<Row>(source: CsvSource<Row>): Generator<string> {
  const { columns, shared = {}, values = {} } = source;
  const own = columns.filter((column) => !(column in shared));
  const sharedTail = columns.filter((column) => column in shared);
  if (own.some((column, i) => columns[i] !== column)) throw new Error('formatCsv: shared columns must come last');
  const tail = sharedTail.length === 0 ? '' : `,${sharedTail.map((column) => csvCell(shared[column])).join(',')}`;
  const valueOf = own.map((column) => (Object.hasOwn(values, column) ? values[column] : undefined));
  // A column repeats its text (a run's source under every setting, stop reasons): each distinct text once.
  const written = own.map(() => new Map<string, string>());
  let lines = [columns.map(field).join(',')];
  let chars = lines[0]!.length;
  for (const row of source.rows) {
    let line = '';
    for (let i = 0; i < own.length; i++) {
      const get = valueOf[i];
      const value = get === undefined ? (row as Record<string, unknown>)[own[i]!] : get(row);
      let cell: string | undefined;
      if (typeof value !== 'string') cell = csvCell(value);
      else if ((cell = written[i]!.get(value)) === undefined) written[i]!.set(value, (cell = csvCell(value)));
      line += i === 0 ? cell : `,${cell}`;
    }
    lines.push(line + tail);
    chars += line.length + tail.length + 1;
    if (chars < PIECE_CHARS) continue;
    yield linesText(lines);
    lines = [];
    chars = 0;
  }
  if (lines.length > 0) yield linesText(lines);
}

/** Lines, each ended by a newline. */
function linesText(lines: string[]): string {
  lines.push('');
  return lines.join('\n');
}

/**
 * A header line of `columns`, then one line per row (absent fields empty). `shared` holds columns with
 * the same value on every row (settings, price source): written once per row, never merged into rows.
 */
export function formatCsv(rows: readonly object[], columns: readonly string[], shared: Record<string, unknown> = {}): string {
  return joinPieces(csvPieces({ rows, columns, shared }));
}

/** Pieces as one text (one piece as it is). */
export function joinPieces(pieces: Iterable<string>): string {
  const all = [...pieces];
  return all.length === 1 ? all[0]! : all.join('');
}

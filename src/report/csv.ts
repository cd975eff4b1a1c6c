/**
 * CSV as RFC 4180, written the way csv-stringify writes it (a test holds the two equal on random rows;
 * this one is 5–10× faster, which keeps a 2,000-row report within the time of the replay it reports):
 * a field is quoted when it holds a comma, a quote, CR or LF (csv-stringify leaves a lone CR bare; RFC
 * 4180 quotes it), quotes doubled; numbers as JavaScript
 * prints them, true as 1, false/null/absent as empty, objects as JSON.
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

function csvCell(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return field(neutraliseCsvText(value));
    case 'number':
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

/**
 * A header line of `columns`, then one line per row (absent fields empty). `shared` holds columns with
 * the same value on every row (settings, price source): written once per row, never merged into rows.
 */
export function formatCsv(rows: readonly object[], columns: readonly string[], shared: Record<string, unknown> = {}): string {
  const own = columns.filter((column) => !(column in shared));
  const sharedTail = columns.filter((column) => column in shared);
  if (own.some((column, i) => columns[i] !== column)) throw new Error('formatCsv: shared columns must come last');
  const tail = sharedTail.length === 0 ? '' : `,${sharedTail.map((column) => csvCell(shared[column])).join(',')}`;
  const lines = [columns.map(field).join(',')];
  // A column repeats its text (a run's source under every setting, stop reasons): each distinct text once.
  const written = own.map(() => new Map<string, string>());
  for (const row of rows) {
    const record = row as Record<string, unknown>;
    let line = '';
    for (let i = 0; i < own.length; i++) {
      const value = record[own[i]!];
      let cell: string | undefined;
      if (typeof value !== 'string') cell = csvCell(value);
      else if ((cell = written[i]!.get(value)) === undefined) written[i]!.set(value, (cell = csvCell(value)));
      line += i === 0 ? cell : `,${cell}`;
    }
    lines.push(line + tail);
  }
  return `${lines.join('\n')}\n`;
}

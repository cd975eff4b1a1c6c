/**
 * How a summary table shows its stop counts (runs per stop reason other than completion) so that no
 * count is ever cut: one `other stops` column (`max_steps 27, trace_end 8`) when it fits whole; else one
 * column per reason, counts right-aligned, headers cut to a prefix (`max_…`) as far as needed. When even
 * that does not fit, the report gives them a table of their own beside the rows' labels. Labels give way
 * first: the room left is measured with every shrinkable column (grid values, paths) at its narrowest.
 * A table whose completion column is not the runs that ended `completed` (tasks done, by ground truth, where
 * some run did its task and ended otherwise or ended `completed` without doing it: completedApart) lists
 * `completed` among them (`withCompleted`: one `stops` column), so a row's stop counts add up to its runs.
 */
import { STOP_REASONS } from '../brakes/stopReasons.js';
import { maxOf } from '../metrics/extremes.js';
import { cellWidthsOf, COLUMN_GAP as GAP, type Cell, type Column } from './table.js';
import { displayWidth, printableCell } from './text.js';
import type { TasksDone } from '../population/sweep.js';

export type StopCounts = Partial<Record<string, number>>;

export interface StopsLayout {
  /** One `other stops` column (`stops` withCompleted), or one per reason (none when every run completed). */
  columns: Column[];
  /** A row's cells under `columns`. */
  cells(counts: StopCounts): Cell[];
  /** Columns `columns` take, the gap before each included. */
  width: number;
  /** Whether that is within the room given (else this is the narrowest layout, and wider). */
  fits: boolean;
  /** For columns per reason: what they count, a cut header named in full ('' for one column). */
  note: string;
  /** What the counts are, to head a table of their own: `stops other than completion` (`stops` withCompleted). */
  title: string;
}

/** How stop counts are laid out: `oneColumn` false, a column per reason even where one column fits (a table of their own lines the counts up); `withCompleted`, `completed` counted among them. */
export interface StopsOptions {
  oneColumn?: boolean;
  withCompleted?: boolean;
}

/**
 * Whether a table's rows need `completed` among their stop counts: some row's tasks done are not exactly its
 * runs that ended `completed` (a run did its task and ended otherwise, or ended `completed` without doing it).
 * Where they are, tasks done and the other stops add up to the runs already, and the counts keep their room.
 */
export function completedApart(rows: readonly { tasksDone?: Pick<TasksDone, 'completedNotDone' | 'doneNotCompleted'> }[]): boolean {
  return rows.some((row) => row.tasksDone !== undefined && (row.tasksDone.completedNotDone > 0 || row.tasksDone.doneNotCompleted > 0));
}

/** Columns per reason, before their note and title. */
type ReasonColumns = Omit<StopsLayout, 'note' | 'title'>;

/** A cut header keeps at least 3 characters (`max…`, `tra…`: every stop reason's first 3 differ). */
const SHORTEST_HEADER = 4;
const OTHER_STOPS = 'other stops';
const EVERY_STOP = 'stops';

/** `max_steps 27, trace_end 8`: the stop reasons other than completion (`withCompleted`: every one), as one cell (`-` when none). */
export function otherStopsText(counts: StopCounts, withCompleted = false): string {
  let text = '';
  for (const reason of reasonsIn([counts], withCompleted)) text += `${text === '' ? '' : ', '}${reason} ${counts[reason]}`;
  return text || '-';
}

const KNOWN_REASONS: ReadonlySet<string> = new Set(STOP_REASONS);

/** The reasons other than completion (`withCompleted`: every one) with a count in any row: the known ones in STOP_REASONS order, then any other. */
function reasonsIn(all: readonly StopCounts[], withCompleted: boolean): string[] {
  const present = new Set<string>();
  for (const counts of all) {
    for (const reason in counts) {
      const n = counts[reason];
      if ((withCompleted || reason !== 'completed') && n !== undefined && n > 0) present.add(reason);
    }
  }
  if (present.size === 0) return [];
  const known = STOP_REASONS.filter((reason) => present.has(reason));
  return known.length === present.size ? known : [...known, ...[...present].filter((reason) => !KNOWN_REASONS.has(reason)).sort()];
}

/** Columns a table takes at its narrowest (every shrinkable column at its floor, as formatTable), gaps between included; `rows` read once, in order. */
export function narrowestWidth(columns: readonly Column[], rows: Iterable<readonly Cell[]>): number {
  return narrowestOf(columns, cellWidthsOf(columns.length, rows));
}

/** narrowestWidth from each column's widest cell, measured already (cellWidthsOf): for a table whose rows are measured once for several uses. */
export function narrowestOf(columns: readonly Column[], cellWidths: readonly number[]): number {
  let total = GAP * Math.max(0, columns.length - 1);
  columns.forEach((column, i) => {
    const header = displayWidth(printableCell(column.header));
    const width = Math.max(header, cellWidths[i]!);
    total += column.shrink ? Math.min(width, column.minWidth ?? Math.max(header, 12)) : width;
  });
  return total;
}

/**
 * The stop counts of `all` rows laid out in `room` columns (what the table leaves them, its other columns
 * at their narrowest): whole in one column (unless `oneColumn` is false: a table of their own lines the
 * counts up), else a column per reason with headers cut as far as needed. Never cuts a count: when
 * nothing fits, the narrowest layout, `fits` false.
 */
export function layOutStops(all: readonly StopCounts[], room: number, options: StopsOptions = {}): StopsLayout {
  const withCompleted = options.withCompleted === true;
  const reasons = reasonsIn(all, withCompleted);
  const title = withCompleted ? EVERY_STOP : 'stops other than completion';
  if (options.oneColumn !== false) {
    const header = withCompleted ? EVERY_STOP : OTHER_STOPS;
    const text = (counts: StopCounts) => otherStopsText(counts, withCompleted);
    let whole = GAP + header.length;
    for (const counts of all) whole = Math.max(whole, GAP + displayWidth(printableCell(text(counts))));
    if (whole <= room) return { columns: [{ header }], cells: (counts) => [text(counts)], width: whole, fits: true, note: '', title };
  }
  if (reasons.length === 0) return { columns: [], cells: () => [], width: 0, fits: true, note: '', title };
  let countWidth = 1;
  for (const counts of all) for (const reason of reasons) countWidth = Math.max(countWidth, String(counts[reason] ?? 0).length);
  const layout = perReason(reasons, countWidth, room) ?? { ...perReason(reasons, countWidth, Infinity, true)!, fits: false };
  return { ...layout, title, note: stopsNote(reasons.map(printableCell), layout.columns.map((column) => column.header), withCompleted) };
}

/**
 * One right-aligned column per reason, each header whole unless the columns would pass `room`: then cut,
 * one character at a time, the longest header (a header cut already before a whole one), until they fit —
 * a header that fits whole is never cut with the others (`max_…  repeat  trac…`, not `repe…`). With
 * `narrowest`, every header at its shortest distinct prefix, whatever the room.
 */
function perReason(reasons: readonly string[], countWidth: number, room: number, narrowest = false): ReasonColumns | undefined {
  const names = reasons.map(printableCell);
  const longest = Math.max(SHORTEST_HEADER, maxOf(names.map((name) => [...name].length), 0));
  if (narrowest) {
    for (let cap = SHORTEST_HEADER; cap <= longest; cap++) {
      const layout = stopsLayout(reasons, names.map((name) => cutHeader(name, cap)), countWidth);
      if (layout !== undefined) return layout;
    }
    return undefined;
  }
  const caps = names.map((name) => [...name].length);
  for (;;) {
    const layout = stopsLayout(reasons, names.map((name, i) => cutHeader(name, caps[i]!)), countWidth);
    if (layout !== undefined && layout.width <= room) return layout;
    const next = nextToCut(caps, names, Math.max(SHORTEST_HEADER, countWidth));
    if (next < 0) return undefined;
    caps[next]! -= 1;
  }
}

/** The header to cut by one more character: the longest above `floor` (of those, one cut already first); -1 when none is. */
function nextToCut(caps: readonly number[], names: readonly string[], floor: number): number {
  let best = -1;
  const isCut = (i: number) => caps[i]! < [...names[i]!].length;
  for (let i = 0; i < caps.length; i++) {
    if (caps[i]! <= floor) continue;
    if (best < 0 || caps[i]! > caps[best]! || (caps[i] === caps[best] && isCut(i) && !isCut(best))) best = i;
  }
  return best;
}

/** Columns under `headers` (undefined when two are the same), the counts right-aligned under them. */
function stopsLayout(reasons: readonly string[], headers: readonly string[], countWidth: number): ReasonColumns | undefined {
  if (new Set(headers).size < headers.length) return undefined;
  const width = headers.reduce((sum, header) => sum + GAP + Math.max(displayWidth(header), countWidth), 0);
  const columns = headers.map((header): Column => ({ header, align: 'right' }));
  return { columns, cells: (counts) => reasons.map((reason) => counts[reason] ?? 0), width, fits: true };
}

function cutHeader(name: string, cap: number): string {
  const chars = [...name];
  return chars.length <= cap ? name : `${chars.slice(0, cap - 1).join('')}…`;
}

/**
 * `max_… = max_steps, repeat, trac… = trace_end: runs that ended with that stop (the rest completed)`;
 * `withCompleted`: `completed, max_steps, …: runs that ended with that stop reason (a row's add up to its runs)`.
 */
function stopsNote(names: readonly string[], headers: readonly string[], withCompleted: boolean): string {
  if (names.length === 0) return '';
  const named = names.map((name, i) => (headers[i] === name ? name : `${headers[i]} = ${name}`));
  return `${named.join(', ')}: runs that ended with that stop ${withCompleted ? "reason (a row's add up to its runs)" : '(the rest completed)'}.`;
}

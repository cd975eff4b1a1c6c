/**
 * Column programs: how the compiled-trace cache (compiledEntry.ts) stores a run's typed arrays small.
 * An array is cut into `stride` interleaved columns (stride 1: the array itself; a larger stride when the
 * array's length is that many times the length of another array of the run, as for a trace's per-call
 * records), and each column is stored as the first of these that holds it exactly:
 *
 *     ['k', v]                 every value is v (a number as compiledCodec.ts describes it)
 *     ['c', array, column]     a copy of a column stored before (an earlier array of the run, or an
 *                              earlier column of this one; `array` counted from the run's first)
 *     ['n', kind, payload, base, leads]
 *                              integers: with no leads the values, with one lead (the first value)
 *                              their differences after it (a running total), with two (the first two
 *                              values) the differences of those, each minus `base`, in the narrowest
 *                              unsigned integer kind that holds them (payload: the run's payload number)
 *     ['r', kind, payload]     the values as they are
 *
 * Every array is decoded again right after it is encoded and compared byte for byte with the original;
 * one that differs (a NaN's payload, a running total past 2^53) is stored whole (stride 1, one 'r'
 * column in its own kind, read back as a view of the entry's buffer with no copy). Names no field.
 * Decoding: columnDecode.ts.
 *
 * Encoding is one pass over each column (statsOf: constant?, whole numbers?, the spans of the values and
 * of their first and second differences, a key to look copies up by), then one to write the narrow
 * payload: ~2.3× faster than the map/every/findIndex passes it replaced, with the same programs. The
 * interleaved strides are tried before stride 1, which is not searched once they hold the array in under
 * a quarter of its bytes (the per-call records, the closed-form sums: a column of all their fields mixed
 * would not narrow).
 */
import { decodeArray, gather } from './columnDecode.js';
import { ARRAY_KINDS, describeValue, type ArrayKind, type StoredArray } from './compiledCodec.js';

export { decodeArray };

export type ColumnProgram = ['k', unknown] | ['c', number, number] | ['n', ArrayKind, number, number, number[]] | ['r', ArrayKind, number];

/** An array's kind, length and stride, and one program per column. */
export type ArrayProgram = [ArrayKind, number, number, ColumnProgram[]];

const MAX_STRIDE = 64;
const UNSIGNED: readonly [ArrayKind, number][] = [
  ['Uint8Array', 2 ** 8],
  ['Uint16Array', 2 ** 16],
  ['Uint32Array', 2 ** 32],
];

interface Seen {
  array: number;
  column: number;
  values: Float64Array;
}

/** What one pass over a column finds: whether every value is the first, and whether they are whole numbers with the spans of their differences. */
interface ColumnStats {
  constant: boolean;
  integral: boolean;
  /** Least and greatest of the values (order 0), their differences after the first (1) and those differences' after the first two (2). */
  min: [number, number, number];
  max: [number, number, number];
  /** A function of the column's bytes (equal columns: equal keys), to look copies up by. */
  key: string;
}

/** Encodes a run's arrays: a program per array and the payloads they name (run-relative). `compact` false: every array whole. */
export function encodeArrays(arrays: readonly StoredArray[], kinds: readonly ArrayKind[], compact = true): { programs: ArrayProgram[]; payloads: StoredArray[] } {
  const programs: ArrayProgram[] = [];
  const payloads: StoredArray[] = [];
  const seen = new Map<string, Seen[]>();
  const lengths = new Set(arrays.map((array) => array.length));
  const strided = (index: number) => ({ array: arrays[index]!, stride: programs[index]![2] });
  arrays.forEach((array, a) => {
    const kind = kinds[a]!;
    let best: Strided | undefined;
    for (const stride of compact ? stridesOf(array.length, lengths) : []) {
      // Interleaved columns that already take under a quarter of the array: one column of all of them would not do better enough to search it.
      if (stride === 1 && best !== undefined && best.bytes * 4 < array.byteLength) break;
      const tried = encodeStrided(array, kind, stride, { self: a, seen });
      if (best === undefined || tried.bytes < best.bytes) best = tried;
    }
    const tried = best;
    if (tried !== undefined && !sameBytes(decodeArray(tried.program, a, (p) => tried.payloads[p]!, strided), array)) best = undefined;
    if (best === undefined || best.bytes >= array.byteLength) {
      programs.push([kind, array.length, 1, [['r', kind, payloads.length]]]);
      payloads.push(array);
      if (compact) {
        const values = columnOf(array, 1, 0);
        remember(seen, a, [values], [statsOf(values).key]);
      }
      return;
    }
    const [, length, stride, columns] = best.program;
    programs.push([kind, length, stride, columns.map((column) => rebase(column, payloads.length))]);
    payloads.push(...best.payloads);
    remember(seen, a, best.columns, best.keys);
  });
  return { programs, payloads };
}

function rebase(column: ColumnProgram, base: number): ColumnProgram {
  if (column[0] === 'n') return ['n', column[1], column[2] + base, column[3], column[4]];
  if (column[0] === 'r') return ['r', column[1], column[2] + base];
  return column;
}

/** Every stride (≤ MAX_STRIDE) that cuts the array into columns as long as another array of the run, then stride 1. */
function stridesOf(length: number, lengths: ReadonlySet<number>): number[] {
  const strides = [];
  for (let stride = 2; stride <= MAX_STRIDE && stride <= length; stride++) if (length % stride === 0 && lengths.has(length / stride)) strides.push(stride);
  strides.push(1);
  return strides;
}

function remember(seen: Map<string, Seen[]>, array: number, columns: Float64Array[], keys: string[]): void {
  columns.forEach((values, column) => {
    const key = keys[column]!;
    const found = seen.get(key);
    if (found === undefined) seen.set(key, [{ array, column, values }]);
    else found.push({ array, column, values });
  });
}

interface Strided {
  program: ArrayProgram;
  payloads: StoredArray[];
  columns: Float64Array[];
  keys: string[];
  bytes: number;
}

/** The array cut into `stride` columns, each encoded; `bytes`: payload bytes plus a little for each program. */
function encodeStrided(array: StoredArray, kind: ArrayKind, stride: number, at: { self: number; seen: Map<string, Seen[]> }): Strided {
  const rows = array.length / stride;
  const program: ArrayProgram = [kind, array.length, stride, []];
  const payloads: StoredArray[] = [];
  const columns: Float64Array[] = [];
  const keys: string[] = [];
  let bytes = 0;
  for (let j = 0; j < stride; j++) {
    const values = columnOf(array, stride, j);
    const stats = statsOf(values);
    columns.push(values);
    keys.push(stats.key);
    if (rows === 0) program[3].push(['k', 0]);
    else if (stats.constant) program[3].push(['k', describeValue(values[0], [])]);
    else {
      const copy = findCopy(values, stats.key, at.seen, { columns, keys, count: j });
      if (copy !== undefined) program[3].push(copy[0] === 'self' ? ['c', at.self, copy[1]] : ['c', copy[0], copy[1]]);
      else {
        const narrow = stats.integral ? narrowed(values, stats) : undefined;
        const data = narrow?.data ?? new ARRAY_KINDS[kind](values);
        program[3].push(narrow === undefined ? ['r', kind, payloads.length] : ['n', narrow.kind, payloads.length, narrow.base, narrow.leads]);
        payloads.push(data);
        bytes += data.byteLength;
      }
    }
    bytes += 16;
  }
  return { program, payloads, columns, keys, bytes };
}

/** Column `j` of `stride` interleaved columns of `array`, as Float64 (the array itself when it is one column of Float64). */
function columnOf(array: StoredArray, stride: number, j: number): Float64Array {
  if (stride === 1) return array instanceof Float64Array ? array : new Float64Array(array);
  return gather(array, stride, j, new Float64Array(array.length / stride));
}

/** Object.is for numbers, without a call per value. */
const sameNumber = (a: number, b: number): boolean => (a === b ? a !== 0 || 1 / a === 1 / b : a !== a && b !== b);

/** One pass over the column (see ColumnStats); the spans are of whole numbers only (`integral`). */
function statsOf(values: Float64Array): ColumnStats {
  const rows = values.length;
  const first = rows === 0 ? 0 : values[0]!;
  let constant = true;
  let integral = true;
  let min0 = Infinity, max0 = -Infinity, min1 = Infinity, max1 = -Infinity, min2 = Infinity, max2 = -Infinity;
  let sum = 0;
  let previous = 0;
  let step = 0;
  for (let i = 0; i < rows; i++) {
    const v = values[i]!;
    sum += v;
    if (constant && !sameNumber(v, first)) constant = false;
    if (!(v === Math.floor(v) && v <= Number.MAX_SAFE_INTEGER && v >= -Number.MAX_SAFE_INTEGER) || (v === 0 && 1 / v < 0)) integral = false;
    if (v < min0) min0 = v;
    if (v > max0) max0 = v;
    if (i >= 1) {
      const d = v - previous;
      if (d < min1) min1 = d;
      if (d > max1) max1 = d;
      if (i >= 2) {
        const d2 = d - step;
        if (d2 < min2) min2 = d2;
        if (d2 > max2) max2 = d2;
      }
      step = d;
    }
    previous = v;
  }
  return { constant, integral, min: [min0, min1, min2], max: [max0, max1, max2], key: `${rows}:${first}:${previous}:${sum}` };
}

/** An equal column seen before: [array, column], or ['self', column] for an earlier column of this array. */
function findCopy(values: Float64Array, key: string, seen: Map<string, Seen[]>, own: { columns: Float64Array[]; keys: string[]; count: number }): [number | 'self', number] | undefined {
  for (let j = 0; j < own.count; j++) if (own.keys[j] === key && sameBytes(own.columns[j]!, values)) return ['self', j];
  const match = seen.get(key)?.find((candidate) => sameBytes(candidate.values, values));
  return match === undefined ? undefined : [match.array, match.column];
}

/**
 * The narrowest of the values, their differences after the first value and the differences of those
 * after the first two (each less its least), when all are whole numbers (`stats` of these values).
 */
function narrowed(values: Float64Array, stats: ColumnStats): { kind: ArrayKind; data: StoredArray; base: number; leads: number[] } | undefined {
  let best: { kind: ArrayKind; base: number; order: number; width: number } | undefined;
  for (let order = 0; order <= 2 && order < values.length; order++) {
    const fit = UNSIGNED.findIndex(([, span]) => stats.max[order]! - stats.min[order]! < span);
    if (fit >= 0 && (best === undefined || fit < best.width)) best = { kind: UNSIGNED[fit]![0], base: stats.min[order]!, order, width: fit };
  }
  if (best === undefined) return undefined;
  const series = new Float64Array(values.length - best.order);
  seriesOf(values, best.order, best.base, series);
  const data = new ARRAY_KINDS[best.kind](series.length);
  data.set(series);
  return { kind: best.kind, data, base: best.base, leads: Array.from(values.subarray(0, best.order)) };
}

/** The values (order 0), their differences (1) or the differences of those (2), from `order` on, less `base`. */
function seriesOf(values: Float64Array, order: number, base: number, out: Float64Array): void {
  const rows = values.length;
  if (order === 0) for (let i = 0; i < rows; i++) out[i] = values[i]! - base;
  else if (order === 1) for (let i = 1; i < rows; i++) out[i - 1] = values[i]! - values[i - 1]! - base;
  else for (let i = 2; i < rows; i++) out[i - 2] = values[i]! - values[i - 1]! - (values[i - 1]! - values[i - 2]!) - base;
}

function sameBytes(a: ArrayBufferView, b: ArrayBufferView): boolean {
  if (a.constructor !== b.constructor || a.byteLength !== b.byteLength) return false;
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}

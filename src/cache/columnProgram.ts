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
 */
import { decodeArray } from './columnDecode.js';
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

/** Encodes a run's arrays: a program per array and the payloads they name (run-relative). `compact` false: every array whole. */
export function encodeArrays(arrays: readonly StoredArray[], kinds: readonly ArrayKind[], compact = true): { programs: ArrayProgram[]; payloads: StoredArray[] } {
  const programs: ArrayProgram[] = [];
  const payloads: StoredArray[] = [];
  const seen = new Map<string, Seen[]>();
  const lengths = new Set(arrays.map((array) => array.length));
  const strided = (index: number) => ({ array: arrays[index]!, stride: programs[index]![2] });
  arrays.forEach((array, a) => {
    const kind = kinds[a]!;
    let best: { program: ArrayProgram; payloads: StoredArray[]; columns: Float64Array[]; bytes: number } | undefined;
    for (const stride of compact ? stridesOf(array.length, lengths) : []) {
      const tried = encodeStrided(array, kind, stride, { self: a, seen });
      if (best === undefined || tried.bytes < best.bytes) best = tried;
    }
    const tried = best;
    if (tried !== undefined && !sameBytes(decodeArray(tried.program, a, (p) => tried.payloads[p]!, strided), array)) best = undefined;
    if (best === undefined || best.bytes >= array.byteLength) {
      programs.push([kind, array.length, 1, [['r', kind, payloads.length]]]);
      payloads.push(array);
      if (compact) remember(seen, a, [Float64Array.from(array)]);
      return;
    }
    const [, length, stride, columns] = best.program;
    programs.push([kind, length, stride, columns.map((column) => rebase(column, payloads.length))]);
    payloads.push(...best.payloads);
    remember(seen, a, best.columns);
  });
  return { programs, payloads };
}

function rebase(column: ColumnProgram, base: number): ColumnProgram {
  if (column[0] === 'n') return ['n', column[1], column[2] + base, column[3], column[4]];
  if (column[0] === 'r') return ['r', column[1], column[2] + base];
  return column;
}

/** Stride 1, and every stride (≤ MAX_STRIDE) that cuts the array into columns as long as another array of the run. */
function stridesOf(length: number, lengths: ReadonlySet<number>): number[] {
  const strides = [1];
  for (let stride = 2; stride <= MAX_STRIDE && stride <= length; stride++) if (length % stride === 0 && lengths.has(length / stride)) strides.push(stride);
  return strides;
}

function remember(seen: Map<string, Seen[]>, array: number, columns: Float64Array[]): void {
  columns.forEach((values, column) => {
    const key = keyOf(values);
    seen.set(key, [...(seen.get(key) ?? []), { array, column, values }]);
  });
}

/** The array cut into `stride` columns, each encoded; `bytes`: payload bytes plus a little for each program. */
function encodeStrided(array: StoredArray, kind: ArrayKind, stride: number, at: { self: number; seen: Map<string, Seen[]> }) {
  const rows = array.length / stride;
  const program: ArrayProgram = [kind, array.length, stride, []];
  const payloads: StoredArray[] = [];
  const columns: Float64Array[] = [];
  let bytes = 0;
  for (let j = 0; j < stride; j++) {
    const values = new Float64Array(rows);
    for (let i = 0; i < rows; i++) values[i] = array[i * stride + j]!;
    columns.push(values);
    const copy = findCopy(values, at.seen, columns.slice(0, j));
    if (rows === 0) program[3].push(['k', 0]);
    else if (values.every((v) => Object.is(v, values[0]))) program[3].push(['k', describeValue(values[0], [])]);
    else if (copy !== undefined) program[3].push(copy[0] === 'self' ? ['c', at.self, copy[1]] : ['c', copy[0], copy[1]]);
    else {
      const narrow = narrowed(values);
      const data = narrow?.data ?? ARRAY_KINDS[kind].from(values);
      program[3].push(narrow === undefined ? ['r', kind, payloads.length] : ['n', narrow.kind, payloads.length, narrow.base, narrow.leads]);
      payloads.push(data);
      bytes += data.byteLength;
    }
    bytes += 16;
  }
  return { program, payloads, columns, bytes };
}

/** An equal column seen before: [array, column], or ['self', column] for an earlier column of this array. */
function findCopy(values: Float64Array, seen: Map<string, Seen[]>, own: Float64Array[]): [number | 'self', number] | undefined {
  const ownAt = own.findIndex((column) => sameBytes(column, values));
  if (ownAt >= 0) return ['self', ownAt];
  const match = seen.get(keyOf(values))?.find((candidate) => sameBytes(candidate.values, values));
  return match === undefined ? undefined : [match.array, match.column];
}

/**
 * The narrowest of the values, their differences after the first value and the differences of those
 * after the first two (each less its least), when all are whole numbers.
 */
function narrowed(values: Float64Array): { kind: ArrayKind; data: StoredArray; base: number; leads: number[] } | undefined {
  for (const v of values) if (!Number.isInteger(v) || Object.is(v, -0) || Math.abs(v) > Number.MAX_SAFE_INTEGER) return undefined;
  let best: { kind: ArrayKind; series: Float64Array; base: number; order: number; width: number } | undefined;
  let series = values;
  for (let order = 0; order <= 2 && order < values.length; order++) {
    if (order > 0) series = series.map((v, i) => (i < order ? v : v - series[i - 1]!));
    let min = Infinity;
    let max = -Infinity;
    for (let i = order; i < series.length; i++) {
      if (series[i]! < min) min = series[i]!;
      if (series[i]! > max) max = series[i]!;
    }
    const fit = UNSIGNED.findIndex(([, span]) => max - min < span);
    if (fit >= 0 && (best === undefined || fit < best.width)) best = { kind: UNSIGNED[fit]![0], series, base: min, order, width: fit };
  }
  if (best === undefined) return undefined;
  const data = new ARRAY_KINDS[best.kind](values.length - best.order);
  for (let i = best.order; i < values.length; i++) data[i - best.order] = best.series[i]! - best.base;
  return { kind: best.kind, data, base: best.base, leads: Array.from(values.subarray(0, best.order)) };
}

function sameBytes(a: ArrayBufferView, b: ArrayBufferView): boolean {
  if (a.constructor !== b.constructor || a.byteLength !== b.byteLength) return false;
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}

/** A column's length and an FNV-1a hash of its bytes. */
function keyOf(values: Float64Array): string {
  const words = new Uint32Array(values.buffer, values.byteOffset, values.length * 2);
  let hash = 0x811c9dc5;
  for (let i = 0; i < words.length; i++) hash = Math.imul(hash ^ words[i]!, 0x01000193);
  return `${values.length}:${hash >>> 0}`;
}

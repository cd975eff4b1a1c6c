/**
 * Decoding column programs (columnProgram.ts) into a run's typed arrays. Each column is worked in a
 * Float64Array of one run's rows (payloads widened into it natively with `set`, then constants, base and
 * running totals added in one loop that only ever sees Float64Arrays) and written into its array with
 * `set` (stride 1) or one strided loop per target kind, so the loops stay monomorphic: a loop over
 * whichever typed array kind comes is several times slower.
 */
import { ARRAY_KINDS, constantValueOf, type ArrayKind, type StoredArray } from './compiledCodec.js';
import type { ArrayProgram } from './columnProgram.js';

let scratch = new Float64Array(1024);

/** A Float64Array of `rows` to work a column in (shared: used by one column at a time). */
function columnOf(rows: number): Float64Array {
  if (scratch.length < rows) scratch = new Float64Array(Math.max(rows, scratch.length * 2));
  return scratch.subarray(0, rows);
}

const fresh = (kind: ArrayKind, length: number): StoredArray => new ARRAY_KINDS[kind](length);

/**
 * Decodes one array; `payloadAt` and `arrayAt` count from the run's first payload and array; `allocate`
 * gives a zeroed array of a kind and length to decode into. Throws on a program that does not fit.
 */
export function decodeArray(
  program: ArrayProgram,
  self: number,
  payloadAt: (index: number) => StoredArray,
  arrayAt: (index: number) => { array: StoredArray; stride: number },
  allocate: (kind: ArrayKind, length: number) => StoredArray = fresh,
): StoredArray {
  const [kind, length, stride, columns] = program;
  if (!(kind in ARRAY_KINDS) || !Number.isSafeInteger(length) || !Number.isSafeInteger(stride) || stride < 1 || columns.length !== stride || length % stride !== 0) throw new Error('bad array program');
  const first = columns[0]!;
  if (stride === 1 && first[0] === 'r' && first[1] === kind) {
    const view = payloadAt(first[2]);
    if (view.length !== length) throw new Error('bad payload');
    return view;
  }
  const target = allocate(kind, length);
  const rows = length / stride;
  for (let j = 0; j < stride; j++) {
    const column = columns[j]!;
    if (column[0] === 'k') {
      const value = constantValueOf(column[1]);
      if (typeof value !== 'number') throw new Error('bad constant');
      if (!Object.is(value, 0)) fillColumn(target, stride, j, value); // a fresh array is zeros
    } else if (column[0] === 'c') {
      const [, index, from] = column;
      if (!Number.isSafeInteger(index) || index < 0 || index > self || (index === self && from >= j)) throw new Error('bad copy');
      const source = index === self ? { array: target, stride } : arrayAt(index);
      if (!(from >= 0 && from < source.stride) || source.array.length !== rows * source.stride) throw new Error('bad copy');
      if (stride === 1 && source.stride === 1) target.set(source.array);
      else scatter(target, stride, j, gather(source.array, source.stride, from, columnOf(rows)));
    } else {
      const data = payloadAt(column[2]);
      const leads = column[0] === 'n' ? column[4] : [];
      if (!Array.isArray(leads) || data.length + leads.length !== rows || data.constructor !== ARRAY_KINDS[column[1]]) throw new Error('bad payload');
      if (column[0] === 'r' && stride === 1) target.set(data);
      else {
        const values = columnOf(rows);
        values.set(data, leads.length);
        if (column[0] === 'n') sumColumn(values, column[3], leads);
        scatter(target, stride, j, values);
      }
    }
  }
  return target;
}

/** Narrow integers (from `leads.length` on) plus `base`: as they are, a running total after one lead, or a running total of one after two. */
function sumColumn(values: Float64Array, base: number, leads: number[]): void {
  const rows = values.length;
  if (typeof base !== 'number') throw new Error('bad base');
  if (leads.length === 0) for (let i = 0; i < rows; i++) values[i] = base + values[i]!;
  else if (leads.length === 1) {
    let total = (values[0] = leads[0]!);
    for (let i = 1; i < rows; i++) values[i] = total += base + values[i]!;
  } else if (leads.length === 2) {
    values[0] = leads[0]!;
    let total = (values[1] = leads[1]!);
    let step = leads[1]! - leads[0]!;
    for (let i = 2; i < rows; i++) values[i] = total += step += base + values[i]!;
  } else throw new Error('bad leads');
}

/** Every `stride`-th value of `source` from `from` on, into `out` (as long as the column). */
export function gather(source: StoredArray, stride: number, from: number, out: Float64Array): Float64Array {
  if (source instanceof Float64Array) gatherFloat64(source, stride, from, out);
  else for (let i = 0, at = from; i < out.length; i++, at += stride) out[i] = source[at]!;
  return out;
}

function gatherFloat64(source: Float64Array, stride: number, from: number, out: Float64Array): void {
  for (let i = 0, at = from; i < out.length; i++, at += stride) out[i] = source[at]!;
}

function scatter(target: StoredArray, stride: number, j: number, values: Float64Array): void {
  if (stride === 1) target.set(values);
  else if (target instanceof Float64Array) scatterFloat64(target, stride, j, values);
  else for (let i = 0, at = j; i < values.length; i++, at += stride) target[at] = values[i]!;
}

function scatterFloat64(target: Float64Array, stride: number, j: number, values: Float64Array): void {
  for (let i = 0, at = j; i < values.length; i++, at += stride) target[at] = values[i]!;
}

function fillColumn(target: StoredArray, stride: number, j: number, value: number): void {
  if (stride === 1) target.fill(value);
  else if (target instanceof Float64Array) fillFloat64(target, stride, j, value);
  else for (let at = j; at < target.length; at += stride) target[at] = value;
}

function fillFloat64(target: Float64Array, stride: number, j: number, value: number): void {
  for (let at = j; at < target.length; at += stride) target[at] = value;
}

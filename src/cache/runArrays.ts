/**
 * A unit's arrays decoded from an entry (compiledEntry.ts; a unit is a block of runs, entryBlocks.ts),
 * each once, when first asked for. What a unit must own is carved out of one ArrayBuffer per unit (its
 * slab, sized from the unit's programs when the first such array is decoded) instead of one allocation per array. What it need not own it shares:
 * an array stored whole is a view of the entry's buffer; a constant array (stride 1, one 'k' column) is
 * one array per kind, length and value for the whole entry; a copy of a whole earlier array of the run
 * (stride 1, one 'c' column of a stride-1 array) is that array. Replays only read compiled traces (they
 * are written while compiled, src/fast/precompute.ts), so sharing is safe. Throws on a program that
 * does not fit, as decodeArray does (the run is then not served from the entry).
 */
import { ARRAY_KINDS, constantValueOf, pad8, type ArrayKind, type StoredArray } from './compiledCodec.js';
import { decodeArray } from './columnDecode.js';
import type { ArrayProgram } from './columnProgram.js';

/** How an array is had: a view of the entry, shared (a constant or a whole copy), or decoded into the run's slab. */
type Source = { view: true } | { constant: number } | { copyOf: number } | { own: true };

function sourceOf(programs: readonly ArrayProgram[], base: number, index: number): Source {
  const program = programs[base + index];
  if (program === undefined || !(index >= 0)) throw new Error('bad array');
  const [kind, length, stride, columns] = program;
  if (!(kind in ARRAY_KINDS) || !Number.isSafeInteger(length) || length < 0 || stride !== 1 || columns.length !== 1) return { own: true };
  const column = columns[0]!;
  if (column[0] === 'r' && column[1] === kind) return { view: true };
  if (column[0] === 'k') {
    const value = constantValueOf(column[1]);
    if (typeof value !== 'number') throw new Error('bad constant');
    return { constant: value };
  }
  if (column[0] === 'c') {
    const [, from, at] = column;
    const source = programs[base + from];
    if (Number.isSafeInteger(from) && from >= 0 && from < index && at === 0 && source !== undefined && source[2] === 1 && source[0] === kind && source[1] === length) return { copyOf: from };
  }
  return { own: true };
}

/** Bytes of the slab for the run's arrays `base` .. `end` − 1 that it must own. */
function slabBytes(programs: readonly ArrayProgram[], base: number, end: number): number {
  let bytes = 0;
  for (let index = 0; index < end - base; index++) {
    if (!('own' in sourceOf(programs, base, index))) continue;
    const [kind, length] = programs[base + index]!;
    if (!(kind in ARRAY_KINDS) || !Number.isSafeInteger(length) || length < 0) throw new Error('bad array program');
    bytes += pad8(length * ARRAY_KINDS[kind].BYTES_PER_ELEMENT);
  }
  return bytes;
}

/** Constant arrays shared by every run of an entry, by kind, length and value. */
export type Constants = Map<string, StoredArray>;

function constantArray(constants: Constants, kind: ArrayKind, length: number, value: number): StoredArray {
  const key = `${kind}:${length}:${Object.is(value, -0) ? '-0' : value}`;
  let array = constants.get(key);
  if (array === undefined) {
    array = new ARRAY_KINDS[kind](length);
    if (!Object.is(value, 0)) array.fill(value);
    constants.set(key, array);
  }
  return array;
}

export interface RunArraysOf {
  programs: readonly ArrayProgram[];
  /** The run's first and one past its last array program. */
  base: number;
  end: number;
  /** The run's i-th payload (a view of the entry's buffer). */
  payloadAt: (index: number) => StoredArray;
  constants: Constants;
}

/** The run's i-th array, decoded when first asked for. */
export function runArrays({ programs, base, end, payloadAt, constants }: RunArraysOf): (index: number) => StoredArray {
  const decoded: { array: StoredArray; stride: number }[] = [];
  let slab: { buffer: ArrayBuffer; at: number } | undefined;
  const allocate = (kind: ArrayKind, length: number): StoredArray => {
    slab ??= { buffer: new ArrayBuffer(slabBytes(programs, base, end)), at: 0 };
    const bytes = pad8(length * ARRAY_KINDS[kind].BYTES_PER_ELEMENT);
    if (slab.at + bytes > slab.buffer.byteLength) throw new Error('bad array program');
    const array = new ARRAY_KINDS[kind](slab.buffer, slab.at, length);
    slab.at += bytes;
    return array;
  };
  const at = (index: number): { array: StoredArray; stride: number } => {
    if (!(index >= 0 && index < end - base)) throw new Error('bad array');
    const found = decoded[index];
    if (found !== undefined) return found;
    const program = programs[base + index]!;
    const source = sourceOf(programs, base, index);
    let array: StoredArray;
    if ('constant' in source) array = constantArray(constants, program[0], program[1], source.constant);
    else if ('copyOf' in source) array = at(source.copyOf).array;
    else array = decodeArray(program, index, payloadAt, at, allocate);
    return (decoded[index] = { array, stride: program[2] });
  };
  return (index) => at(index).array;
}

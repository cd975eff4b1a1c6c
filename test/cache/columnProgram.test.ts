/**
 * Column programs (src/cache/columnProgram.ts): a run's typed arrays encoded and decoded again are equal
 * byte for byte (random arrays with a fixed seed: constants, copies, running totals, interleaved columns,
 * NaN, −0, huge and fractional values); the programs are what the values call for; an array no program
 * holds exactly (a NaN with another payload, running totals past 2^53) is stored whole and read as a
 * view; a program that does not fit its payload is refused.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeArray, encodeArrays, type ArrayProgram } from '../../src/cache/columnProgram.js';
import type { ArrayKind, StoredArray } from '../../src/cache/compiledCodec.js';

/** Encodes then decodes `arrays` as the entry does; returns the decoded arrays and the programs. */
function roundTrip(arrays: StoredArray[]): { decoded: StoredArray[]; programs: ArrayProgram[]; payloadBytes: number } {
  const kinds = arrays.map((array) => array.constructor.name as ArrayKind);
  const { programs, payloads } = encodeArrays(arrays, kinds);
  const decoded: StoredArray[] = [];
  const arrayAt = (index: number) => ({ array: decoded[index]!, stride: programs[index]![2] });
  programs.forEach((program, i) => decoded.push(decodeArray(program, i, (p) => payloads[p]!, arrayAt)));
  return { decoded, programs, payloadBytes: payloads.reduce((sum, p) => sum + p.byteLength, 0) };
}

const bytesOf = (array: StoredArray): number[] => Array.from(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));

function expectSameArrays(decoded: StoredArray[], arrays: StoredArray[]): void {
  expect(decoded.map((a) => a.constructor.name)).toEqual(arrays.map((a) => a.constructor.name));
  decoded.forEach((array, i) => expect(bytesOf(array), `array ${i}`).toEqual(bytesOf(arrays[i]!)));
}

const ROWS = 30;
const valueArb = fc.oneof(
  fc.integer({ min: -5, max: 300 }),
  fc.constantFrom(0, -0, NaN, Infinity, -Infinity, 0.5, 2 ** 53, -(2 ** 40), 2 ** 31 - 1),
  fc.double({ noNaN: false }),
);
/** A column: a constant, a running total of small steps, a copy of an earlier column, or anything. */
const columnArb = fc.oneof(
  valueArb.map((v) => ({ kind: 'constant' as const, v })),
  fc.tuple(fc.integer({ min: -1000, max: 1000 }), fc.array(fc.integer({ min: 0, max: 20 }), { minLength: ROWS, maxLength: ROWS })).map(([start, steps]) => ({ kind: 'total' as const, start, steps })),
  fc.nat(50).map((from) => ({ kind: 'copy' as const, from })),
  fc.array(valueArb, { minLength: ROWS, maxLength: ROWS }).map((values) => ({ kind: 'any' as const, values })),
);
type Column = typeof columnArb extends fc.Arbitrary<infer T> ? T : never;

function columnValues(column: Column, earlier: number[][]): number[] {
  if (column.kind === 'constant') return Array(ROWS).fill(column.v);
  if (column.kind === 'copy') return earlier.length === 0 ? Array(ROWS).fill(1) : [...earlier[column.from % earlier.length]!];
  if (column.kind === 'any') return column.values;
  let total = column.start;
  return column.steps.map((step) => (total += step));
}

/** Arrays of 1–3 interleaved columns, Float64 or Int32 (values made to fit an Int32Array's). */
const runArb = fc.array(fc.tuple(fc.constantFrom('Float64Array', 'Int32Array'), fc.array(columnArb, { minLength: 1, maxLength: 3 })), { minLength: 1, maxLength: 6 }).map((specs) => {
  const earlier: number[][] = [];
  return specs.map(([kind, columns]) => {
    const values = columns.map((column) => {
      const v = columnValues(column, earlier);
      earlier.push(v);
      return v;
    });
    const array = kind === 'Float64Array' ? new Float64Array(ROWS * columns.length) : new Int32Array(ROWS * columns.length);
    values.forEach((column, j) => column.forEach((v, i) => (array[i * columns.length + j] = v)));
    return array as StoredArray;
  });
});

describe('column programs', () => {
  it('decode to the same bytes as the arrays encoded (seeded)', () => {
    fc.assert(
      fc.property(runArb, (arrays) => {
        expectSameArrays(roundTrip(arrays).decoded, arrays);
      }),
      { numRuns: 400, seed: 4242 },
    );
  });

  it('store constants, copies and running totals without their values, and interleaved columns apart', () => {
    const rows = 1000;
    const total = Float64Array.from({ length: rows }, (_, i) => 1_000_000 + i * 250 + (i % 7));
    const records = new Float64Array(rows * 3);
    for (let i = 0; i < rows; i++) records.set([i % 5, 7, total[i]!], i * 3);
    const arrays = [total, new Int32Array(rows).fill(-1), Float64Array.from(total), records, new Float64Array(rows + 1)];
    const { decoded, programs, payloadBytes } = roundTrip(arrays);
    expectSameArrays(decoded, arrays);
    expect(programs[0]![3]).toEqual([['n', 'Uint8Array', 0, 244, [1_000_000]]]);
    expect(programs[1]![3]).toEqual([['k', -1]]);
    expect(programs[2]![3]).toEqual([['c', 0, 0]]);
    expect(programs[3]!.slice(0, 3)).toEqual(['Float64Array', rows * 3, 3]);
    expect(programs[3]![3]).toEqual([['n', 'Uint8Array', 1, 0, []], ['k', 7], ['c', 0, 0]]);
    expect(programs[4]![3]).toEqual([['k', 0]]);
    expect(payloadBytes).toBe(2 * rows - 1);
  });

  it('stores whole, read back as a view, an array no program holds exactly', () => {
    const odd = new Float64Array(8).fill(NaN);
    new DataView(odd.buffer).setUint32(12, 0x7ff80001, true); // a NaN with another payload
    const huge = Float64Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? 2 ** 53 : -(2 ** 53)));
    const { programs, payloads } = encodeArrays([odd, huge], ['Float64Array', 'Float64Array']);
    expect(programs.map((program) => program[3])).toEqual([[['r', 'Float64Array', 0]], [['r', 'Float64Array', 1]]]);
    expect(decodeArray(programs[0]!, 0, (p) => payloads[p]!, () => undefined as never)).toBe(odd);
    expectSameArrays(roundTrip([odd, huge]).decoded, [odd, huge]);
  });

  it('refuses a program that does not fit its payload or copies from later', () => {
    const payloads = [new Uint8Array(4)];
    const at = (p: number) => payloads[p]!;
    const none = () => undefined as never;
    expect(() => decodeArray(['Float64Array', 5, 1, [['n', 'Uint8Array', 0, 0, []]]], 0, at, none)).toThrow();
    expect(() => decodeArray(['Float64Array', 4, 1, [['n', 'Uint16Array', 0, 0, []]]], 0, at, none)).toThrow();
    expect(() => decodeArray(['Float64Array', 4, 2, [['k', 0]]], 0, at, none)).toThrow();
    expect(() => decodeArray(['Float64Array', 4, 1, [['c', 1, 0]]], 0, at, none)).toThrow();
    expect(() => decodeArray(['Float64Array', 4, 1, [['n', 'Uint8Array', 0, 0, [1, 2, 3]]]], 0, at, none)).toThrow();
    expect(Array.from(decodeArray(['Float64Array', 5, 1, [['n', 'Uint8Array', 0, 2, [10]]]], 0, at, none))).toEqual([10, 12, 14, 16, 18]);
  });
});

/**
 * A run's arrays as the entry decodes them (src/cache/runArrays.ts): byte for byte the arrays encoded
 * (seeded random runs: constants incl. −0 and NaN, whole copies, running totals, interleaved columns,
 * edge values), the arrays a run owns carved out of one buffer, constant arrays shared by the runs of
 * an entry (by kind, length and value), a whole copy the array it copies; a program that does not fit
 * is refused.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeArrays, type ArrayProgram } from '../../src/cache/columnProgram.js';
import type { ArrayKind, StoredArray } from '../../src/cache/compiledCodec.js';
import { runArrays, type Constants } from '../../src/cache/runArrays.js';

const ROWS = 24;
const bytesOf = (array: StoredArray): number[] => Array.from(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));

/** Encodes `arrays` as one run and decodes them back with runArrays (sharing `constants`). */
function decodedRun(arrays: StoredArray[], constants: Constants): { decoded: StoredArray[]; programs: ArrayProgram[] } {
  const { programs, payloads } = encodeArrays(arrays, arrays.map((array) => array.constructor.name as ArrayKind));
  const arrayAt = runArrays({ programs, base: 0, end: programs.length, payloadAt: (p) => payloads[p]!, constants });
  return { decoded: arrays.map((_, i) => arrayAt(i)), programs };
}

const valueArb = fc.oneof(fc.integer({ min: -5, max: 300 }), fc.constantFrom(0, -0, NaN, Infinity, -Infinity, 0.5, 2 ** 53, -(2 ** 31), 2 ** 31 - 1), fc.double());
const specArb = fc.tuple(
  fc.constantFrom<'Float64Array' | 'Int32Array'>('Float64Array', 'Int32Array'),
  fc.integer({ min: 1, max: 3 }),
  fc.oneof(
    valueArb.map((v) => ({ kind: 'constant' as const, v })),
    fc.nat(20).map((from) => ({ kind: 'copy' as const, from })),
    fc.array(fc.integer({ min: 0, max: 40 }), { minLength: 1, maxLength: 3 * ROWS }).map((steps) => ({ kind: 'total' as const, steps })),
    fc.array(valueArb, { minLength: 3 * ROWS, maxLength: 3 * ROWS }).map((values) => ({ kind: 'any' as const, values })),
  ),
);

type Spec = typeof specArb extends fc.Arbitrary<infer T> ? T : never;

/** Arrays of 1–3 interleaved columns: constants, copies of a whole earlier array, running totals or anything. */
function arraysOf(specs: Spec[]): StoredArray[] {
  const arrays: StoredArray[] = [];
  for (const [kind, stride, fill] of specs) {
    const length = ROWS * stride;
    const array = kind === 'Float64Array' ? new Float64Array(length) : new Int32Array(length);
    if (fill.kind === 'copy' && arrays.length > 0) array.set(arrays[fill.from % arrays.length]!.subarray(0, length));
    else if (fill.kind === 'constant') array.fill(fill.v);
    else if (fill.kind === 'any') array.set(fill.values.slice(0, length));
    else if (fill.kind === 'total') {
      let total = 0;
      for (let i = 0; i < length; i++) array[i] = total += fill.steps[i % fill.steps.length]!;
    }
    arrays.push(array);
  }
  return arrays;
}

describe('a run\'s arrays from an entry', () => {
  it('decode to the same bytes as the arrays encoded, two runs sharing their constants (seeded)', () => {
    fc.assert(
      fc.property(fc.array(specArb, { minLength: 1, maxLength: 8 }), fc.array(specArb, { minLength: 1, maxLength: 8 }), (a, b) => {
        const constants: Constants = new Map();
        for (const arrays of [arraysOf(a), arraysOf(b)]) {
          const { decoded } = decodedRun(arrays, constants);
          decoded.forEach((array, i) => {
            expect(array.constructor).toBe(arrays[i]!.constructor);
            expect(bytesOf(array), `array ${i}`).toEqual(bytesOf(arrays[i]!));
          });
        }
      }),
      { numRuns: 300, seed: 7007 },
    );
  });

  it('carves owned arrays out of one buffer, shares constants across runs and whole copies within one', () => {
    const totals = Float64Array.from({ length: 100 }, (_, i) => i * (i + 1));
    const records = new Float64Array(300);
    for (let i = 0; i < 100; i++) records.set([i % 3, totals[i]!, 4], i * 3);
    const run = () => [totals.slice(), new Int32Array(100).fill(-1), totals.slice(), records.slice(), new Float64Array(100)];
    const constants: Constants = new Map();
    const first = decodedRun(run(), constants);
    const second = decodedRun(run(), constants);
    expect(first.programs[2]![3]).toEqual([['c', 0, 0]]);
    expect(first.decoded[2]).toBe(first.decoded[0]);
    expect(second.decoded[1]).toBe(first.decoded[1]);
    expect(second.decoded[4]).toBe(first.decoded[4]);
    expect(Array.from(first.decoded[1]!.subarray(0, 3))).toEqual([-1, -1, -1]);
    expect(first.decoded[3]!.buffer).toBe(first.decoded[0]!.buffer);
    expect(first.decoded[0]!.byteOffset).not.toBe(first.decoded[3]!.byteOffset);
    expect(second.decoded[0]!.buffer).not.toBe(first.decoded[0]!.buffer);
    expect(Array.from(second.decoded[3]!)).toEqual(Array.from(records));
  });

  it('refuses a program that does not fit', () => {
    const at = (programs: ArrayProgram[]) => runArrays({ programs, base: 0, end: programs.length, payloadAt: () => new Uint8Array(4), constants: new Map() });
    expect(() => at([['Float64Array', 5, 1, [['n', 'Uint8Array', 0, 0, []]]]])(0)).toThrow();
    expect(() => at([['Float64Array', 4, 1, [['c', 0, 0]]]])(0)).toThrow();
    expect(() => at([['Float64Array', 4, 1, [['k', 'x']]]])(0)).toThrow();
    expect(() => at([['Float64Array', 4, 1, [['k', 1]]]])(1)).toThrow();
    expect(() => at([['Nope' as ArrayKind, 4, 2, [['k', 0], ['k', 0]]]])(0)).toThrow();
    expect(Array.from(at([['Int32Array', 4, 1, [['n', 'Uint8Array', 0, 3, []]]]])(0))).toEqual([3, 3, 3, 3]);
  });
});

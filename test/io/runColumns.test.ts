/**
 * Per-run results kept as columns (src/replay/runColumns.ts, what `replay` keeps instead of an object per
 * run): every row comes back as added — the same keys in the same order, numbers to the bit (−0, NaN),
 * strings, booleans, undefined, empty arrays, objects the same objects — whatever the mix of shapes (seeded).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RowColumns, rowList } from '../../src/replay/runColumns.js';

const shared = { model: 'gpt-4o', prices: [1, 2] };
const valueArb = fc.oneof(
  fc.double(),
  fc.integer(),
  fc.constantFrom(-0, NaN, Infinity, 2 ** 53),
  fc.string({ maxLength: 8 }),
  fc.constantFrom('completed', 'max_steps'),
  fc.boolean(),
  fc.constant(undefined),
  fc.constant([]),
  fc.constant(shared),
  fc.array(fc.string(), { minLength: 1, maxLength: 3 }),
  fc.record({ computedPico: fc.nat(), recordedPico: fc.nat() }),
);
const rowArb = fc.dictionary(fc.constantFrom('source', 'steps', 'costPico', 'cache', 'rows', 'pricing', 'notes', 'task', 'x'), valueArb);

describe('rows kept as columns', () => {
  it('give every row back as added (seeded)', () => {
    fc.assert(
      fc.property(fc.array(rowArb, { maxLength: 700 }), (rows) => {
        const columns = new RowColumns<Record<string, unknown>>();
        const indices = rows.map((row) => columns.add(row));
        expect(columns.length).toBe(rows.length);
        rows.forEach((row, i) => {
          const back = columns.at(indices[i]!);
          expect(Object.keys(back)).toEqual(Object.keys(row));
          for (const [key, value] of Object.entries(row)) {
            if (typeof value === 'object' && value !== null && !(Array.isArray(value) && value.length === 0)) expect(back[key]).toBe(value);
            else expect(Object.is(back[key], value) || (Array.isArray(value) && Array.isArray(back[key]) && (back[key] as unknown[]).length === 0), key).toBe(true);
          }
        });
        const odd = indices.filter((i) => i % 2 === 1);
        const list = rowList(columns, odd, [{ extra: 1 }]);
        expect(list.length).toBe(odd.length + 1);
        expect([...list]).toEqual([...odd.map((i) => rows[i]), { extra: 1 }]);
      }),
      { numRuns: 200, seed: 7710 },
    );
  });
});

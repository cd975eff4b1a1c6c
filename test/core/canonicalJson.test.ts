/**
 * canonicalJson (src/brakes/fingerprint.ts), built in one pass, against the plain definition it replaced
 * (keys filtered, sorted, mapped, joined): the same string for random JSON values, keys in any order,
 * integer-like keys, undefined values.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/brakes/fingerprint.js';

function reference(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(reference).join(',')}]`;
  const record = value as Record<string, unknown>;
  const entries = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${reference(record[key])}`);
  return `{${entries.join(',')}}`;
}

const keyArb = fc.oneof(fc.string({ maxLength: 4 }), fc.constantFrom('9', '10', '01', 'a', 'B', 'é', '\u{1F600}', '__proto__'));
const valueArb: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, fc.jsonValue({ maxDepth: 2 }), fc.constant(undefined), fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(keyArb, tie('value'), { maxKeys: 4 })),
})).value;

describe('canonicalJson', () => {
  it('equals the plain definition on random values', () => {
    fc.assert(
      fc.property(valueArb, (value) => {
        expect(canonicalJson(value)).toBe(reference(value));
      }),
      { numRuns: 3000, seed: 7730 },
    );
  });
});

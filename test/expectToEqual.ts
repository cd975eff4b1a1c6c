import { isDeepStrictEqual } from 'node:util';
import { expect } from 'vitest';

/**
 * `expect(actual, message).toEqual(expected)` for large values (the runs a file reads, their calls): Node's
 * isDeepStrictEqual first, which is at least as strict as toEqual (prototypes, properties left undefined,
 * array holes, numbers by Object.is) and several times faster; toEqual runs, for its verdict and its
 * message, only where that says no. Comparing 60 runs field by field through toEqual, dozens of times, was
 * a good part of a test's CPU.
 */
export function expectToEqual(actual: unknown, expected: unknown, message?: string): void {
  if (!isDeepStrictEqual(actual, expected)) expect(actual, message).toEqual(expected);
}

/**
 * Whether two compiled traces (src/fast/layout.ts CompiledTrace) are equal, in plain JavaScript: the same
 * keys in the same order (plain objects and arrays only: any other object is "not the same"), the same
 * typed-array kinds and lengths, every number Object.is-equal (NaN = NaN, 0 ≠ −0, as toEqual compares
 * numbers). At least as strict as toEqual, so a caller asserts with toEqual only where this says no (for
 * its message): toEqual over thousands of compiled traces, number by number, was most of a test's time.
 */
export function sameCompiled(actual: unknown, expected: unknown): boolean {
  if (ArrayBuffer.isView(expected)) {
    if (!ArrayBuffer.isView(actual) || actual.constructor !== expected.constructor) return false;
    const a = actual as unknown as ArrayLike<number>;
    const e = expected as unknown as ArrayLike<number>;
    if (a.length !== e.length) return false;
    for (let i = 0; i < e.length; i++) if (!Object.is(a[i], e[i])) return false;
    return true;
  }
  if (expected !== null && typeof expected === 'object') {
    // Plain objects and arrays only (a Map's entries are no keys): anything else is left to toEqual.
    const proto = Object.getPrototypeOf(expected) as unknown;
    if (proto !== Object.prototype && proto !== Array.prototype) return false;
    if (actual === null || typeof actual !== 'object' || Object.getPrototypeOf(actual) !== proto) return false;
    const keys = Object.keys(expected);
    const actualKeys = Object.keys(actual);
    if (keys.length !== actualKeys.length || keys.some((key, i) => actualKeys[i] !== key)) return false;
    return keys.every((key) => sameCompiled((actual as Record<string, unknown>)[key], (expected as Record<string, unknown>)[key]));
  }
  return Object.is(actual, expected);
}

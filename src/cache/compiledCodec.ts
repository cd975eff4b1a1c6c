/**
 * A value made of typed arrays, numbers, booleans, strings, null and plain objects and arrays of those (a
 * compiled trace, src/fast/layout.ts), as a JSON-able description plus its typed arrays, and back. The
 * codec walks the value: it names no field, so a compiled trace whose layout changes is stored the same
 * way. Numbers JSON cannot hold (NaN, ±Infinity, −0) and undefined are tagged. How the typed arrays
 * are stored is columnProgram.ts's business.
 */

export const ARRAY_KINDS = {
  Float64Array,
  Float32Array,
  Int32Array,
  Uint32Array,
  Int16Array,
  Uint16Array,
  Int8Array,
  Uint8Array,
} as const;

export type ArrayKind = keyof typeof ARRAY_KINDS;
export type StoredArray = InstanceType<(typeof ARRAY_KINDS)[ArrayKind]>;

/** One typed array of a description and its kind. */
export interface ArrayEntry {
  kind: ArrayKind;
  data: StoredArray;
}

/** Thrown for a value the codec cannot describe (a Map, a function, a bigint): such a value is not cached. */
export class NotStorable extends Error {}

function kindOf(array: ArrayBufferView): ArrayKind {
  const name = array.constructor.name;
  if (!(name in ARRAY_KINDS)) throw new NotStorable(`${name} is not a stored array kind`);
  return name as ArrayKind;
}

/** `value` as a JSON-able description, its typed arrays appended to `arrays` (referred to by index). */
export function describeValue(value: unknown, arrays: ArrayEntry[]): unknown {
  if (ArrayBuffer.isView(value)) {
    arrays.push({ kind: kindOf(value), data: value as StoredArray });
    return { $a: arrays.length - 1 };
  }
  if (typeof value === 'number') return Number.isFinite(value) && !Object.is(value, -0) ? value : { $n: Object.is(value, -0) ? '-0' : String(value) };
  if (value === undefined) return { $n: 'undefined' };
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (Array.isArray(value)) return value.map((item) => describeValue(item, arrays));
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (key.startsWith('$')) throw new NotStorable(`field ${key}`);
      out[key] = describeValue(item, arrays);
    }
    return out;
  }
  throw new NotStorable(typeof value);
}

const SPECIAL_NUMBERS: Record<string, number | undefined> = { NaN, Infinity, '-Infinity': -Infinity, '-0': -0, undefined };

/**
 * The value a description stands for; `arrayAt(i)` gives its i-th typed array. Objects are filled in
 * the description's key order; `into`, when given, is the top-level object to fill (a template with the
 * same keys in the same order, so the value has the shape a fresh one has).
 */
export function valueOf(description: unknown, arrayAt: (index: number) => StoredArray, into?: Record<string, unknown>): unknown {
  if (description === null || typeof description !== 'object') return description;
  if (Array.isArray(description)) return description.map((item) => valueOf(item, arrayAt));
  const tagged = description as { $a?: number; $n?: string };
  if (tagged.$a !== undefined) return arrayAt(tagged.$a);
  if (tagged.$n !== undefined) {
    if (!(tagged.$n in SPECIAL_NUMBERS)) throw new Error(`unknown number ${tagged.$n}`);
    return SPECIAL_NUMBERS[tagged.$n];
  }
  const out = into ?? {};
  for (const [key, item] of Object.entries(description)) out[key] = valueOf(item, arrayAt);
  return out;
}

/** The value of a description that holds no array (a column's constant). */
export function constantValueOf(description: unknown): unknown {
  return valueOf(description, () => {
    throw new Error('a constant holds no array');
  });
}

/** `bytes` rounded up to a multiple of 8: where an array of any kind may start in a buffer. */
export const pad8 = (bytes: number): number => (bytes + 7) & ~7;

/** The field names and array kinds of a value, in order: what a stored value must match to be read into it. */
export function shapeOf(value: unknown): string {
  if (ArrayBuffer.isView(value)) return kindOf(value);
  if (Array.isArray(value)) return 'array';
  if (value === null || typeof value !== 'object') return typeof value;
  return `{${Object.entries(value)
    .map(([key, item]) => `${key}:${item === null || (typeof item === 'object' && !ArrayBuffer.isView(item) && !Array.isArray(item)) ? 'object' : shapeOf(item)}`)
    .join(',')}}`;
}

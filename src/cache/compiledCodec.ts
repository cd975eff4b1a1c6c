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

/** The value a description stands for; `arrayAt(i)` gives its i-th typed array. Objects are filled in the description's key order. */
export function valueOf(description: unknown, arrayAt: (index: number) => StoredArray): unknown {
  if (description === null || typeof description !== 'object') return description;
  if (Array.isArray(description)) return description.map((item) => valueOf(item, arrayAt));
  const tagged = description as { $a?: number; $n?: string };
  if (tagged.$a !== undefined) return arrayAt(tagged.$a);
  if (tagged.$n !== undefined) {
    if (!(tagged.$n in SPECIAL_NUMBERS)) throw new Error(`unknown number ${tagged.$n}`);
    return SPECIAL_NUMBERS[tagged.$n];
  }
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(description)) out[key] = valueOf(item, arrayAt);
  return out;
}

/** A leaf of a template: anything but a typed array or an object, or an array of such (a trace's tool names, a refusal's numbers). */
const isLeaf = (value: unknown): boolean => value === null || typeof value !== 'object' || (Array.isArray(value) && value.every((item) => item === null || typeof item !== 'object'));

/**
 * `value` as a template and its leaves: the template is its description (describeValue) with every leaf
 * (isLeaf) as 0 and every typed array as `{$a, $k}` (its index and kind), the leaves their descriptions in
 * order. Runs of one layout share a template (fitsTemplate); an entry keeps each once and a run's leaves
 * beside it (joinValue).
 */
export function splitValue(value: unknown, arrays: ArrayEntry[], leaves: unknown[]): unknown {
  if (isLeaf(value)) {
    leaves.push(describeValue(value, arrays));
    return 0;
  }
  if (ArrayBuffer.isView(value)) {
    const kind = kindOf(value);
    arrays.push({ kind, data: value as StoredArray });
    return { $a: arrays.length - 1, $k: kind };
  }
  if (Array.isArray(value)) return value.map((item) => splitValue(item, arrays, leaves));
  if (Object.getPrototypeOf(value) !== Object.prototype) throw new NotStorable(typeof value);
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as object)) {
    if (key.startsWith('$')) throw new NotStorable(`field ${key}`);
    out[key] = splitValue(item, arrays, leaves);
  }
  return out;
}

/**
 * Whether `value` splits into `template` (splitValue); if so, its arrays and leaves are appended to
 * `arrays` and `leaves` (when not, part of them may be: the caller starts again). Walks the value as
 * splitValue does, without making a template.
 */
export function fitsTemplate(value: unknown, template: unknown, arrays: ArrayEntry[], leaves: unknown[]): boolean {
  if (template === null || typeof template !== 'object') {
    if (value !== null && typeof value === 'object' && !isLeaf(value)) return false;
    leaves.push(describeValue(value, arrays));
    return true;
  }
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(template)) return Array.isArray(value) && !isLeaf(value) && value.length === template.length && template.every((item, i) => fitsTemplate(value[i], item, arrays, leaves));
  const tagged = template as { $a?: number; $k?: ArrayKind };
  if (tagged.$a !== undefined) {
    if (value.constructor !== ARRAY_KINDS[tagged.$k!] || tagged.$a !== arrays.length) return false;
    arrays.push({ kind: tagged.$k!, data: value as StoredArray });
    return true;
  }
  if (ArrayBuffer.isView(value) || Array.isArray(value) || Object.getPrototypeOf(value) !== Object.prototype) return false;
  const fields = fieldsOf(template);
  const own = Object.keys(value);
  if (own.length !== fields.length) return false;
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i]!;
    if (own[i] !== field.key) return false;
    const item = (value as Record<string, unknown>)[field.key];
    if (field.kind === undefined) {
      if (!fitsTemplate(item, field.template, arrays, leaves)) return false;
    } else if (field.kind === 'leaf') {
      // A number JSON holds as it is, else as describeValue describes it.
      if (typeof item === 'number' && item - item === 0 && (item !== 0 || 1 / item > 0)) leaves.push(item);
      else if (!fitsTemplate(item, 0, arrays, leaves)) return false;
    } else {
      if (item === null || item === undefined || (item as object).constructor !== ARRAY_KINDS[field.kind] || field.index !== arrays.length) return false;
      arrays.push({ kind: field.kind, data: item as StoredArray });
    }
  }
  return true;
}

/** A field of a template object: its key, and whether it is a leaf, a typed array (its kind and index) or else (`template`). */
interface TemplateField {
  key: string;
  kind: ArrayKind | 'leaf' | undefined;
  index: number;
  template: unknown;
}

const templateFields = new WeakMap<object, TemplateField[]>();

/** A template object's fields, listed once. */
function fieldsOf(template: object): TemplateField[] {
  let fields = templateFields.get(template);
  if (fields === undefined) {
    fields = Object.entries(template).map(([key, item]): TemplateField => {
      if (item === null || typeof item !== 'object') return { key, kind: 'leaf', index: -1, template: item };
      const tagged = item as { $a?: number; $k?: ArrayKind };
      return tagged.$a !== undefined && tagged.$k !== undefined && tagged.$k in ARRAY_KINDS ? { key, kind: tagged.$k, index: tagged.$a, template: item } : { key, kind: undefined, index: -1, template: item };
    });
    templateFields.set(template, fields);
  }
  return fields;
}

/**
 * The value of a template and its leaves (splitValue), filled as valueOf fills a description; `into`, when
 * given, is the top-level object to fill (with the template's keys in the same order, so the value has the
 * shape a fresh one has). Throws unless every leaf is used.
 */
export function joinValue(template: unknown, leaves: readonly unknown[], arrayAt: (index: number) => StoredArray, into?: Record<string, unknown>): unknown {
  let next = 0;
  const leaf = (): unknown => {
    if (next >= leaves.length) throw new Error('too few leaves');
    return constantValueOf(leaves[next++]);
  };
  const fill = (node: unknown, out?: Record<string, unknown>): unknown => {
    if (node === null || typeof node !== 'object') return leaf();
    if (Array.isArray(node)) return node.map((item) => fill(item));
    const tagged = node as { $a?: number; $k?: string };
    if (tagged.$a !== undefined) {
      const array = arrayAt(tagged.$a);
      if (array.constructor.name !== tagged.$k) throw new Error('array of another kind');
      return array;
    }
    const target = out ?? {};
    for (const key in node) target[key] = fill((node as Record<string, unknown>)[key]);
    return target;
  };
  const value = fill(template, into);
  if (next !== leaves.length) throw new Error('too many leaves');
  return value;
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

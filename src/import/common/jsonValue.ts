/**
 * What a parsed JSON (or YAML) value is: the plain-object test every importer uses, and the short
 * description of a value that error messages quote ("got the string \"abc\"", "got an array").
 */

export type JsonObject = Record<string, unknown>;

/** A key/value object: not null, not an array, not binary data (a YAML `!!binary` scalar). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}

/** A value as an error message names it, e.g. `null`, `an array`, `the string "abc"`, `number 3`. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value instanceof Uint8Array) return 'binary data';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

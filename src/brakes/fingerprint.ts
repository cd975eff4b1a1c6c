import { MAX_ARGUMENTS_DEPTH, pathPastDepth } from '../io/limits.js';

/**
 * Action fingerprints: tool name + canonical JSON of the arguments, so `{"a":1,"b":2}` and
 * `{"b":2,"a":1}` are the same action. Arguments a model produced as a string that is itself JSON are
 * parsed first, so a stringified and an object form of one call also match.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    // JSON.stringify(undefined) is undefined: treat a missing value as null.
    return JSON.stringify(value ?? null);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  // Keys in code-unit order (Array.prototype.sort's), undefined values left out; built in one pass
  // (most arguments are small objects whose keys are already in order). Indexed loops and a scalar
  // written in place: a start runs this cold, in the interpreter, once per tool call.
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (!inOrder(keys)) keys.sort();
  else if (flatPlainObject(record, keys)) return JSON.stringify(record);
  let out = '{';
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const item = record[key];
    if (item === undefined) continue;
    if (out.length > 1) out += ',';
    out += JSON.stringify(key) + ':' + (item === null || typeof item !== 'object' ? JSON.stringify(item) : canonicalJson(item));
  }
  return out + '}';
}

function inOrder(keys: string[]): boolean {
  for (let i = 1; i < keys.length; i++) if (!(keys[i - 1]! < keys[i]!)) return false;
  return true;
}

/**
 * An object JSON.stringify writes exactly as canonicalJson does once its `keys` are in order: a plain object
 * (Object.prototype, no toJSON) whose values are all strings, numbers, booleans or null — the usual tool
 * arguments, written in one call as one flat string (the brakes intern it: a string built piece by piece costs
 * more to hash than to write).
 */
function flatPlainObject(record: Record<string, unknown>, keys: string[]): boolean {
  if (Object.getPrototypeOf(record) !== Object.prototype || typeof record.toJSON === 'function') return false;
  for (let i = 0; i < keys.length; i++) {
    const item = record[keys[i]!];
    if (item !== null && typeof item !== 'string' && typeof item !== 'number' && typeof item !== 'boolean') return false;
  }
  return true;
}

/**
 * String arguments that are JSON are read as it. A string nesting deeper than a recording's arguments may
 * (trace rules: MAX_ARGUMENTS_DEPTH) stays the string it is: its canonical JSON would recurse past the
 * stack, and the same spelling still makes the same fingerprint. Each level takes two characters, so a
 * short string is never walked for its depth.
 */
function normaliseArguments(args: unknown): unknown {
  if (typeof args !== 'string') return args;
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    return args;
  }
  if (args.length > 2 * MAX_ARGUMENTS_DEPTH && pathPastDepth(parsed, MAX_ARGUMENTS_DEPTH) !== undefined) return args;
  return parsed;
}

export function actionFingerprint(toolName: string, args: unknown): string {
  return `${toolName}\u0000${canonicalJson(normaliseArguments(args))}`;
}

/** Same-tool-same-error key: which tool failed and how, whatever spelling of arguments was tried. */
export function errorFingerprint(toolName: string, error: string): string {
  return `${toolName}\u0000${error}`;
}

/**
 * Interns fingerprints to small integers so brake state is arrays of counts, not string maps.
 * The table belongs to one run (or one batch of runs) and only grows.
 */
export class Interner {
  private readonly ids = new Map<string, number>();
  readonly keys: string[] = [];
  id(key: string): number {
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.keys.length;
      this.ids.set(key, id);
      this.keys.push(key);
    }
    return id;
  }
  get size(): number {
    return this.keys.length;
  }
}

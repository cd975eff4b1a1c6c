/**
 * Reads typed fields out of a provider request or response body. The first malformed field fails with a
 * UserError naming the file, the line and the full field path (the body's place in the record + the path
 * inside it), so that a wrong type never surfaces as a TypeError.
 */
import { RULES_HINT } from '../../trace/rules.js';
import { inputError } from '../common/issues.js';
import { describeValue, isJsonObject } from '../common/jsonValue.js';

/** Where a body sits in the input, for error messages. */
export interface Loc {
  file: string;
  /** 1-based line (JSONL line, or the YAML line of a cassette interaction). */
  line?: number;
  /** Path of the body inside the record, e.g. `response` or `interactions[3].response.parsed_body`. */
  base: string;
}

/** `base` + `path` as one field path (`a.b`, `a[0]`). */
export function joinPath(base: string, path: string): string {
  if (path === '') return base;
  if (base === '') return path;
  return path.startsWith('[') ? `${base}${path}` : `${base}.${path}`;
}

/**
 * Typed field reader of one body: each method returns the value when it has the expected type, else
 * throws the UserError (see `fail`). Paths are relative to the body (`usage.input_tokens`).
 */
export class Reader {
  constructor(readonly loc: Loc) {}

  field(path: string): string {
    return joinPath(this.loc.base, path);
  }

  fail(path: string, code: string, message: string, hint?: string): never {
    throw inputError({ file: this.loc.file, line: this.loc.line, field: this.field(path) }, code, message, hint);
  }

  object(value: unknown, path: string, what = 'an object'): Record<string, unknown> {
    if (!isJsonObject(value)) {
      if (value === undefined || value === null) this.fail(path, 'missing_field', `missing ${what}`, hintFor(path));
      this.fail(path, 'wrong_type', `expected ${what}, got ${describeValue(value)}`, hintFor(path));
    }
    return value;
  }

  optObject(value: unknown, path: string): Record<string, unknown> | undefined {
    if (value === undefined || value === null) return undefined;
    return this.object(value, path);
  }

  array(value: unknown, path: string): unknown[] {
    if (!Array.isArray(value)) {
      if (value === undefined || value === null) this.fail(path, 'missing_field', 'missing array', hintFor(path));
      this.fail(path, 'wrong_type', `expected an array, got ${describeValue(value)}`, hintFor(path));
    }
    return value;
  }

  optArray(value: unknown, path: string): unknown[] | undefined {
    if (value === undefined || value === null) return undefined;
    return this.array(value, path);
  }

  optString(value: unknown, path: string): string | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string') this.fail(path, 'wrong_type', `expected a string, got ${describeValue(value)}`);
    return value;
  }

  string(value: unknown, path: string): string {
    const s = this.optString(value, path);
    if (s === undefined) this.fail(path, 'missing_field', 'missing string', hintFor(path));
    return s;
  }

  /** The name of a tool call in a response: a non-empty string (a tool call with no name cannot be replayed). */
  toolName(value: unknown, path: string): string {
    const name = this.string(value, path);
    if (name.trim() === '') this.fail(path, 'missing_field', 'tool call without a name', 'was the response (or the stream it was reassembled from) cut?');
    return name;
  }

  /**
   * A token count or cost: a finite, non-negative number (token counts must be integers). One of another
   * type or sign is a damaged figure (RULES_HINT), not a missing usage block: the block holds it.
   */
  optCount(value: unknown, path: string, opts: { integer?: boolean } = {}): number | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'number' || !Number.isFinite(value)) this.fail(path, 'wrong_type', `expected a number, got ${describeValue(value)}`, RULES_HINT);
    if (value < 0) this.fail(path, 'negative_number', `expected a non-negative number, got ${value}`, RULES_HINT);
    if ((opts.integer ?? true) && !Number.isInteger(value)) {
      this.fail(path, 'wrong_type', `expected a whole number of tokens, got ${value}`);
    }
    return value;
  }

  count(value: unknown, path: string): number {
    const n = this.optCount(value, path);
    if (n === undefined) this.fail(path, 'missing_field', 'missing token count', hintFor(path));
    return n;
  }
}

/** The hint for a missing or malformed field, when its path says more (usage blocks). */
function hintFor(path: string): string | undefined {
  if (/usage/i.test(path)) {
    return 'the response must carry the provider usage block; record non-streaming responses, or streaming ones with usage enabled';
  }
  return undefined;
}

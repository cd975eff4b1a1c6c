/**
 * The checks JSON.parse does not make, run over the text before it is parsed, in one pass: nesting
 * deeper than MAX_NESTING_DEPTH (JSON.parse itself copes, but everything that walks the value later —
 * fingerprints, writing native output — would overflow the stack), and an object key given twice (JSON.parse
 * keeps the last silently; `{"outputTokens":-5,"outputTokens":40}` would pass as 40). Every JSON reader
 * calls `jsonTextProblem` (or `parseCheckedJson`) so the rule is the same for every format. Asked to
 * (`numbers`: the native trace reader, whose every number is a figure), also a number too large for a
 * double: JSON.parse reads `1e400` as Infinity, which no schema check can then name.
 */
import { shownName } from '../shownName.js';
import { MAX_NESTING_DEPTH } from './limits.js';

/** What to do about a key given twice in a JSON file (the price file, an http-exchanges line). */
export const DUPLICATE_KEY_HINT = 'keep the one you mean and delete the other: JSON readers keep only the last of a repeated key, silently';

export interface JsonTextProblem {
  code: 'too_deep' | 'duplicate_key' | 'too_large';
  /** Offset in the text where it is (the bracket past the limit, the repeated key, the number). */
  offset: number;
  /** Field path where it is, e.g. `toolCalls[0].arguments[0][0]…` (cut after a few levels). */
  field: string | undefined;
  message: string;
}

/** An open object (its keys so far: a list while short, a set past SET_FROM) or array. */
type Frame = { object: true; keys: string[] | Set<string>; key: string | undefined; expectKey: boolean } | { object: false; index: number };

const SET_FROM = 16;

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const COMMA = 44;
const SPACE = 32;
const NEWLINE = 10;
const TAB = 9;
const RETURN = 13;
const SHOWN_LEVELS = 8;
const MINUS = 45;
const ZERO = 48;
const NINE = 57;

/** What jsonTextProblem looks for besides nesting past `maxDepth` (default MAX_NESTING_DEPTH). */
export interface JsonTextChecks {
  maxDepth?: number;
  /** A key given twice in one object (default true). */
  duplicates?: boolean;
  /** A number too large for a double, which JSON.parse reads as ±Infinity (default false). */
  numbers?: boolean;
}

/** A literal JSON.parse reads as ±Infinity has an exponent or at least this many characters (309 digits). */
const SHORTEST_PLAIN_OVERFLOW = 309;

/** End offset (exclusive) of the number starting at `start`. */
function numberEnd(text: string, start: number): number {
  let end = start + 1;
  while (end < text.length && /[0-9eE.+-]/.test(text[end]!)) end++;
  return end;
}

/** The problem of a number literal that reads as ±Infinity, or undefined. */
function overflowingNumber(literal: string, offset: number, field: string | undefined): JsonTextProblem | undefined {
  if (literal.length < SHORTEST_PLAIN_OVERFLOW && !/[eE]/.test(literal)) return undefined;
  if (Number.isFinite(Number(literal))) return undefined;
  const shown = literal.length > 24 ? `${literal.slice(0, 12)}…${literal.slice(-8)} (${literal.length} characters)` : literal;
  return { code: 'too_large', offset, field, message: `is ${shown}, too large: past ±1.8e308 a number reads as ${literal.startsWith('-') ? '-' : ''}Infinity` };
}

/** End offset (exclusive) of the string starting at `start` (its opening quote); text.length if unterminated. */
function stringEnd(text: string, start: number): number {
  let quote = text.indexOf('"', start + 1);
  while (quote > 0) {
    let slashes = 0;
    for (let k = quote - 1; text.charCodeAt(k) === BACKSLASH; k--) slashes += 1;
    if (slashes % 2 === 0) return quote + 1;
    quote = text.indexOf('"', quote + 1);
  }
  return text.length;
}

function keyOf(text: string, start: number, end: number): string {
  const raw = text.slice(start + 1, end - 1);
  if (!raw.includes('\\')) return raw;
  try {
    return JSON.parse(text.slice(start, end)) as string;
  } catch {
    return raw;
  }
}

function pathOf(stack: readonly Frame[], levels: number): string | undefined {
  let path = '';
  const shown = Math.min(stack.length, levels);
  for (let i = 0; i < shown; i++) {
    const frame = stack[i]!;
    if (frame.object) {
      if (frame.key !== undefined) path = path === '' ? frame.key : `${path}.${frame.key}`;
    } else path = `${path}[${frame.index}]`;
  }
  if (stack.length > levels) path += '…';
  return path === '' ? undefined : path;
}

/**
 * The first nesting, duplicate-key or (when asked) too-large-number problem of a JSON text, or undefined.
 * The text need not be valid JSON (JSON.parse reports syntax errors after): the scan only follows
 * strings, brackets and, for `numbers`, number literals.
 */
export function jsonTextProblem(text: string, options: JsonTextChecks = {}): JsonTextProblem | undefined {
  const maxDepth = options.maxDepth ?? MAX_NESTING_DEPTH;
  const duplicates = options.duplicates ?? true;
  const numbers = options.numbers ?? false;
  const stack: Frame[] = [];
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === QUOTE) {
      const end = stringEnd(text, i);
      const top = stack[stack.length - 1];
      // Keys are followed when a problem is named by its field (duplicates, numbers).
      if ((duplicates || numbers) && top?.object && top.expectKey) {
        const key = keyOf(text, i, end);
        if (duplicates) {
          const seen = Array.isArray(top.keys) ? top.keys.includes(key) : top.keys.has(key);
          if (seen) {
            const field = pathOf([...stack.slice(0, -1), { ...top, key: shownName(key) }], SHOWN_LEVELS * 4);
            return { code: 'duplicate_key', offset: i, field, message: `key "${shownName(key)}" is given twice in the same object` };
          }
          if (!Array.isArray(top.keys)) top.keys.add(key);
          else if (top.keys.length < SET_FROM) top.keys.push(key);
          else top.keys = new Set([...top.keys, key]);
        }
        top.key = key;
        top.expectKey = false;
      }
      i = end - 1;
    } else if (numbers && (ch === MINUS || (ch >= ZERO && ch <= NINE))) {
      const end = numberEnd(text, i);
      const problem = overflowingNumber(text.slice(i, end), i, pathOf(stack, SHOWN_LEVELS * 4));
      if (problem) return problem;
      i = end - 1;
    } else if (ch === OPEN_BRACE || ch === OPEN_BRACKET) {
      if (stack.length >= maxDepth) {
        return { code: 'too_deep', offset: i, field: pathOf(stack, SHOWN_LEVELS), message: `nests deeper than ${maxDepth} levels of arrays and objects` };
      }
      stack.push(ch === OPEN_BRACE ? { object: true, keys: [], key: undefined, expectKey: true } : { object: false, index: 0 });
    } else if (ch === CLOSE_BRACE || ch === CLOSE_BRACKET) {
      stack.pop();
    } else if (ch === COMMA) {
      const top = stack[stack.length - 1];
      if (top?.object) top.expectKey = true;
      else if (top) top.index += 1;
    }
  }
  return undefined;
}

/**
 * True only when `text`, which JSON.parse turned into `parsed`, has none of the problems jsonTextProblem
 * looks for — the parsed value nests no deeper than the limit (its arrays and objects are the text's
 * brackets), the text names as many keys as the parsed value holds (a key given twice is one key once
 * parsed), and every number parsed is finite — without scanning the text character by character; false:
 * ask jsonTextProblem, which finds and words the problem (when asked to look for it).
 *
 * Keys are counted as the colons whose nearest character before, blanks skipped, is an unescaped `"`.
 * In valid JSON each key's colon is one (its closing quote, then blanks); the only other such colon sits
 * in a string that starts with blanks and a `:` (the quote is that string's opening quote), and no two
 * colons lead back to the same quote. So the count is never below the text's keys, which are never below
 * the parsed value's: the counts agree only when no key is given twice. Pretty-printed documents (`"a" :
 * 1`, blanks and ` :` inside strings) are counted like compact ones.
 */
export function surelyNoJsonTextProblem(text: string, parsed: unknown, maxDepth = MAX_NESTING_DEPTH): boolean {
  let keys = 0;
  for (let colon = text.indexOf(':'); colon >= 0; colon = text.indexOf(':', colon + 1)) {
    let quote = colon - 1;
    let ch = text.charCodeAt(quote);
    while (ch === SPACE || ch === NEWLINE || ch === TAB || ch === RETURN) ch = text.charCodeAt(--quote);
    if (ch !== QUOTE) continue;
    let slashes = 0;
    for (let k = quote - 1; text.charCodeAt(k) === BACKSLASH; k--) slashes++;
    if (slashes % 2 === 0) keys++;
  }
  walked.keys = 0;
  return walkWithin(parsed, 0, maxDepth) && walked.keys === keys;
}

const walked = { keys: 0 };

/**
 * Counts the keys of every object of a parsed value into `walked`; false as soon as an array or object sits
 * deeper than maxDepth, or a number is ±Infinity (`x - x` is 0 for every finite number only).
 */
function walkWithin(value: unknown, depth: number, maxDepth: number): boolean {
  if (value === null || typeof value !== 'object') return typeof value !== 'number' || value - value === 0;
  if (depth >= maxDepth) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!walkWithin(value[i], depth + 1, maxDepth)) return false;
    return true;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) {
    walked.keys++;
    if (!walkWithin(record[key], depth + 1, maxDepth)) return false;
  }
  return true;
}

/** jsonTextProblem of a text JSON.parse turned into `parsed`, the scan made only when the quick count cannot rule a problem out. */
export function parsedJsonTextProblem(text: string, parsed: unknown, checks: Omit<JsonTextChecks, 'maxDepth'> = {}): JsonTextProblem | undefined {
  return surelyNoJsonTextProblem(text, parsed) ? undefined : jsonTextProblem(text, checks);
}

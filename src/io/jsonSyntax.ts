/**
 * One rule for what a JSON syntax error says, whoever reads the text (a request body in serve, a price
 * file, a baseline, a merge shard, a JSON-document trace): where it is (line, column, the field open
 * there; V8 names a character position, or for an unexpected token only quotes the text around it),
 * why (V8's reason without its position or quoted excerpt, in either form), a bare NaN or Infinity said
 * to be no JSON number (what Python's json.dump writes for a float JSON cannot hold), and a text that
 * stops short said to end too early, and which of a reader's hints fits (syntaxHint). Pure; each caller
 * frames the words (a 400, an InputIssue).
 */
import { fieldPath } from '../fieldPath.js';
import { bareNonNumber, NON_NUMBER } from './bareNonNumber.js';

/** Where a JSON text breaks and what is wrong there. */
export interface JsonSyntaxPlace {
  /** Offset of the fault (of the sign of `-Infinity`); undefined when V8 names none and no bare NaN is found. */
  offset?: number;
  /** 1-based line and column of `offset`. */
  line?: number;
  column?: number;
  /** The field open at `offset` (`messages[0].content`); undefined at the top level. */
  field?: string;
  /** What is wrong, in words: `Expected ',' or '}' after property value`, `NaN is not a JSON number (…)`. */
  said: string;
  /** The bare `NaN`, `Infinity` or `-Infinity` that is the fault, if it is one. */
  nonNumber?: string;
  /** Whether the text stops before its value does (a copy cut short). */
  endsEarly: boolean;
}

/** 1-based line of a character offset in `text` (offsets past the end count as the last line). */
export function lineOfOffset(text: string, offset: number): number {
  let line = 1;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) if (text.charCodeAt(i) === 10) line += 1;
  return line;
}

/** 1-based column of a character offset in `text` (counted in UTF-16 units from the line's start). */
export function columnOfOffset(text: string, offset: number): number {
  const end = Math.min(offset, text.length);
  return end - (text.lastIndexOf('\n', end - 1) + 1) + 1;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * V8's message without the position it names (`in JSON at position 1000 (line 1 column 1001)`, `after JSON at
 * position 12` for a second value after the first) or the text
 * it quotes, whole (`, "{"a": }" is not valid JSON`) or cut (`, ..."ionRate": ,\n "b"... is not valid JSON`).
 */
function jsonErrorReason(error: unknown): string {
  return messageOf(error)
    .replace(/\s*\(line \d+ column \d+\)/, '')
    .replace(/ (in JSON )?at position \d+/, '')
    .replace(/, (\.\.\.)?"[\s\S]*"(\.\.\.)? is not valid JSON$/, '')
    .replace(/ is not valid JSON$/, '');
}

/** V8's `Unexpected token` message, which quotes up to 10 characters either side of the token instead of a position. */
const TOKEN_CONTEXT = /^Unexpected token '[\s\S]{1,2}', (\.\.\.)?"([\s\S]*)"(\.\.\.)? is not valid JSON$/;
const CONTEXT_CHARACTERS = 10;
/** Blanks put before a text V8 quotes whole (one under 21 characters), so that it quotes a context instead. */
const WHOLE_TEXT_PAD = ' '.repeat(2 * CONTEXT_CHARACTERS + 1);

/**
 * Offset of a JSON.parse syntax error in `text`: the position V8 reports, or for an unexpected token, where
 * the context it quotes sits (`..."mit": NaN,\n   "...`: 10 characters before the token). A short text V8
 * quotes whole is parsed again after blanks (JSON whitespace, which moves the fault by their count only),
 * so that V8 quotes a context. Undefined when neither tells.
 */
export function jsonErrorOffset(text: string, err: unknown): number | undefined {
  const message = messageOf(err);
  const position = /position (\d+)/.exec(message)?.[1];
  if (position !== undefined) return Number(position);
  const m = TOKEN_CONTEXT.exec(message);
  if (m === null) return undefined;
  const [, before, context = '', after] = m;
  if (before === undefined && after === undefined) return context === text ? wholeTextOffset(text) : undefined;
  if (before === undefined) return context.length - CONTEXT_CHARACTERS;
  const start = after === undefined ? text.length - context.length : text.indexOf(context);
  return start >= 0 && text.startsWith(context, start) ? start + CONTEXT_CHARACTERS : undefined;
}

function wholeTextOffset(text: string): number | undefined {
  const padded = WHOLE_TEXT_PAD + text;
  try {
    JSON.parse(padded);
  } catch (error) {
    const offset = jsonErrorOffset(padded, error);
    return offset === undefined || offset < WHOLE_TEXT_PAD.length ? undefined : offset - WHOLE_TEXT_PAD.length;
  }
  return undefined;
}


/**
 * The bare NaN or Infinity V8 stopped at, read at its offset only (not by scanning the text: a 30 MiB body
 * would wait seconds): V8 calls it an unexpected token, or for `-Infinity` stops at the I after the sign.
 */
function nonNumberAt(text: string, offset: number, message: string): { token: string; offset: number } | undefined {
  const signed = /^No number after minus sign/.test(message) && text[offset - 1] === '-';
  if (!signed && !/^Unexpected token/.test(message)) return undefined;
  const start = signed ? offset - 1 : offset;
  const token = NON_NUMBER.exec(text.slice(start, start + 10))?.[0];
  return token === undefined ? undefined : { token, offset: start };
}

/** Options of jsonSyntaxPlace. */
export interface JsonSyntaxWords {
  /** What the text is, for "the file ends too early": `file`, `body`, `document`. */
  noun: string;
}

/** `is not valid JSON at column 31: <said>`: the message of a place, as a file or line reader frames it. */
export function syntaxMessage(place: Pick<JsonSyntaxPlace, 'column' | 'said'>): string {
  return `is not valid JSON${place.column === undefined ? '' : ` at column ${place.column}`}: ${place.said}`;
}

/** What to do about a syntax error, by what it is: each reader's own words. */
export interface SyntaxHints {
  /** A bare NaN or Infinity (Python's json.dump writes them for a float JSON cannot hold). */
  nonNumber: string;
  /** A text cut short. */
  endsEarly: string;
  /** Any other fault. */
  other: string;
}

/** The hint of `place`, the one rule every reader picks it by: for a bare NaN or Infinity, else a text cut short, else another fault. */
export function syntaxHint(place: Pick<JsonSyntaxPlace, 'nonNumber' | 'endsEarly'>, hints: SyntaxHints): string {
  return place.nonNumber !== undefined ? hints.nonNumber : place.endsEarly ? hints.endsEarly : hints.other;
}

/**
 * Where a text JSON.parse refused with `error` breaks, and why, in words. V8 names no position only for a
 * text it calls by name (`"NaN" is not valid JSON`) or a message of an unknown form: then, and only then,
 * the text is searched for a bare NaN or Infinity.
 */
export function jsonSyntaxPlace(text: string, error: unknown, words: JsonSyntaxWords = { noun: 'text' }): JsonSyntaxPlace {
  const message = messageOf(error);
  const reported = jsonErrorOffset(text, error) ?? (/end of JSON input/i.test(message) ? text.length : undefined);
  const bare = reported === undefined ? bareNonNumber(text) : nonNumberAt(text, reported, message);
  const offset = bare?.offset ?? reported;
  const reason = jsonErrorReason(error);
  // Cut short: V8 says so, or places the fault past the text's last character (`{"a":4` is "Expected ',' or '}'" at its end).
  const endsEarly = bare === undefined && (/end of JSON input|Unterminated string/i.test(reason) || (offset !== undefined && offset >= text.trimEnd().length));
  const said = bare !== undefined
    ? `${bare.token} is not a JSON number (JSON has no NaN or Infinity)`
    : `${reason}${endsEarly ? ` (the ${words.noun} ends too early: it looks cut short)` : ''}`;
  const place: JsonSyntaxPlace = { said, endsEarly, ...(bare === undefined ? {} : { nonNumber: bare.token }) };
  if (offset === undefined) return place;
  const field = jsonPathAt(text, offset);
  return { ...place, offset, line: lineOfOffset(text, offset), column: columnOfOffset(text, offset), ...(field === undefined ? {} : { field }) };
}

/** An open object (the key read last, and whether a key comes next) or array (the index of its element) of a JSON text. */
type PathFrame = { kind: 'object'; key?: string; expectKey: boolean } | { kind: 'array'; index: number };

/**
 * Follows a JSON text's strings and brackets up to `end`, keeping the frames open there. `stop`, when given,
 * is asked where a value starts — after an object's `:`, an array's `[` or `,` — with the open frames, and
 * ends the scan there when it says so (`at`: the offset of that `:`, `[` or `,`).
 */
function scanFrames(text: string, end: number, stop?: (stack: readonly PathFrame[]) => boolean): { stack: PathFrame[]; at?: number } {
  const stack: PathFrame[] = [];
  let i = 0;
  while (i < end) {
    const ch = text[i]!;
    const top = stack[stack.length - 1];
    if (ch === '"') {
      let j = i + 1;
      while (j < end && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      if (j >= end) break; // cut inside a string: a half key is no field
      if (top?.kind === 'object' && top.expectKey) {
        try {
          top.key = JSON.parse(text.slice(i, j + 1)) as string;
        } catch {
          top.key = text.slice(i + 1, j);
        }
        top.expectKey = false;
      }
      i = j + 1;
      continue;
    }
    if (ch === '{') stack.push({ kind: 'object', expectKey: true });
    else if (ch === '[') stack.push({ kind: 'array', index: 0 });
    else if (ch === '}' || ch === ']') stack.pop();
    else if (ch === ',') {
      if (top?.kind === 'object') top.expectKey = true;
      else if (top?.kind === 'array') top.index += 1;
    }
    if (stop !== undefined && (ch === ':' || ch === '[' || (ch === ',' && top?.kind === 'array')) && stop(stack)) return { stack, at: i };
    i += 1;
  }
  return { stack };
}

/** The keys and indices that lead to the innermost open value: the outermost object is the record itself; each open frame contributes the key/index that leads into the next. */
function pathParts(stack: readonly PathFrame[]): (string | number)[] {
  const parts: (string | number)[] = [];
  for (const frame of stack) {
    if (frame.kind === 'array') parts.push(frame.index);
    else if (frame.key !== undefined && !frame.expectKey) parts.push(frame.key);
  }
  return parts;
}

/**
 * Path of the innermost value open at `pos` in a JSON text (e.g. `response.usage` for a line cut inside
 * the usage object), to name the field of a JSON syntax error: its keys and indices, written by fieldPath
 * (the one rule every reader names a field by). Undefined at the top level (or where the path writes as
 * nothing: under one empty key).
 */
export function jsonPathAt(text: string, pos: number): string | undefined {
  const path = fieldPath(pathParts(scanFrames(text, Math.min(pos, text.length)).stack));
  return path === '' ? undefined : path;
}

/**
 * Offset where the value of the field `path` (its keys and indices) starts in a JSON text, found by the scan
 * jsonPathAt makes: a reader that finds a value wrong after JSON.parse names its line (lineOfOffset) as a
 * syntax error's. Undefined when the text holds no such field.
 */
export function jsonFieldOffset(text: string, path: readonly (string | number)[]): number | undefined {
  const same = (stack: readonly PathFrame[]) => {
    const parts = pathParts(stack);
    return parts.length === path.length && parts.every((part, k) => part === path[k]);
  };
  const { at } = scanFrames(text, text.length, same);
  if (at === undefined) return undefined;
  const value = text.slice(at + 1).search(/\S/);
  return value < 0 ? text.length : at + 1 + value;
}

/**
 * Parsing JSON documents and locating their syntax errors: the line of an offset, the offset V8 reports,
 * and the field path open at it, so that a broken file fails with a UserError naming where.
 */
import { UserError, type InputIssue } from '../../errors.js';
import { parsedJsonTextProblem, type JsonTextProblem } from '../../io/jsonText.js';
import { bareNonNumber } from '../../trace/jsonLine.js';

/**
 * The document parsed last, handed to the next call on the same text: format detection parses a whole
 * document to tell what it is, then its importer parses the same text again (src/import/index.ts). Taken
 * by the next call whatever its text, so at most one document is held, and only between those two calls.
 */
let lastParsed: { content: string; value: unknown } | undefined;

/**
 * The document format detection parsed from `content` (plain JSON, already checked as parseJsonDocument
 * checks it), taken; undefined when none was handed over for this text.
 */
export function handedDocument(content: string): unknown {
  const handed = lastParsed;
  lastParsed = undefined;
  return handed !== undefined && handed.content === content ? handed.value : undefined;
}

/** JSON.parse with a UserError (line of the syntax error when V8 reports a position) instead of a SyntaxError. */
export function parseJsonDocument(content: string, path: string, what: string): unknown {
  const handed = handedDocument(content);
  if (handed !== undefined) return handed;
  const value = parseCheckedDocument(content, path, what);
  lastParsed = { content, value };
  return value;
}

function parseCheckedDocument(content: string, path: string, what: string): unknown {
  const text = content.charCodeAt(0) === 0xfeff ? content.slice(1) : content;
  if (text.trim() === '') {
    throw new UserError({
      file: path,
      code: 'empty_file',
      message: `the file is empty, expected a ${what} (one JSON document)`,
      hint: 'check that the right file was given and that it was fully written',
    });
  }
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    const offset = jsonErrorOffset(text, error);
    const bare = bareNonNumber(text);
    // `-Infinity`: V8 stops at the I after the sign.
    if (bare !== undefined && (offset === undefined || offset === bare.offset || offset === bare.offset + 1)) throw bareNonNumberError(bare, text, path, what);
    const message = error instanceof Error ? error.message : String(error);
    const line = offset === undefined ? undefined : lineOfOffset(text, offset);
    const truncated = /end of JSON input|Unterminated string/i.test(message);
    const issue: InputIssue = {
      file: path,
      code: 'invalid_json',
      message: `not valid JSON (${message})${truncated ? ': the document ends too early' : ''}`,
      hint: truncated
        ? `the ${what} looks truncated: copy or decompress it again, or wait until the agent has finished writing it`
        : `the ${what} must be one JSON document: fix the syntax at the line shown or export the run again`,
    };
    if (line !== undefined) issue.line = line;
    throw new UserError(issue);
  }
  const problem = parsedJsonTextProblem(text, value, { numbers: true });
  if (problem) throw jsonTextError(problem, text, path, `the ${what} must be plain JSON as its program writes it`);
  return value;
}

/**
 * A bare NaN or Infinity (what Python's json.dump writes for a float JSON has no word for) named at its line
 * and field, as a native line's is (src/trace/jsonLine.ts): V8 names no position for it.
 */
function bareNonNumberError(bare: { token: string; offset: number }, text: string, path: string, what: string): UserError {
  const field = jsonPathAt(text, bare.offset);
  return new UserError({
    file: path,
    line: lineOfOffset(text, bare.offset),
    ...(field === undefined ? {} : { field }),
    code: 'invalid_json',
    message: `is ${bare.token}, which is not a JSON number (JSON has no NaN or Infinity), so the file is not valid JSON`,
    hint: `write a number there, or export the run again (Python's json.dump writes NaN or Infinity for a float JSON cannot hold)`,
  });
}

/** A nesting or duplicate-key problem (src/io/jsonText.ts) as a UserError naming file, line and field. */
export function jsonTextError(problem: JsonTextProblem, text: string, path: string, hint: string, firstLine = 1): UserError {
  return new UserError({
    file: path,
    line: firstLine + lineOfOffset(text, problem.offset) - 1,
    ...(problem.field === undefined ? {} : { field: problem.field }),
    code: problem.code,
    message: problem.message,
    hint,
  });
}

/** 1-based line of a character offset in `text` (offsets past the end count as the last line). */
export function lineOfOffset(text: string, offset: number): number {
  let line = 1;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) if (text.charCodeAt(i) === 10) line += 1;
  return line;
}

/** The line of a JSON.parse syntax error in `text`, when V8 tells its position (every JSON file reader names it). */
export function jsonErrorLine(text: string, err: unknown): number | undefined {
  const offset = jsonErrorOffset(text, err);
  return offset !== undefined ? lineOfOffset(text, offset) : undefined;
}

/** Position of a JSON.parse error in `text` (end of text for "Unexpected end of JSON input"). */
export function jsonErrorPosition(text: string, err: unknown): number {
  return jsonErrorOffset(text, err) ?? text.length;
}

/** V8's `Unexpected token` message, which quotes up to 10 characters either side of the token instead of a position. */
const TOKEN_CONTEXT = /^Unexpected token '[\s\S]{1,2}', (\.\.\.)?"([\s\S]*)"(\.\.\.)? is not valid JSON$/;
const CONTEXT_CHARACTERS = 10;

/**
 * Offset of a JSON.parse syntax error in `text`: the position V8 reports, or for an unexpected token, where
 * the context it quotes sits (`..."mit": NaN,\n   "...`: 10 characters before the token); undefined when
 * neither tells (a short text V8 quotes whole).
 */
export function jsonErrorOffset(text: string, err: unknown): number | undefined {
  const message = err instanceof Error ? err.message : '';
  const position = /position (\d+)/.exec(message)?.[1];
  if (position !== undefined) return Number(position);
  const m = TOKEN_CONTEXT.exec(message);
  if (m === null) return undefined;
  const [, before, context = '', after] = m;
  if (before === undefined) return after === undefined ? undefined : context.length - CONTEXT_CHARACTERS;
  const start = after === undefined ? text.length - context.length : text.indexOf(context);
  return start >= 0 && text.startsWith(context, start) ? start + CONTEXT_CHARACTERS : undefined;
}

/**
 * Dotted path of the innermost value open at `pos` in a JSON text (e.g. `response.usage` for a line cut
 * inside the usage object), to name the field of a JSON syntax error. Undefined at the top level.
 */
export function jsonPathAt(text: string, pos: number): string | undefined {
  type Frame = { kind: 'object'; key?: string; expectKey: boolean } | { kind: 'array'; index: number };
  const stack: Frame[] = [];
  let i = 0;
  const end = Math.min(pos, text.length);
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
    i += 1;
  }
  let path = '';
  // The outermost object is the record itself; each open frame contributes the key/index that leads into the next.
  for (let k = 0; k < stack.length; k++) {
    const frame = stack[k]!;
    if (frame.kind === 'object') {
      if (frame.key !== undefined && !frame.expectKey) path = path === '' ? frame.key : `${path}.${frame.key}`;
    } else {
      path = `${path}[${frame.index}]`;
    }
  }
  return path === '' ? undefined : path;
}

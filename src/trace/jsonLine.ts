/**
 * What a native line that is not JSON is told: a bare NaN or Infinity (what Python's json.dumps writes
 * for a float it cannot write) is named as such, with its field; a line that stops short is asked whether
 * the file was truncated; any other, only that it is not one JSON object. A line found bad for what its
 * JSON holds quotes its numbers as written (numbersAsWritten).
 */
import type { InputIssue } from '../errors.js';
import { valueAt } from '../zodWords.js';

/** `NaN`, `Infinity`, `-Infinity` written as a JSON value, its offset, and the key it is the value of (none in a list). */
export function bareNonNumber(text: string): { token: string; offset: number; field?: string } | undefined {
  let lastString: string | undefined;
  let before = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '"') {
      const end = stringEnd(text, i);
      lastString = text.slice(i + 1, end);
      before = '"';
      i = end;
      continue;
    }
    if (/\s/.test(ch)) continue;
    const token = ':[,'.includes(before) ? NON_NUMBER.exec(text.slice(i))?.[0] : undefined;
    if (token !== undefined) return before === ':' && lastString !== undefined ? { token, offset: i, field: lastString } : { token, offset: i };
    before = ch;
  }
  return undefined;
}

const NON_NUMBER = /^[-+]?(NaN|Infinity)(?![\w$])/;

/** The index of the quote that closes the string opened at `start` (the text's end when none does). */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return text.length;
}

/** Whether JSON.parse's complaint is about the line ending before its object did (a truncated file). */
function endsEarly(message: string, text: string): boolean {
  if (/end of JSON input|Unterminated string/i.test(message)) return true;
  const position = /at position (\d+)/.exec(message)?.[1];
  return position !== undefined && Number(position) >= text.length;
}

/** The issue of a native line JSON.parse refused with `error`. */
export function invalidJsonIssue(error: Error, text: string, at: { file: string; line: number }): InputIssue {
  const bare = bareNonNumber(text);
  if (bare !== undefined) {
    return {
      ...at,
      ...(bare.field === undefined ? {} : { field: bare.field }),
      code: 'invalid_json',
      message: `is ${bare.token}, which is not a JSON number (JSON has no NaN or Infinity), so the line is not valid JSON`,
      hint: 'write the figure as a number, or leave an optional field out when it is not known; see docs/trace-format.md',
    };
  }
  const hint = endsEarly(error.message, text) ? 'each line must be one complete JSON object; was the file truncated?' : 'each line must be one complete JSON object; see docs/trace-format.md';
  return { ...at, code: 'invalid_json', message: `not valid JSON (${error.message})`, hint };
}

/** A string, or a number literal, of a JSON text (a number is found only outside strings, where the other alternative does not match). */
const STRING_OR_NUMBER = /"(?:[^"\\]|\\.)*"|-?\d[\d.eE+-]*/g;

/** Where a number is: a field as issues name it (`toolCalls[0].resultTokens`) or a path (`['toolCalls', 0, 'resultTokens']`). */
export type NumberPlace = string | readonly PropertyKey[];

/**
 * How the numbers of a valid JSON line are written (`9007199254740993`, which JSON.parse reads as
 * 9007199254740992; `1e305`, which String() gives as `1e+305`), for a message to quote the figure as the
 * line gave it. Only for a line found bad: the first look parses the line again, each number as a string
 * (a place that holds a string gives that string: ask only where a number is).
 */
export function numbersAsWritten(text: string): (place: NumberPlace) => string | undefined {
  let written: unknown;
  let parsed = false;
  return (place) => {
    if (!parsed) {
      parsed = true;
      try {
        written = JSON.parse(text.replace(STRING_OR_NUMBER, (token) => (token.startsWith('"') ? token : `"${token}"`)));
      } catch {
        written = undefined;
      }
    }
    const at = valueAt(written, typeof place === 'string' ? place.split(/[.[\]]+/).filter((part) => part !== '') : place);
    return typeof at === 'string' ? at : undefined;
  };
}

/**
 * What a native line that is not JSON is told: a bare NaN or Infinity (what Python's json.dumps writes
 * for a float it cannot write) is named as such, with its field; a line that stops short is asked whether
 * the file was truncated; any other, only that it is not one JSON object.
 */
import type { InputIssue } from '../errors.js';

/** `NaN`, `Infinity`, `-Infinity` written as a JSON value, and the key it is the value of (none in a list). */
export function bareNonNumber(text: string): { token: string; field?: string } | undefined {
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
    if (token !== undefined) return before === ':' && lastString !== undefined ? { token, field: lastString } : { token };
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

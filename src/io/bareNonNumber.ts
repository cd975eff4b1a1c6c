/**
 * A bare NaN or Infinity (what Python's json.dump writes for a float JSON cannot hold) found by reading a
 * whole JSON text: src/io/jsonSyntax.ts asks only when V8 names no position (a text it calls by name,
 * `"NaN" is not valid JSON`), since the scan costs time on a large text. Pure.
 */

/** A bare NaN, Infinity or signed Infinity at the start of a text (not a longer name such as NaNs). */
export const NON_NUMBER = /^[-+]?(NaN|Infinity)(?![\w$])/;

/** `NaN`, `Infinity`, `-Infinity` written as a JSON value (after `:`, `[` or `,`, outside strings), and its offset. */
export function bareNonNumber(text: string): { token: string; offset: number } | undefined {
  let before = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '"') {
      i = stringEnd(text, i);
      before = '"';
      continue;
    }
    if (/\s/.test(ch)) continue;
    const token = ':[,'.includes(before) ? NON_NUMBER.exec(text.slice(i))?.[0] : undefined;
    if (token !== undefined) return { token, offset: i };
    before = ch;
  }
  return undefined;
}

/** The index of the quote that closes the string opened at `start` (the text's end when none does). */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return text.length;
}

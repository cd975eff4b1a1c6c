/**
 * What a native line that is not JSON is told, by the one rule for a JSON syntax error (src/io/jsonSyntax.ts):
 * the column and the field where it breaks and why, a bare NaN or Infinity (what Python's json.dumps writes
 * for a float it cannot write) named as no JSON number; a line that stops short is asked whether the file
 * was truncated. A line found bad for what its JSON holds quotes its numbers as written (numbersAsWritten).
 */
import type { InputIssue } from '../errors.js';
import { jsonSyntaxPlace, syntaxHint, syntaxMessage, type SyntaxHints } from '../io/jsonSyntax.js';
import { valueAt } from '../zodWords.js';

const LINE_HINTS: SyntaxHints = {
  nonNumber: 'write the figure as a number, or leave an optional field out when it is not known; see docs/trace-format.md',
  endsEarly: 'each line must be one complete JSON object; was the file truncated?',
  other: 'each line must be one complete JSON object; see docs/trace-format.md',
};

/**
 * The issue of a native line JSON.parse refused with `error`: `is not valid JSON at column 31: <why>`, with
 * the field open there; one cut short (io/jsonSyntax.ts endsEarly) asks whether the file was truncated.
 */
export function invalidJsonIssue(error: Error, text: string, at: { file: string; line: number }): InputIssue {
  const place = jsonSyntaxPlace(text, error, { noun: 'line' });
  return {
    ...at,
    ...(place.field === undefined ? {} : { field: place.field }),
    code: 'invalid_json',
    message: syntaxMessage(place),
    hint: syntaxHint(place, LINE_HINTS),
  };
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

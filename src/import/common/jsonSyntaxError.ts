/**
 * The one rule for a JSON syntax error (src/io/jsonSyntax.ts) as the import readers frame it: a text of
 * the file (a whole document, or one JSONL line) is named at the file's line, its column and the field open
 * there; a text held inside the file (a cassette body string, an event-stream payload) is named at its own
 * line and column, said to be its own (`at column 45 of the body`), since the file's line holds more than
 * it, or, when its lines are lines of the text around it (an SSE event's data in the body), at the column
 * of that line the caller names. Never V8's raw message or its quoted excerpt. Pure.
 */
import { UserError } from '../../errors.js';
import { jsonSyntaxPlace, syntaxHint, syntaxMessage, type JsonSyntaxPlace, type SyntaxHints } from '../../io/jsonSyntax.js';

/** What to do about a bare NaN or Infinity: write a number, or `again` (`export the spans again`). */
export function nonNumberHint(again: string): string {
  return `write a number there, or ${again}: Python's json.dump writes NaN or Infinity for a float JSON cannot hold`;
}

/** A text of the file JSON.parse refused: where it starts and how it is told. */
export interface FileTextAt {
  file: string;
  /** The file's line the text starts on (1 for a whole document, the line's number for a JSONL line). */
  firstLine: number;
  /**
   * What the text is, for "ends too early": the whole `file` (or `document`), or one `line` of it. A line is
   * always named at its line; a whole file at the line of the fault, left out when JSON.parse names no place.
   */
  noun: 'file' | 'document' | 'line';
  /** Put before `is not valid JSON` (`line `), when the message names its subject. */
  subject?: string;
  hints: SyntaxHints;
}

/** The file's line of the fault: a JSONL line's own when JSON.parse names no place, none for a whole file then. */
function lineOf(place: JsonSyntaxPlace, at: FileTextAt): number | undefined {
  if (place.line !== undefined) return at.firstLine + place.line - 1;
  return at.noun === 'line' ? at.firstLine : undefined;
}

/**
 * The UserError of a text of the file JSON.parse refused with `error`: the file's line of the fault, the
 * field open there, `is not valid JSON at column 31: <why>` and what to do.
 */
export function fileTextSyntaxError(text: string, error: unknown, at: FileTextAt): UserError {
  const place = jsonSyntaxPlace(text, error, { noun: at.noun });
  const line = lineOf(place, at);
  return new UserError({
    file: at.file,
    ...(line === undefined ? {} : { line }),
    ...(place.field === undefined ? {} : { field: place.field }),
    code: 'invalid_json',
    message: `${at.subject ?? ''}${syntaxMessage(place)}`,
    hint: syntaxHint(place, at.hints),
  });
}

/**
 * Where a text held inside the file sits in a text around it whose line the caller names (an SSE event's
 * data lines, each a line of the body): the column is that line's, `columnOffset` characters past the
 * text's own.
 */
export interface EnclosingLine {
  columnOffset: number;
}

/** ` at line 2, column 5 of the body`, ` at column 5 of the body`, or in an enclosing line ` at column 11`. */
function embeddedWhere(text: string, place: JsonSyntaxPlace, noun: string, enclosing?: EnclosingLine): string {
  if (place.column === undefined) return '';
  if (enclosing !== undefined) return ` at column ${enclosing.columnOffset + place.column}`;
  return text.includes('\n') ? ` at line ${place.line}, column ${place.column} of the ${noun}` : ` at column ${place.column} of the ${noun}`;
}

/**
 * `is not valid JSON at line 2, column 5 of the body (usage): <why>` of a text held inside the file (a
 * body, a payload): its own line and column (the line left out of a text of one line), the field open there;
 * with `enclosing`, the column of the line around it the caller names (`at column 11 (usage)`).
 */
export function embeddedSyntaxMessage(text: string, place: JsonSyntaxPlace, noun: string, enclosing?: EnclosingLine): string {
  return `is not valid JSON${embeddedWhere(text, place, noun, enclosing)}${place.field === undefined ? '' : ` (${place.field})`}: ${place.said}`;
}

/** Where and why a text held inside the file JSON.parse refused with `error` breaks, and the message saying so. */
export function embeddedSyntax(text: string, error: unknown, noun: string): { place: JsonSyntaxPlace; message: string } {
  const place = jsonSyntaxPlace(text, error, { noun });
  return { place, message: embeddedSyntaxMessage(text, place, noun) };
}

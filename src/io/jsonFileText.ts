/**
 * One rule for a JSON file read whole (a merge shard, a check baseline, a price file): an empty file is
 * said to be empty, with what to pass instead; a syntax error is named at its line and column (V8 reports
 * a character position, which no one can find in a file) and the field open there. Pure: the caller
 * reads the file and throws (or collects) the issue.
 */
import type { InputIssue } from '../errors.js';
import { jsonSyntaxPlace, syntaxMessage } from './jsonSyntax.js';

export interface JsonFileWords {
  /** The file as shown in the issue. */
  file: string;
  /** What the file should be, e.g. `a check baseline` (after "expected"). */
  what: string;
  /** What to do about a file that is empty or not JSON, e.g. `write it with …`. */
  hint: string;
}

/** The issue of a JSON text that is empty (blanks only). */
function emptyIssue(words: JsonFileWords): InputIssue {
  return { file: words.file, code: 'empty_file', message: `is empty, expected ${words.what} (one JSON document)`, hint: words.hint };
}

/** The issue of a text JSON.parse refused with `error`: its line, column and field when V8 tells where. */
export function jsonSyntaxIssue(text: string, error: unknown, words: JsonFileWords): InputIssue {
  if (text.trim() === '') return emptyIssue(words);
  const place = jsonSyntaxPlace(text, error, { noun: 'file' });
  return {
    file: words.file,
    ...(place.line === undefined ? {} : { line: place.line }),
    ...(place.field === undefined ? {} : { field: place.field }),
    code: 'invalid_json',
    message: syntaxMessage(place),
    hint: words.hint,
  };
}

/** A JSON file's text parsed, or the issue saying why it is no JSON (empty, or a syntax error at line:column). */
export function parseJsonFileText(text: string, words: JsonFileWords): { value: unknown } | { issue: InputIssue } {
  if (text.trim() === '') return { issue: emptyIssue(words) };
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    return { issue: jsonSyntaxIssue(text, error, words) };
  }
}

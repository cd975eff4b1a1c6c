/**
 * One rule for a JSON file read whole (a merge shard, a check baseline, a price file): an empty file is
 * said to be empty, with what to pass instead; a syntax error is named at its line and column (V8 reports
 * a character position, which no one can find in a file) and the field open there. Pure: the caller
 * reads the file and throws (or collects) the issue.
 */
import type { InputIssue } from '../errors.js';
import { jsonErrorOffset, jsonPathAt, lineOfOffset } from '../import/common/jsonDocument.js';

export interface JsonFileWords {
  /** The file as shown in the issue. */
  file: string;
  /** What the file should be, e.g. `a check baseline` (after "expected"). */
  what: string;
  /** What to do about a file that is empty or not JSON, e.g. `write it with …`. */
  hint: string;
}

/** 1-based column of a character offset in `text` (counted in UTF-16 units from the line's start). */
export function columnOfOffset(text: string, offset: number): number {
  const end = Math.min(offset, text.length);
  return end - (text.lastIndexOf('\n', end - 1) + 1) + 1;
}

/** V8's message without the position it names (`in JSON at position 1000 (line 1 column 1001)`). */
export function jsonErrorReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message
    .replace(/\s*\(line \d+ column \d+\)/, '')
    .replace(/ in JSON at position \d+/, '')
    .replace(/, "[\s\S]*" is not valid JSON$/, '')
    .replace(/ is not valid JSON$/, '');
}

/** The issue of a JSON text that is empty (blanks only). */
function emptyIssue(words: JsonFileWords): InputIssue {
  return { file: words.file, code: 'empty_file', message: `is empty, expected ${words.what} (one JSON document)`, hint: words.hint };
}

/** The issue of a text JSON.parse refused with `error`: its line, column and field when V8 tells where. */
export function jsonSyntaxIssue(text: string, error: unknown, words: JsonFileWords): InputIssue {
  if (text.trim() === '') return emptyIssue(words);
  const offset = jsonErrorOffset(text, error);
  const reason = jsonErrorReason(error);
  const ends = /end of JSON input|Unterminated string/i.test(reason);
  const at = offset === undefined ? '' : ` at column ${columnOfOffset(text, offset)}`;
  const field = offset === undefined ? undefined : jsonPathAt(text, offset);
  return {
    file: words.file,
    ...(offset === undefined ? {} : { line: lineOfOffset(text, offset) }),
    ...(field === undefined ? {} : { field }),
    code: 'invalid_json',
    message: `is not valid JSON${at}: ${reason}${ends ? ' (the file ends too early: it looks cut short)' : ''}`,
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

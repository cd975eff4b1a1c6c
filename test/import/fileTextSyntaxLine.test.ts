/**
 * Where the import readers place a JSON syntax error in the file (src/import/common/jsonSyntaxError.ts,
 * jsonLines.ts): a whole file JSON.parse names no place in is named at no line (it was line 1, a place never
 * found), a JSONL line at its own; a log line's column counts its indent, not the `\r` a CRLF file keeps.
 */
import { describe, expect, it } from 'vitest';
import { fileTextSyntaxError, type FileTextAt } from '../../src/import/common/jsonSyntaxError.js';
import { JsonLineReader, LineIssues } from '../../src/import/common/jsonLines.js';

const HINTS = { nonNumber: 'a number', endsEarly: 'cut', other: 'fix it' };
/** A JSON.parse message naming no position and quoting no text (another engine's, a form V8 may yet write). */
const NO_PLACE = new SyntaxError('JSON Parse error: something odd');

describe('fileTextSyntaxError: the line of a fault JSON.parse names no place for', () => {
  const at = (noun: FileTextAt['noun'], firstLine: number): FileTextAt => ({ file: 'spans.json', firstLine, noun, hints: HINTS });

  it('a whole file: no line (before: line 1), the message and hint as ever', () => {
    const text = '{\n  "resourceSpans": [\n    {}\n  ]\n}\n';
    const [issue] = fileTextSyntaxError(text, NO_PLACE, at('file', 1)).issues;
    expect(issue).toEqual({ file: 'spans.json', code: 'invalid_json', message: 'is not valid JSON: JSON Parse error: something odd', hint: 'fix it' });
  });

  it('a JSONL line: its own line', () => {
    expect(fileTextSyntaxError('{"resourceSpans": []}', NO_PLACE, { ...at('line', 7), subject: 'line ' }).issues[0]!.line).toBe(7);
  });

  it('a place V8 names: the file\'s line of it, for a whole file and a line alike', () => {
    const text = '{\n  "a": 1,\n  "b": }\n';
    let error: unknown;
    try {
      JSON.parse(text);
    } catch (e) {
      error = e;
    }
    expect(fileTextSyntaxError(text, error, at('file', 1)).issues[0]).toMatchObject({ line: 3, field: 'b', message: "is not valid JSON at column 8: Unexpected token '}'" });
    expect(fileTextSyntaxError('{"a": }', new SyntaxError("Unexpected token '}', \"{\"a\": }\" is not valid JSON"), at('line', 4)).issues[0]!.line).toBe(4);
  });
});

describe('JsonLineReader: a broken line placed in the line as written', () => {
  /** The issue of `text` read as line 3, with a line after it (so that it is damage, not a cut last line). */
  function issueOf(text: string): { message: string; field?: string } {
    const issues = new LineIssues('log.jsonl', 'hint');
    const reader = new JsonLineReader(issues);
    reader.read({ line: 3, text });
    reader.read({ line: 4, text: '{"ok": true}' });
    const [issue] = issues.issues;
    return { message: issue!.message, ...(issue!.field === undefined ? {} : { field: issue!.field }) };
  }

  it('its column counts the indent, whatever blank it is, and not the blanks after it (a CRLF file\'s \\r)', () => {
    const cut = 'is not valid JSON at column 15: Unterminated string (the line ends too early: it looks cut short), and more lines follow it: the transcript is damaged';
    expect(issueOf('  {"text": "ab')).toEqual({ message: cut, field: 'text' });
    expect(issueOf('  {"text": "ab\r')).toEqual({ message: cut, field: 'text' });
    expect(issueOf('\t\u00a0{"text": "ab  \r')).toEqual({ message: cut, field: 'text' });
    expect(issueOf('   {"a": 1,}\r').message).toBe('is not valid JSON at column 12: Expected double-quoted property name, and more lines follow it: the transcript is damaged');
    expect(issueOf('{"a": 1,}').message).toBe('is not valid JSON at column 9: Expected double-quoted property name, and more lines follow it: the transcript is damaged');
  });
});

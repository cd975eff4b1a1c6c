/**
 * A native trace line that is not JSON is told by the one rule for a JSON syntax error (src/io/jsonSyntax.ts):
 * line, column and the field open where it breaks, why in V8's words without its quoted excerpt, and a bare
 * NaN or Infinity named as no JSON number at its full path (not only its key) — as a JSON document, a price
 * file or a serve body is told. A line that stops short is still asked whether the file was truncated.
 */
import { describe, expect, it } from 'vitest';
import { formatIssue } from '../../src/errors.js';
import { parseNativeTraces } from '../../src/trace/parseNative.js';
import { userErrorOf } from '../helpers.js';

const HEADER = '{"type":"header","schema":"loopcost.trace/1","model":"gpt-4o-mini","systemTokens":10,"goalTokens":5}';
const END = '{"type":"end","outcome":"completed"}';
const TOOLS = '"toolCalls":[{"name":"read","arguments":{"path":"a.txt"},"resultTokens":10,"id":"r1"},{"name":"grep","arguments":{"q":"x"}';

const issuesOf = (...lines: string[]) => userErrorOf(() => parseNativeTraces(lines.join('\n'), 'bad.jsonl')).issues;

describe('a native line that is not JSON, by the one JSON syntax rule', () => {
  it('a bare NaN deep in a call: line, column and the full field path, no V8 excerpt', () => {
    const line = `{"type":"call","inputTokens":40,"outputTokens":5,${TOOLS},"resultTokens":NaN,"id":"r2"}]}`;
    const [issue, ...rest] = issuesOf(HEADER, line, END);
    expect(rest).toEqual([]);
    expect(issue).toEqual({
      file: 'bad.jsonl',
      line: 2,
      field: 'toolCalls[1].resultTokens',
      code: 'invalid_json',
      message: `is not valid JSON at column ${line.indexOf('NaN') + 1}: NaN is not a JSON number (JSON has no NaN or Infinity)`,
      hint: 'write the figure as a number, or leave an optional field out when it is not known; see docs/trace-format.md',
    });
    expect(formatIssue(issue!)).toContain("bad.jsonl:line 2 field 'toolCalls[1].resultTokens': is not valid JSON at column");
  });

  it('a syntax error mid-line: line, column and field, V8\'s reason without its quoted excerpt or position', () => {
    const line = `{"type":"call","inputTokens":40,"outputTokens":5,${TOOLS},"resultTokens":7 "id":"r2"}]}`;
    const [issue] = issuesOf(HEADER, line, END);
    expect(issue).toMatchObject({
      line: 2,
      field: 'toolCalls[1].resultTokens',
      code: 'invalid_json',
      message: `is not valid JSON at column ${line.indexOf('7 "id"') + 3}: Expected ',' or '}' after property value`,
      hint: 'each line must be one complete JSON object; see docs/trace-format.md',
    });
    expect(issue!.message).not.toMatch(/position|"id"|is not valid JSON$/);
  });

  it('an unexpected token V8 quotes rather than places is placed too, its excerpt never shown', () => {
    const line = `{"type":"call","inputTokens":40,"outputTokens":5,${TOOLS},"resultTokens":}]}`;
    const [issue] = issuesOf(HEADER, line, END);
    expect(issue).toMatchObject({ line: 2, field: 'toolCalls[1].resultTokens', message: `is not valid JSON at column ${line.indexOf(':}') + 2}: Unexpected token '}'` });
    expect(issue!.message).not.toMatch(/\.\.\.|"/);
  });

  it('a line that stops short is asked about truncation (V8 places it at the line\'s end, or says the input ended)', () => {
    const [placed, ended] = issuesOf(HEADER, '{"type":"call","outputTokens":4', '{"type":"call","outputTokens":4,"x":"ab', END);
    expect(placed).toMatchObject({ line: 2, field: 'outputTokens', message: "is not valid JSON at column 32: Expected ',' or '}' after property value (the line ends too early: it looks cut short)" });
    expect(placed!.hint).toMatch(/was the file truncated\?/);
    expect(ended).toMatchObject({ line: 3, field: 'x', message: expect.stringMatching(/^is not valid JSON at column 40: Unterminated string \(the line ends too early/) });
    expect(ended!.hint).toMatch(/was the file truncated\?/);
  });

  it('a whole line of NaN is named too (V8 names no position: the line is read for it)', () => {
    const [issue] = issuesOf(HEADER, 'NaN', END);
    expect(issue).toMatchObject({ line: 2, message: 'is not valid JSON at column 1: NaN is not a JSON number (JSON has no NaN or Infinity)' });
    expect(issue!.field).toBeUndefined();
  });
});

/**
 * A native trace's problems in loopcost's words, one message per problem: the value given and what to
 * write (never zod's "Invalid input: expected int, received number"); a refused header's run is not read
 * (its lines are not each told they have no header); a bare NaN or Infinity is named as such, and only a
 * line that stops short is asked whether the file was truncated.
 */
import { describe, expect, it } from 'vitest';
import { parseNativeTraces } from '../../src/trace/parseNative.js';
import { userErrorOf } from '../helpers.js';

const HEADER = '{"type":"header","schema":"loopcost.trace/1","model":"gpt-4o-mini","systemTokens":10,"goalTokens":5}';
const CALL = '{"type":"call","inputTokens":40,"outputTokens":5}';
const END = '{"type":"end","outcome":"completed"}';

const issuesOf = (...lines: string[]) => userErrorOf(() => parseNativeTraces(lines.join('\n'), 'bad.jsonl')).issues;
const messagesOf = (...lines: string[]) => issuesOf(...lines).map((issue) => [issue.line, issue.field, issue.message]);

describe("zod's issues in the tool's words", () => {
  it('a fraction of a token: the value and that it must be whole (code kept)', () => {
    expect(issuesOf(HEADER, '{"type":"call","outputTokens":1.5}', END)).toEqual([
      expect.objectContaining({ line: 2, field: 'outputTokens', code: 'invalid_type', message: 'is 1.5: must be a whole number of tokens' }),
    ]);
  });

  it('an outcome of no name: the name given, the nearest and every one', () => {
    expect(messagesOf(HEADER, CALL, '{"type":"end","outcome":"complete"}')).toEqual([
      [3, 'outcome', '"complete" is not an outcome: did you mean completed? (completed, error, timeout, limit or unknown)'],
    ]);
  });

  it('a record type of no name, a wrong type, a bad date, a refused literal', () => {
    expect(messagesOf(HEADER, '{"type":"calls","outputTokens":5}', '{"type":"call","outputTokens":"many"}', '{"type":"call","outputTokens":5,"final":"yes"}', END)).toEqual([
      [2, 'type', '"calls" is not a type: did you mean call? (header, call or end)'],
      [3, 'outputTokens', 'is the string "many": give a whole number (0 or more)'],
      [4, 'final', 'is the string "yes": give true or false'],
    ]);
    expect(messagesOf('{"type":"header","schema":"loopcost.trace/1","model":"m","systemTokens":1,"goalTokens":1,"recordedAt":"yesterday"}', CALL, END)).toEqual([
      [1, 'recordedAt', 'is the string "yesterday": not an ISO 8601 date and time with its offset (e.g. 2025-06-01T12:00:00Z)'],
    ]);
  });

  it("a value of none of a union's types names every option", () => {
    const header = HEADER.replace('}', ',"recordedSettings":{"contextWindow":"big"}}');
    expect(messagesOf(header, CALL, END)).toEqual([[1, 'recordedSettings.contextWindow', 'is the string "big": give a whole number greater than 0 or model']]);
  });

  it('a negative count names the value', () => {
    expect(issuesOf(HEADER.replace('"systemTokens":10', '"systemTokens":-310'), CALL, END)).toEqual([
      expect.objectContaining({ line: 1, field: 'systemTokens', code: 'negative_number', message: 'is -310: must not be negative' }),
    ]);
  });
});

describe('a refused header: one message, its run not read', () => {
  it('a negative systemTokens: the header alone is reported, not each of its lines; the next run is read', () => {
    const issues = issuesOf(HEADER.replace('"systemTokens":10', '"systemTokens":-310'), CALL, CALL, END, HEADER, '{"type":"call","outputTokens":-1}', END);
    expect(issues.map((issue) => [issue.line, issue.field, issue.code])).toEqual([
      [1, 'systemTokens', 'negative_number'],
      [6, 'outputTokens', 'negative_number'],
    ]);
  });

  it('an unknown header field, and a header line that is not JSON', () => {
    expect(issuesOf(HEADER.replace('}', ',"colour":1}'), CALL, END).map((issue) => issue.line)).toEqual([1]);
    expect(issuesOf(HEADER.replace('"systemTokens":10', '"systemTokens":NaN'), CALL, END).map((issue) => issue.line)).toEqual([1]);
  });

  it("a bad line of the refused run is still its own problem; after the run's end a stray call is named", () => {
    const issues = issuesOf(HEADER.replace('}', ',"colour":1}'), '{"type":"call","outputTokens":1.5}', END, CALL);
    expect(issues.map((issue) => [issue.line, issue.code])).toEqual([
      [1, 'unrecognized_keys'],
      [2, 'invalid_type'],
      [4, 'unexpected_record'],
    ]);
  });
});

describe('a line that is not JSON', () => {
  it('a bare NaN or Infinity is named, with its field and what to write; not asked about truncation', () => {
    const issues = issuesOf(HEADER, '{"type":"call","outputTokens":NaN}', '{"type":"call","outputTokens":5,"latencyMs":-Infinity}', END);
    expect(issues.map((issue) => [issue.line, issue.field, issue.code])).toEqual([
      [2, 'outputTokens', 'invalid_json'],
      [3, 'latencyMs', 'invalid_json'],
    ]);
    expect(issues[0]!.message).toBe('is not valid JSON at column 31: NaN is not a JSON number (JSON has no NaN or Infinity)');
    expect(issues[1]!.message).toBe('is not valid JSON at column 45: -Infinity is not a JSON number (JSON has no NaN or Infinity)');
    for (const issue of issues) {
      expect(issue.hint).toMatch(/^write the figure as a number/);
      expect(issue.hint).not.toMatch(/truncated/);
    }
  });

  it('NaN inside a string is no bare NaN', () => {
    const [issue] = issuesOf(HEADER, '{"type":"call","outputTokens":5,"x":"NaN", nul}', END);
    expect(issue!.message).toMatch(/^is not valid JSON at column \d+: /);
    expect(issue!.message).not.toMatch(/NaN/);
  });

  it('the truncation question only where the line stops short', () => {
    const [short, broken] = issuesOf(HEADER, '{"type":"call","outputTokens":4', '{"type":"call","outputTokens":4,,}', END);
    expect(short!.hint).toMatch(/was the file truncated\?/);
    expect(broken!.hint).not.toMatch(/truncated/);
  });
});

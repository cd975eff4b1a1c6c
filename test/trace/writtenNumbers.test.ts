/**
 * A native line's number quoted as the line wrote it: JSON.parse reads 9007199254740993 as
 * 9007199254740992 and 1e305 as what String() gives as 1e+305, so a message built from the parsed value
 * quoted a figure the file does not hold. The reader quotes the line's own text (jsonLine.ts
 * numbersAsWritten), for a schema's issue and a rule's alike, only once the line is found bad.
 */
import { describe, expect, it } from 'vitest';
import { UserError, type InputIssue } from '../../src/errors.js';
import { numbersAsWritten } from '../../src/trace/jsonLine.js';
import { parseNativeTraces } from '../../src/trace/parseNative.js';

const HEADER = '{"type":"header","schema":"loopcost.trace/1","model":"gpt-4o","systemTokens":100,"goalTokens":20}';
const END = '{"type":"end","outcome":"completed"}';

function issuesOf(...lines: string[]): InputIssue[] {
  try {
    parseNativeTraces([HEADER, ...lines, END].join('\n'), 'r.jsonl');
  } catch (error) {
    if (error instanceof UserError) return error.issues;
    throw error;
  }
  return [];
}

const said = (issues: InputIssue[]) => issues.map((i) => `${i.field}: ${i.message}`);

describe('a number past 2^53 (or in exponent form) is quoted as the line wrote it', () => {
  it('a count the schema refuses: 9007199254740993, not 9007199254740992', () => {
    expect(said(issuesOf('{"type":"call","inputTokens":9007199254740993,"outputTokens":10}'))).toEqual([
      'inputTokens: 9007199254740993 is more than 9007199254740991 (2^53 − 1), the largest count held exactly',
    ]);
    expect(said(issuesOf('{"type":"call","outputTokens":1e305}'))).toEqual(['outputTokens: 1e305 is more than 9007199254740991 (2^53 − 1), the largest count held exactly']);
    expect(said(issuesOf('{"type":"call","outputTokens":-1E3}'))).toEqual(['outputTokens: is -1E3: must not be negative']);
  });

  it('a latency, an amount and a nested count the rules refuse', () => {
    const call = '{"type":"call","outputTokens":10,"startMs":9007199254740993,"recordedCostUsd":1e19,"toolCalls":[{"name":"ls","arguments":{"n":1},"resultTokens":5,"latencyMs":1E20}]}';
    expect(said(issuesOf(call))).toEqual([
      'startMs: 9007199254740993 ms is more than 2^53 ms',
      'recordedCostUsd: $1e19 is more than $9,007.199254740991 (2^53 − 1 picodollars), the most that is summed exactly',
      'toolCalls[0].latencyMs: 1E20 ms is more than 2^53 ms',
    ]);
  });

  it("a failed call's status past its range names the value given", () => {
    expect(said(issuesOf('{"type":"call","outputTokens":0,"failed":{"status":1000,"message":"x"}}'))).toEqual(['failed.status: is 1000, which is no HTTP status (a whole number from 100 to 599)']);
    expect(said(issuesOf('{"type":"call","outputTokens":0,"failed":{"status":5e1,"message":"x"}}'))).toEqual(['failed.status: is 5e1, which is no HTTP status (a whole number from 100 to 599)']);
  });

  it('numbersAsWritten: by field or path; digits inside a string are no number', () => {
    const at = numbersAsWritten(String.raw`{"a":"x\"1, 2","b":[1e305,-2.5E-3],"c":{"d":9007199254740993},"e":[{"f":7}]}`);
    expect([at('b[0]'), at('b[1]'), at('c.d'), at(['c', 'd']), at('e[0].f'), at('a'), at('zz.y')]).toEqual(['1e305', '-2.5E-3', '9007199254740993', '9007199254740993', '7', 'x"1, 2', undefined]);
  });
});

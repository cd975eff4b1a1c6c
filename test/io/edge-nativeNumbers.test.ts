/**
 * Numbers a native trace cannot hold are named as such, with file, line and field: a literal past the
 * range of a double (1e400, which JSON.parse reads as Infinity: zod said "expected number, received
 * number"), a quoted "NaN" or "Infinity"; and what is a number after all (-0, 1e-400) reads as one.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { jsonTextProblem, parsedJsonTextProblem, surelyNoJsonTextProblem } from '../../src/io/jsonText.js';
import { parseNativeTraces } from '../../src/trace/parseNative.js';
import { userErrorOf } from '../helpers.js';
import { tempDir } from '../cli/run.js';

const HEADER = '{"type":"header","schema":"loopcost.trace/1","model":"gpt-4o-mini","systemTokens":10,"goalTokens":5}';
const END = '{"type":"end","outcome":"completed"}';
const callWith = (fields: string) => `{"type":"call","inputTokens":100,${fields}}`;
const run = (call: string, end = END) => [HEADER, call, end].join('\n') + '\n';

function issueOf(text: string) {
  const error = userErrorOf(() => parseNativeTraces(text, 'run.jsonl'));
  expect(error.issues).toHaveLength(1);
  return error.issues[0]!;
}

describe('native numbers a trace cannot hold', () => {
  it('replay of outputTokens 1e400: exit 2, file, line, field and what is wrong; no report written', () => {
    const dir = tempDir();
    const file = join(dir, 'big.jsonl');
    writeFileSync(file, run(callWith('"outputTokens":1e400')));
    const out = join(dir, 'report.json');
    const r = spawnSync(process.execPath, ['bin/loopcost.js', 'replay', file, '--out', out], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`loopcost: ${file}:line 2 field 'outputTokens': is 1e400, too large: past ±1.8e308 a number reads as Infinity (the counts look corrupted or made up: check the file, or export the run again)\n`);
    expect(existsSync(out)).toBe(false);
  });

  it('in any record and field: a tool latency of -1e400, a recorded cost of 2E+999, a 400-digit count, a number in the arguments', () => {
    expect(issueOf(run(callWith('"outputTokens":5,"toolCalls":[{"name":"t","arguments":{},"resultTokens":1,"latencyMs":-1e400}]')))).toMatchObject({
      line: 2, field: 'toolCalls[0].latencyMs', code: 'too_large', message: 'is -1e400, too large: past ±1.8e308 a number reads as -Infinity',
    });
    expect(issueOf(run(callWith('"outputTokens":5'), '{"type":"end","outcome":"completed","recordedCostUsd":2E+999}'))).toMatchObject({ line: 3, field: 'recordedCostUsd', message: expect.stringMatching(/^is 2E\+999, too large/) });
    expect(issueOf(run(callWith(`"outputTokens":${'9'.repeat(400)}`)))).toMatchObject({ field: 'outputTokens', message: 'is 999999999999…99999999 (400 characters), too large: past ±1.8e308 a number reads as Infinity' });
    expect(issueOf(run(callWith('"outputTokens":5,"toolCalls":[{"name":"t","arguments":{"n":[1,1e400]},"resultTokens":1}]')))).toMatchObject({ field: 'toolCalls[0].arguments.n[1]', code: 'too_large' });
  });

  it('a quoted "NaN" or "Infinity" is named, and so is a quoted figure', () => {
    expect(issueOf(run(callWith('"outputTokens":"NaN"')))).toMatchObject({ line: 2, field: 'outputTokens', message: 'is the string "NaN", not a number: JSON has no NaN or Infinity, so the figure is not known' });
    expect(issueOf(run(callWith('"outputTokens":5,"latencyMs":"-Infinity"'))).message).toBe('is the string "-Infinity", not a number: JSON has no NaN or Infinity, so the figure is not known');
    expect(issueOf(run(callWith('"outputTokens":"40"'))).message).toBe('is the string "40", not a number: write the number without quotes');
  });

  it('an integer past 2^53 − 1 is refused, named as the line wrote it (not as JSON.parse rounds it)', () => {
    expect(issueOf(run(callWith('"outputTokens":9007199254740993')))).toMatchObject({ field: 'outputTokens', code: 'too_large', message: expect.stringMatching(/^9007199254740993 is more than 9007199254740991/) });
  });

  it('-0 reads as 0 and 1e-400 as 0: the same run', () => {
    const plain = parseNativeTraces(run(callWith('"outputTokens":0,"latencyMs":0')), 'run.jsonl');
    expect(parseNativeTraces(run(callWith('"outputTokens":-0,"latencyMs":-0.0')), 'run.jsonl')).toEqual(plain);
    expect(parseNativeTraces(run(callWith('"outputTokens":0,"latencyMs":1e-400')), 'run.jsonl')).toEqual(plain);
  });

  it('only the native reader asks: other readers keep numbers they do not read as figures (a model\'s arguments)', () => {
    expect(jsonTextProblem('{"a":1e400}')).toBeUndefined();
    expect(jsonTextProblem('{"a":1e400}', { numbers: true })).toMatchObject({ code: 'too_large', field: 'a', offset: 5 });
    expect(jsonTextProblem('{"a":"1e400","b":[1.5e308,-2e-400]}', { numbers: true })).toBeUndefined();
  });

  it('the quick check never hides an overflowing number: found exactly where one was written', () => {
    expect(surelyNoJsonTextProblem('{"a":1e400}', JSON.parse('{"a":1e400}'))).toBe(false);
    const literal = fc.constantFrom('0', '-0', '1.5', '1e308', '1.7976931348623157e308', '1e-400', '"1e400"', '1e400', '-1E+309', '2e1000');
    const overflows = (text: string) => /(^|[^"\w.+-])-?\d+(\.\d+)?[eE]\+?(309|400|1000)\b/.test(text);
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c'), literal), { maxLength: 5 }), (entries) => {
        const text = `{${entries.map(([key, value], i) => `"${key}${i}":[${value}]`).join(',')}}`;
        const problem = parsedJsonTextProblem(text, JSON.parse(text), { numbers: true });
        expect(problem?.code, text).toBe(overflows(text) ? 'too_large' : undefined);
      }),
      { numRuns: 300 },
    );
  });
});

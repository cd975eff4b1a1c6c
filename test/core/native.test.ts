import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.js';
import { parseNativeTraces } from '../../src/trace/parseNative.js';
import { traceJsonSchema } from '../../src/trace/schema.js';
import { writeNativeTraces } from '../../src/trace/writeNative.js';

function issuesOf(text: string) {
  try {
    parseNativeTraces(text, 'bad.jsonl');
  } catch (error) {
    expect(error).toBeInstanceOf(UserError);
    return (error as UserError).issues;
  }
  throw new Error('expected a UserError');
}

const HEADER = '{"type":"header","schema":"loopcost.trace/1","model":"gpt-4o-mini","systemTokens":10,"goalTokens":5}';
const END = '{"type":"end","outcome":"completed"}';

describe('native trace format', () => {
  it('reads the bundled reference scenario', () => {
    const [t] = parseNativeTraces(readFileSync('scenarios/reference-sum-of-squares.jsonl', 'utf8'), 'ref.jsonl');
    expect(t!.header.model).toBe('gpt-4o-mini');
    expect(t!.calls).toHaveLength(3);
    expect(t!.source).toBe('ref.jsonl');
  });

  it('numbers runs within one file', () => {
    const traces = parseNativeTraces(readFileSync('scenarios/recorded-pair.jsonl', 'utf8'), 'pair.jsonl');
    expect(traces.map((t) => t.source)).toEqual(['pair.jsonl#1', 'pair.jsonl#2']);
  });

  it('round-trips through the writer', () => {
    const text = readFileSync('scenarios/recorded-pair.jsonl', 'utf8');
    expect(writeNativeTraces(parseNativeTraces(text, 'x'))).toBe(text);
  });

  it('names line and field of every problem, all of them at once', () => {
    const issues = issuesOf(
      [HEADER, '{"type":"call","outputTokens":-3}', '{"type":"call","outputTokens":5,"toolCalls":[{"name":"x","arguments":{}}]}', '{"type":"call"', END].join('\n'),
    );
    expect(issues).toEqual([
      expect.objectContaining({ file: 'bad.jsonl', line: 2, field: 'outputTokens', code: 'negative_number' }),
      expect.objectContaining({ line: 3, field: 'toolCalls[0].resultTokens', code: 'missing_field' }),
      expect.objectContaining({ line: 4, code: 'invalid_json' }),
    ]);
  });

  it('rejects NaN-like and wrongly typed tokens', () => {
    const issues = issuesOf([HEADER, '{"type":"call","outputTokens":"12"}', END].join('\n'));
    expect(issues[0]).toMatchObject({ line: 2, field: 'outputTokens', code: 'invalid_type' });
  });

  it('a truncated file (no end record) is an error, not a silent partial run', () => {
    expect(issuesOf([HEADER, '{"type":"call","outputTokens":5}'].join('\n'))[0]).toMatchObject({ code: 'truncated', line: 1 });
  });

  it('an empty file and a call before any header are errors', () => {
    expect(issuesOf('\n\n')[0]!.code).toBe('empty');
    expect(issuesOf(`{"type":"call","outputTokens":5}\n${END}`)[0]).toMatchObject({ line: 1, code: 'unexpected_record' });
  });

  it('the published JSON Schema is generated from the validator (run `npm run schema` after changing it)', () => {
    expect(JSON.parse(readFileSync('schema/trace-v1.schema.json', 'utf8'))).toEqual(traceJsonSchema());
  });
});

/**
 * Every JSON file read whole (a merge shard, a check baseline, a price file) says the same about an empty
 * file ("is empty", what to pass) and names a syntax error at its line and column (not V8's character
 * position), with the field open there: one rule, src/io/jsonFileText.ts.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseBaseline } from '../../src/check/baseline.js';
import { parseLiteLlmTable } from '../../src/pricing/index.js';
import { readSweepShard } from '../../src/report/sweepShard.js';
import { jsonSyntaxIssue, parseJsonFileText } from '../../src/io/jsonFileText.js';
import { columnOfOffset } from '../../src/io/jsonSyntax.js';
import { cli, tempDir } from '../cli/run.js';

const WORDS = { file: 'f.json', what: 'a thing', hint: 'pass a thing' };
/** Cut inside a string on line 3, as a copy stopped half way leaves it. */
const CUT = `{\n  "a": 1,\n  "b": "${'x'.repeat(1000)}`;

describe('parseJsonFileText', () => {
  it('names the line and column of a syntax error and the field open there, not the character position', () => {
    const read = parseJsonFileText(CUT, WORDS);
    expect('issue' in read && read.issue).toMatchObject({ file: 'f.json', line: 3, field: 'b', code: 'invalid_json', hint: 'pass a thing' });
    const message = 'issue' in read ? read.issue.message : '';
    expect(message).toMatch(/^is not valid JSON at column 1009: Unterminated string \(the file ends too early/);
    expect(message).not.toMatch(/position/);
  });

  it('says an empty (or blank) file is empty, not "Unexpected end of JSON input"', () => {
    for (const text of ['', '  \n']) {
      const read = parseJsonFileText(text, WORDS);
      expect('issue' in read && read.issue).toEqual({ file: 'f.json', code: 'empty_file', message: 'is empty, expected a thing (one JSON document)', hint: 'pass a thing' });
    }
  });

  it('reads valid JSON, and counts columns from the line start', () => {
    expect(parseJsonFileText('{"a":[1]}', WORDS)).toEqual({ value: { a: [1] } });
    expect(columnOfOffset('ab\ncd', 4)).toBe(2);
    expect(columnOfOffset('abc', 0)).toBe(1);
    let error: unknown;
    try {
      JSON.parse('{"a":1,}');
    } catch (caught) {
      error = caught;
    }
    expect(jsonSyntaxIssue('{"a":1,}', error, WORDS)).toMatchObject({ line: 1, message: expect.stringMatching(/^is not valid JSON at column 8: /) });
  });
});

describe('the JSON file readers share the rule', () => {
  const readers: [string, (text: string) => unknown][] = [
    ['merge shard', (text) => { const issues = readSweepShard(text, 'f.json').issues; if (issues) throw Object.assign(new Error(), { issues }); }],
    ['check baseline', (text) => parseBaseline(text, 'f.json')],
    ['price file', (text) => parseLiteLlmTable(text, 'f.json')],
  ];
  for (const [name, read] of readers) {
    it(`${name}: an empty file is "is empty", a cut one names line 3 column 1009`, () => {
      const empty = issuesOf(() => read(''));
      expect(empty[0]).toMatchObject({ file: 'f.json', code: 'empty_file', message: expect.stringMatching(/^is empty, expected /) });
      const cut = issuesOf(() => read(CUT));
      expect(cut[0]).toMatchObject({ file: 'f.json', line: 3, field: 'b', message: expect.stringMatching(/^is not valid JSON at column 1009: Unterminated string/) });
    });

    it(`${name}: a short text V8 quotes whole, a long one it quotes cut, and a bare NaN are named where, without V8's quote`, () => {
      expect(issuesOf(() => read('{"a": 1, "b": }'))[0]).toMatchObject({ line: 1, field: 'b', message: "is not valid JSON at column 15: Unexpected token '}'" });
      const long = `{\n "conversionRate": ,\n "${'b'.repeat(30)}": 2\n}`;
      expect(issuesOf(() => read(long))[0]).toMatchObject({ line: 2, field: 'conversionRate', message: "is not valid JSON at column 20: Unexpected token ','" });
      const nan = '{\n "gpt-4o-mini": {"input_cost_per_token": NaN}\n}';
      expect(issuesOf(() => read(nan))[0]).toMatchObject({ line: 2, field: 'gpt-4o-mini.input_cost_per_token', message: 'is not valid JSON at column 42: NaN is not a JSON number (JSON has no NaN or Infinity)' });
    });
  }
});

function issuesOf(run: () => unknown): { code: string; message: string }[] {
  try {
    run();
  } catch (error) {
    return (error as { issues: { code: string; message: string }[] }).issues;
  }
  throw new Error('no error');
}

describe('the CLI', () => {
  it('merge, check --baseline and --prices-override of an empty file say it is empty, exit 2, nothing on stdout', async () => {
    const empty = join(tempDir(), 'empty.json');
    writeFileSync(empty, '');
    const runs = [
      ['merge', empty, empty],
      ['check', 'scenarios/flight-search.yaml', '--baseline', empty],
      ['replay', 'scenarios/flight-search.yaml', '--prices-override', empty],
    ];
    for (const args of runs) {
      const r = await cli(...args);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`${empty}: is empty, expected `);
      expect(r.stderr).not.toMatch(/Unexpected end of JSON input|stack|at .*\.js:/);
    }
  });

  it('--prices with a bare NaN names it as no JSON number at its line and field, not V8\'s quote', async () => {
    const prices = join(tempDir(), 'p.json');
    writeFileSync(prices, '{\n "gpt-4o-mini": {"input_cost_per_token": NaN}\n}');
    const r = await cli('replay', 'scenarios/reference-sum-of-squares.jsonl', '--prices', prices);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${prices}:line 2 field 'gpt-4o-mini.input_cost_per_token': is not valid JSON at column 42: NaN is not a JSON number (JSON has no NaN or Infinity)`);
    expect(r.stderr).not.toMatch(/Unexpected token|\.\.\."/);
  });
});


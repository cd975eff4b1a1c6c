/**
 * A trace file nested past MAX_NESTING_DEPTH that no first line tells the format of (`deep.json`: 10,000
 * `[`, closed or not; a one-line or pretty-printed document; `{"a":` 10,000 times) was refused as "not a
 * trace format loopcost reads": it is now refused for its depth (the README's "256 levels of nesting …
 * refused"), with its line and field and what to do, as a native .jsonl line that deep is. A shallow file
 * of no format is still "not a trace format".
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectFormat } from '../../src/import/formats.js';
import { MAX_NESTING_DEPTH } from '../../src/io/limits.js';
import { userErrorOf } from '../helpers.js';
import { cli, tempDir } from '../cli/run.js';

const N = 10_000;
const DEEP = `nests deeper than ${MAX_NESTING_DEPTH} levels of arrays and objects`;
const HINT = 'no trace nests this deep: the file looks corrupted or made up; export the run again';

describe('a document nested past the limit, of no format its first line tells', () => {
  const cases: [string, string, number, string][] = [
    ['10,000 [ unclosed', '['.repeat(N), 1, '[0][0][0][0][0][0][0][0]…'],
    ['10,000 [ closed', '['.repeat(N) + ']'.repeat(N), 1, '[0][0][0][0][0][0][0][0]…'],
    ['pretty-printed', '[\n'.repeat(N) + ']\n'.repeat(N), MAX_NESTING_DEPTH + 1, '[0][0][0][0][0][0][0][0]…'],
    ['objects, closed', '{"a":'.repeat(N) + '1' + '}'.repeat(N), 1, 'a.a.a.a.a.a.a.a…'],
    ['objects, unclosed', '{"a":'.repeat(N), 1, 'a.a.a.a.a.a.a.a…'],
  ];
  for (const [name, text, line, field] of cases) {
    it(`${name}: refused for its depth, with line, field and hint`, () => {
      const error = userErrorOf(() => detectFormat(text, 'deep.json'));
      expect(error.issues).toEqual([{ file: 'deep.json', line, field, code: 'too_deep', message: DEEP, hint: HINT }]);
    });
  }

  it('a shallow document of no format is still not a trace format', () => {
    expect(userErrorOf(() => detectFormat('[[1, 2]]', 'arr.json')).issues[0]!.code).toBe('unknown_format');
    expect(userErrorOf(() => detectFormat('{"a": 1}\n', 'a.json')).issues[0]!.code).toBe('unknown_format');
  });

  it('replay deep.json says the depth limit (exit 2), as a native line that deep does', async () => {
    const dir = tempDir();
    const file = join(dir, 'deep.json');
    writeFileSync(file, '['.repeat(N));
    const r = await cli('replay', file);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file}:line 1 field '[0][0][0][0][0][0][0][0]…': ${DEEP}`);
    expect(r.stderr).not.toMatch(/not a trace format/);
    const line = join(dir, 'deep.jsonl');
    writeFileSync(line, `{"type":"header","schema":"loopcost.trace/1","model":"gpt-4o","systemTokens":1,"goalTokens":1}\n${'['.repeat(N)}${']'.repeat(N)}\n`);
    expect((await cli('replay', line)).stderr).toContain(`${line}:line 2 field '[0][0][0][0][0][0][0][0]…': ${DEEP}`);
  });
});

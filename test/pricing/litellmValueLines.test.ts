/**
 * A price file's value problems name their line (review 1, finding 4): `"output_cost_per_token": "abc"` on
 * line 2 is refused at line 2, as the same field written `NaN` (a syntax error) is — each found by the scan
 * that names a syntax error's field (src/io/jsonSyntax.ts jsonFieldOffset).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonFieldOffset, jsonPathAt, lineOfOffset } from '../../src/io/jsonSyntax.js';
import { parseLiteLlmTable } from '../../src/pricing/litellm.js';
import { cli, tempDir } from '../cli/run.js';
import { userErrorOf } from '../helpers.js';

const dir = tempDir();

function priceFile(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

const linesOf = (text: string, file = 'p.json') => userErrorOf(() => parseLiteLlmTable(text, file)).issues.map((issue) => [issue.line, issue.field, issue.code]);

describe('price file value problems name their line', () => {
  it('"abc" on line 2 is refused at line 2, as NaN there is', async () => {
    const bad = priceFile('bad2.json', '{"gpt-4o":{"input_cost_per_token":0.000003,\n "output_cost_per_token": "abc"}}');
    const nan = priceFile('bad3.json', '{"gpt-4o":{"input_cost_per_token":0.000003,\n "output_cost_per_token": NaN}}');
    const r = await cli('prices', 'gpt-4o', '--prices', bad);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`loopcost: ${bad}:line 2 field 'gpt-4o.output_cost_per_token': price must be a finite number of USD per token, got "abc" (write prices as JSON numbers, e.g. 2.5e-6 for $2.50 per million tokens)\n`);
    expect((await cli('prices', 'gpt-4o', '--prices', nan)).stderr).toContain(`${nan}:line 2 field 'gpt-4o.output_cost_per_token'`);
  });

  it('each problem at its own line: a negative price, a bad window, an unknown key, an entry that is no object, a tier past 2^53', () => {
    const text = [
      '{',
      '  "a.b/gpt-4o": {',
      '    "input_cost_per_token": 1e-6,',
      '    "output_cost_per_token": -1',
      '  },',
      '  "m\\u0031": {"input_cost_per_token": 1e-6, "output_cost_per_token": 1e-6,',
      '    "max_input_tokens": 1.5},',
      '  "typo": {"input_cost_per_tokens": 1e-6},',
      '  "five":',
      '    5,',
      '  "tier": {"input_cost_per_token": 1e-6, "output_cost_per_token": 1e-6,',
      '           "input_cost_per_token_above_99999999999999999999k_tokens": 1e-6}',
      '}',
    ].join('\n');
    expect(linesOf(text)).toEqual([
      [4, 'a.b/gpt-4o.output_cost_per_token', 'negative_number'],
      [7, 'm1.max_input_tokens', 'invalid_number'],
      [8, 'typo.input_cost_per_tokens', 'unknown_price_key'],
      [10, 'five', 'invalid_type'],
      [12, 'tier.input_cost_per_token_above_99999999999999999999k_tokens', 'tier_out_of_range'],
    ]);
  });

  it('jsonFieldOffset: where a field value starts, by keys and indices; jsonPathAt names the same field there', () => {
    const text = '{"a": {"b.c": [1, {"d": \n  "x"}]}, "e": []}';
    const at = (path: (string | number)[]) => jsonFieldOffset(text, path);
    expect(text.slice(at(['a'])!, at(['a'])! + 1)).toBe('{');
    expect(text.slice(at(['a', 'b.c', 1, 'd'])!)).toMatch(/^"x"/);
    expect(lineOfOffset(text, at(['a', 'b.c', 1, 'd'])!)).toBe(2);
    expect(text.slice(at(['a', 'b.c', 0])!)).toMatch(/^1,/);
    expect(jsonPathAt(text, at(['a', 'b.c', 1, 'd'])! + 1)).toBe('a.b.c[1].d');
    expect(at(['a', 'nope'])).toBeUndefined();
    expect(at(['e', 3])).toBeUndefined();
  });
});

/**
 * The refusal of a scenario whose first prompt + max_tokens cannot fit its model's window names only what
 * sets max_tokens: `--max-output-tokens`. A scenario file has no such field (its `brakes:` take the brake
 * flags; `brakes.max-output-tokens` is refused as unknown), yet the hint used to name it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';

describe('the max_tokens hint names what exists', () => {
  it('replay --max-output-tokens 200000: send at most 127,310 (--max-output-tokens), no file field', async () => {
    const r = await cli('replay', 'scenarios/flight-search.yaml', '--max-output-tokens', '200000');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('send at most 127,310 (--max-output-tokens), lower systemTokens or goalTokens');
    expect(r.stderr).not.toMatch(/max-output-tokens in the file/);
  });

  it('the field it used to name is refused as unknown', async () => {
    const file = join(tempDir(), 'mot.yaml');
    writeFileSync(file, readFileSync('scenarios/flight-search.yaml', 'utf8').replace('brakes: { preset: reference }', 'brakes: { preset: reference, max-output-tokens: 1000 }'));
    const r = await cli('replay', file, '--runs', '2');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/brakes.*max-output-tokens|max-output-tokens.*unknown|unknown.*max-output-tokens/);
  });
});

/**
 * `prices MODEL`: a model no table prices is said as the command line's argument, with the did-you-mean;
 * a price file's own problem found while pricing it stays under that file, naming who asked.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';

describe('prices MODEL: each pricing problem under what caused it', () => {
  it('an unknown model is the command line’s MODEL argument', async () => {
    const r = await cli('prices', 'gpt-4o-minii');
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toMatch(/^loopcost: <command line> field 'MODEL': unknown model 'gpt-4o-minii' \(did you mean gpt-4o-mini/);
  });

  it('a price file entry found wrong while pricing MODEL stays the price file’s', async () => {
    const file = join(tempDir(), 'under.json');
    writeFileSync(file, JSON.stringify({ 'gpt-4o': { input_cost_per_token: 1e-6 } }));
    const r = await cli('prices', 'gpt-4o', '--prices-override', file);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file}:line 1 field 'gpt-4o.cache_read_input_token_cost'`);
    expect(r.stderr).toContain('the model is asked for by <command line> (MODEL)');
  });
});

/**
 * `replay --model X`: a problem of X itself (a model no table prices) is said under `--model`; a problem
 * of a price file's entry found while pricing X (prices in an impossible order) is said under that file
 * and entry, as for a scenario's or a trace's own model, naming `--model` as who asked for it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';

const TRACE = 'scenarios/recorded-pair.jsonl';

/** An override entry whose input price alone falls below the bundled table's cached price for gpt-4o. */
function underPriced(): string {
  const file = join(tempDir(), 'under.json');
  writeFileSync(file, JSON.stringify({ 'gpt-4o': { input_cost_per_token: 1e-6 } }));
  return file;
}

describe('replay --model: each pricing problem under what caused it', () => {
  it('a price file entry found wrong while pricing --model is the price file’s, at its entry', async () => {
    const file = underPriced();
    for (const command of ['replay', 'contexts']) {
      const r = await cli(command, TRACE, '--model', 'gpt-4o', '--prices-override', file);
      expect([r.code, r.stdout]).toEqual([2, '']);
      expect(r.stderr).toMatch(new RegExp(`^loopcost: ${file.replace(/[.\\/]/g, '\\$&')}:line 1 field 'gpt-4o\\.cache_read_input_token_cost': entry for model 'gpt-4o' leaves cache_read_input_token_cost`));
      expect(r.stderr).toContain('the model is asked for by <command line> (--model))');
      expect(r.stderr).not.toContain("field '--model'");
    }
  });

  it('the same entry reached through a scenario file’s --model is said the same way', async () => {
    const file = underPriced();
    const trace = await cli('replay', TRACE, '--model', 'gpt-4o', '--prices-override', file);
    const scenario = await cli('replay', 'scenarios/flight-search.yaml', '--model', 'gpt-4o', '--prices-override', file);
    expect(trace.stderr).toBe(scenario.stderr);
  });

  it('a model no table prices is still --model’s', async () => {
    const r = await cli('replay', TRACE, '--model', 'gpt-4o-nosuch', '--prices-override', underPriced());
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^loopcost: <command line> field '--model': unknown model 'gpt-4o-nosuch'/);
  });
});

describe('sweep and project --model / --grid model: the same placing', () => {
  it('a price file entry found wrong while pricing the flag’s model is the price file’s, naming the flag', async () => {
    const file = underPriced();
    for (const [command, flag] of [
      ['sweep', ['--model', 'gpt-4o']],
      ['sweep', ['--grid', 'model=gpt-4o']],
      ['project', ['--model', 'gpt-4o']],
    ] as const) {
      const r = await cli(command, TRACE, ...flag, '--prices-override', file);
      expect([r.code, r.stdout]).toEqual([2, '']);
      expect(r.stderr).toMatch(new RegExp(`^loopcost: ${file.replace(/[.\\/]/g, '\\$&')}:line 1 field 'gpt-4o\\.cache_read_input_token_cost'`));
      expect(r.stderr).toContain(`the model is asked for by <command line> (${flag[0] === '--grid' ? '--grid model' : '--model'}))`);
    }
  });

  it('a model no table prices is still the flag’s', async () => {
    const r = await cli('sweep', TRACE, '--grid', 'model=gpt-4o-nosuch,gpt-4o');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^loopcost: <command line> field '--grid model': unknown model 'gpt-4o-nosuch'/);
  });
});

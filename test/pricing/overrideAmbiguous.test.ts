/**
 * A `--prices-override` file with two provider-prefixed entries for one bare name (`openai/gpt-4o`,
 * `azure/gpt-4o`), asked for by the bare name with no provider (`prices gpt-4o`, a trace without one):
 * the entry of the provider the base table prices the model as applies (gpt-4o → openai). When that
 * picks none, the file is refused naming it and the keys (exit 2, nothing on stdout). (Before, no entry
 * applied, while the report said the file overrode the models it names.)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPriceTable } from '../../src/pricing/index.js';
import { userErrorOf } from '../helpers.js';
import { cli, tempDir } from '../cli/run.js';

const dir = tempDir();
function write(name: string, data: Record<string, Record<string, unknown>>): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(data));
  return path;
}
// (openai's entry gives a cached price too: the table's $1.25/M above its $1/M input would be refused.)
const BOTH = write('amb.json', { 'openai/gpt-4o': { input_cost_per_token: 1e-6, cache_read_input_token_cost: 0.5e-6 }, 'azure/gpt-4o': { input_cost_per_token: 2e-6 } });
// (Each entry complete: the table prices no gpt-4o on Bedrock to take an output price from.)
const NEITHER = write('neither.json', { 'azure/gpt-4o': { input_cost_per_token: 1e-6 }, 'bedrock/gpt-4o': { input_cost_per_token: 2e-6, output_cost_per_token: 8e-6 } });

describe('--prices-override entries that share a bare name', () => {
  it("apply the entry of the provider the table prices the model as: $1/M from openai/gpt-4o, not the table's $2.50", async () => {
    const table = loadPriceTable({ overridesFile: BOTH });
    expect(table.resolve('gpt-4o').base.input).toBe(1_000_000);
    // A provider asked for still picks its own entry.
    expect(table.resolve('gpt-4o', 'azure').base.input).toBe(2_000_000);
    const r = await cli('prices', 'gpt-4o', '--prices-override', BOTH);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^input +\$1$/m);
  });

  it('a replay of runs without a provider bills the picked entry', async () => {
    const trace = join(dir, 'noprovider.jsonl');
    writeFileSync(trace, readFileSync('scenarios/recorded-pair.jsonl', 'utf8').replaceAll('"model":"gpt-4o-mini","provider":"openai"', '"model":"gpt-4o"'));
    const cost = async (...flags: string[]) => JSON.parse((await cli('replay', trace, ...flags, '--format', 'json')).stdout).summary.totalCostUsd;
    const picked = await cost('--prices-override', write('one.json', { 'openai/gpt-4o': { input_cost_per_token: 1e-6, cache_read_input_token_cost: 0.5e-6 } }));
    expect(picked).not.toBe(await cost());
    expect(await cost('--prices-override', BOTH)).toBe(picked);
  });

  it('are refused when the table picks none of them: exit 2 naming the file and the keys, nothing on stdout', async () => {
    const error = userErrorOf(() => loadPriceTable({ overridesFile: NEITHER }).resolve('gpt-4o'));
    expect(error.issues[0]).toMatchObject({ file: NEITHER, field: 'gpt-4o', code: 'ambiguous_override' });
    expect(error.issues[0]!.message).toBe("entries 'azure/gpt-4o', 'bedrock/gpt-4o' all name model 'gpt-4o', and none is for openai, the provider the price table prices it as");
    const r = await cli('prices', 'gpt-4o', '--prices-override', NEITHER);
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toContain(NEITHER);
    expect(r.stderr).toContain("'azure/gpt-4o', 'bedrock/gpt-4o'");
  });
});

/**
 * `--prices-override` entries that cannot mean what they say are refused (exit 2, naming file, entry and
 * the fix), not applied: an entry that gives no price and no window (every field null, or none), which
 * was skipped silently; and a merge that leaves an impossible order — a cached-input price above the input
 * price, a five-minute cache write above an hour's — in the entry's fields or between them and the table's.
 */
import { writeFileSync } from 'node:fs';
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

describe('--prices-override entries that override nothing', () => {
  it('an entry whose fields are all null is refused naming file and entry, with what to do', async () => {
    const file = write('nulls.json', { 'gpt-4o': { input_cost_per_token: null, output_cost_per_token: null } });
    const issue = userErrorOf(() => loadPriceTable({ overridesFile: file })).issues[0]!;
    expect(issue).toMatchObject({ file, field: 'gpt-4o', code: 'empty_override' });
    expect(issue.message).toContain('input_cost_per_token, output_cost_per_token: null');
    expect(issue.hint).toContain('delete the entry');
    const r = await cli('prices', 'gpt-4o', '--prices-override', file);
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toContain(`${file}:line 1 field 'gpt-4o'`);
  });

  it('so is an empty entry; an entry of LiteLLM metadata alone is still skipped, as in LiteLLM’s own file', () => {
    expect(userErrorOf(() => loadPriceTable({ overridesFile: write('empty.json', { 'gpt-4o': {} }) })).issues[0]).toMatchObject({ field: 'gpt-4o', code: 'empty_override' });
    const meta = write('meta.json', { 'together_ai/x': { litellm_provider: 'together_ai', supports_function_calling: true }, 'gpt-4o': { input_cost_per_token: 3e-6 } });
    expect(loadPriceTable({ overridesFile: meta }).resolve('gpt-4o').base.input).toBe(3_000_000);
  });
});

describe('--prices-override prices in an impossible order', () => {
  it('an input price alone below the table’s cached price is refused, naming whose each price is', async () => {
    const file = write('under.json', { 'gpt-4o': { input_cost_per_token: 1e-6 } });
    const error = userErrorOf(() => loadPriceTable({ overridesFile: file }).resolve('gpt-4o'));
    expect(error.issues[0]).toMatchObject({ file, field: 'gpt-4o.cache_read_input_token_cost', code: 'impossible_prices' });
    expect(error.issues[0]!.message).toContain("cache_read_input_token_cost (the table's, $1.25 per million tokens) above input_cost_per_token (the entry's, $1 per million tokens)");
    const r = await cli('replay', 'scenarios/recorded-pair.jsonl', '--model', 'gpt-4o', '--prices-override', file);
    expect([r.code, r.stdout]).toEqual([2, '']);
    // With its cached price too, it is applied.
    const both = write('both.json', { 'gpt-4o': { input_cost_per_token: 1e-6, cache_read_input_token_cost: 0.5e-6 } });
    expect(loadPriceTable({ overridesFile: both }).resolve('gpt-4o').base.cachedInput).toBe(500_000);
  });

  it('a five-minute write above the hour’s, and an order the entry gives itself (priced alone), are refused', () => {
    const write5m = write('write.json', { 'claude-opus-4-6': { cache_creation_input_token_cost: 12e-6 } });
    expect(userErrorOf(() => loadPriceTable({ overridesFile: write5m }).resolve('claude-opus-4-6')).issues[0]).toMatchObject({ field: 'claude-opus-4-6.cache_creation_input_token_cost', code: 'impossible_prices' });
    const alone = write('alone.json', { 'my-model': { input_cost_per_token: 1e-6, output_cost_per_token: 2e-6, cache_read_input_token_cost: 2e-6 } });
    expect(userErrorOf(() => loadPriceTable({ overridesFile: alone }).resolve('my-model')).issues[0]!.message).toContain("(the entry's, $2 per million tokens) above input_cost_per_token (the entry's");
  });
});

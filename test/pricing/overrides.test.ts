/**
 * `--prices-override FILE` prices the models the file names and leaves every other model to the bundled
 * table; a price file is refused when a key is a price key misspelled or an entry has no field loopcost
 * reads, with the key and the nearest known name.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadLiteLlmTable, loadPriceTable } from '../../src/pricing/index.js';
import { judgeKey } from '../../src/pricing/litellmKeys.js';
import { userErrorOf } from '../helpers.js';
import { cli, tempDir } from '../cli/run.js';

const MINI = '../shared/traces/mini-swe-agent';
const BILLED = 'test/fixtures/prices/deepseek-recorded.json';

describe('--prices-override', () => {
  it('models in the file take its prices, every other model the bundled ones', () => {
    const table = loadPriceTable({ overridesFile: BILLED });
    expect(table.resolve('deepseek/deepseek-chat').base).toEqual({ input: 280_000, cachedInput: 28_000, output: 420_000 });
    expect(table.resolve('deepseek/deepseek-chat').source.version).toBe('file');
    expect(table.resolve('gpt-4o-mini').base.input).toBe(150_000);
    expect(table.source).toMatchObject({ name: '@pydantic/genai-prices', overrides: { name: BILLED } });
  });

  it('replays the shared runs at the prices they were billed, with no price warning, and says which file', async () => {
    const json = JSON.parse((await cli('replay', MINI, '--prices-override', BILLED, '--format', 'json')).stdout);
    expect(json.summary.totalCostUsd).toBeCloseTo(json.summary.recordedCostUsd, 9);
    // No price warning (the importer's notes on the runs are warned of: import_notes).
    expect(json.warnings.map((w: { code: string }) => w.code)).toEqual(['import_notes']);
    const text = (await cli('replay', MINI, 'scenarios/reference-sum-of-squares.jsonl', '--prices-override', BILLED)).stdout;
    expect(text).toMatch(/^prices: @pydantic\/genai-prices 0\.1\.8 \(sha256 [0-9a-f]{16}\) \+ \d+ loopcost corrections \(v\d+, sha256 [0-9a-f]{16}\),\s+overridden by\s+test\/fixtures\/prices\/deepseek-recorded\.json \(sha256 [0-9a-f]{16}\) for the models it names/m);
    const csv = (await cli('replay', 'scenarios/reference-sum-of-squares.jsonl', '--prices-override', BILLED, '--format', 'csv')).stdout.split('\n');
    expect(csv[1]).toMatch(/,test\/fixtures\/prices\/deepseek-recorded\.json \(sha256 [0-9a-f]{16}\)$/);
  });
});

describe('price files loopcost would misread are refused', () => {
  const dir = tempDir();
  const write = (name: string, data: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify(data));
    return path;
  };

  it('a misspelled price key: exit 2 naming the key and the nearest known name', async () => {
    const file = write('typo.json', { 'gpt-4o': { input_cost_per_tokens: 2.5e-6, output_cost_per_token: 1e-5, mode: 'chat' } });
    for (const flag of ['--prices', '--prices-override']) {
      const r = await cli('replay', 'scenarios/long-exploration.jsonl', flag, file);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/typo\.json:line 1 field 'gpt-4o\.input_cost_per_tokens': unknown key 'input_cost_per_tokens' \(did you mean input_cost_per_token\?\)/);
    }
  });

  it('a price-like key LiteLLM does not define, and an entry with no field loopcost reads', () => {
    const file = write('foreign.json', { a: { input_price_per_token: 1e-6, output_cost_per_token: 1e-6 }, b: { input: 2.5, output: 10 }, c: { inputCostPerToken: 1e-6 } });
    const issues = userErrorOf(() => loadLiteLlmTable(file)).issues;
    expect(issues.map((issue) => [issue.field, issue.code, issue.hint?.slice(0, 40)])).toEqual([
      ['a.input_price_per_token', 'unknown_price_key', 'did you mean input_cost_per_token?'],
      ['b', 'no_known_fields', 'give its prices in USD per token: input_'],
      ['c.inputCostPerToken', 'unknown_price_key', 'did you mean input_cost_per_token?'],
    ]);
  });

  it("LiteLLM's own files still load: every key is read or knowingly ignored", () => {
    expect(loadLiteLlmTable('../shared/prices/litellm-2024.json').modelNames().length).toBeGreaterThan(350);
    expect(loadLiteLlmTable('../shared/prices/litellm-modern-fixture.json').modelNames()).toContain('xai/grok-2');
    for (const key of ['max_output_tokens', 'max_tokens', 'input_cost_per_character', 'input_cost_per_token_batches', 'output_cost_per_image', 'supports_vision', 'rules', 'input_cost_per_token_above_200k_tokens', 'cache_read_input_token_cost_above_200k_tokens']) {
      expect(judgeKey(key).kind, key).toMatch(/read|ignored/);
    }
  });
});

/**
 * What an override file cannot do, said at once: an entry without input and output prices for a model the
 * table it overrides does not price has nothing to take the rest from, and an entry that gives max_tokens
 * as if it were the window overrides nothing. Each is refused (exit 2, nothing on stdout) naming the file,
 * the key and what to do, every such problem of the file together. In a `--prices` file (a whole table)
 * such an entry is no priced model: asking for it says its entry gives no prices. (Before, all of these
 * were skipped without a word.)
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
  writeFileSync(path, JSON.stringify(data, null, 1));
  return path;
}
const CURVE = ['curve', '--model', 'gemini-2.5-pro', '--system-tokens', '500', '--output-tokens', '150', '--tool-tokens', '2050', '--steps', '10', '--context-window', 'model'];

describe('--prices-override entries that cannot stand', () => {
  it('a window-only entry for a model the table lacks: exit 2 naming the file, the key and what to do', async () => {
    const file = write('unknown-window.json', { 'gemini-9-ultra': { max_input_tokens: 2_000_000 } });
    for (const command of [CURVE, ['replay', 'scenarios/recorded-pair.jsonl', '--context-window', 'model']]) {
      const r = await cli(...command, '--prices-override', file);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trimEnd().split('\n')).toEqual([
        `loopcost: ${file}:line 2 field 'gemini-9-ultra': entry for model 'gemini-9-ultra' gives no prices (only max_input_tokens), and the price table it overrides (@pydantic/genai-prices) does not price a model 'gemini-9-ultra' to take the rest from (an entry for a model the table lacks must give input_cost_per_token and output_cost_per_token (USD per token): add them, or give the window alone with --context-window N)`,
      ]);
    }
  });

  it('every problem of the file at once, in file order, the entries the table completes accepted', async () => {
    const file = write('mixed.json', {
      'gemini-9-ultra': { max_input_tokens: 2_000_000 },
      'gemini-2.5-pro': { max_input_tokens: 1_048_576 },
      'gpt-4o-mimi': { input_cost_per_token: 1e-7, mode: 'chat' },
      'claude-sonnet-4-5': { max_tokens: 64_000 },
      'typo-model': { input_cost_per_tokens: 1e-6, output_cost_per_token: 1e-6 },
    });
    const r = await cli(...CURVE, '--prices-override', file);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/field 'gemini-9-ultra': entry for model 'gemini-9-ultra' gives no prices \(only max_input_tokens\)/);
    expect(lines[1]).toMatch(/field 'gpt-4o-mimi': entry for model 'gpt-4o-mimi' gives no output_cost_per_token \(only input_cost_per_token\), .* \(did you mean gpt-4o-mini\?\)\)$/);
    expect(lines[2]).toContain(`${file}:line 13 field 'claude-sonnet-4-5.max_tokens': entry for model 'claude-sonnet-4-5' gives max_tokens but no max_input_tokens and no price, so it overrides nothing`);
    expect(lines[2]).toContain('(give the context window in tokens as max_input_tokens)');
    expect(lines[3]).toMatch(/field 'typo-model\.input_cost_per_tokens': unknown key/);

    const issues = userErrorOf(() => loadPriceTable({ overridesFile: file })).issues;
    expect(issues.map((issue) => [issue.file, issue.field, issue.code])).toEqual([
      [file, 'gemini-9-ultra', 'incomplete_override'],
      [file, 'gpt-4o-mimi', 'incomplete_override'],
      [file, 'claude-sonnet-4-5.max_tokens', 'no_context_window_key'],
      [file, 'typo-model.input_cost_per_tokens', 'unknown_price_key'],
    ]);
  });

  it('over a --prices table, the table that must price the model is that file', async () => {
    const file = write('over-file.json', { 'gemini-2.5-pro': { max_input_tokens: 1_048_576 }, 'gpt-4o': { max_input_tokens: 64_000 } });
    const base = 'test/fixtures/prices/litellm-2024-excerpt.json';
    const r = await cli(...CURVE, '--prices', base, '--prices-override', file);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`field 'gemini-2.5-pro': entry for model 'gemini-2.5-pro' gives no prices (only max_input_tokens), and the price table it overrides (${base}) does not price a model 'gemini-2.5-pro'`);
    expect(r.stderr).not.toContain("'gpt-4o'");
    const gpt = loadPriceTable({ pricesFile: base, overridesFile: write('gpt.json', { 'gpt-4o': { max_input_tokens: 64_000 } }) }).resolve('gpt-4o');
    expect(gpt).toMatchObject({ contextWindow: 64_000, base: { input: 5_000_000, output: 15_000_000 } });
  });
});

describe('a --prices file (the whole table) with an entry that gives no prices', () => {
  it('asking for that model says its entry gives no prices, and how to give a window alone', async () => {
    const file = write('whole.json', {
      'gemini-2.5-pro': { max_input_tokens: 1_048_576 },
      'gpt-4o': { input_cost_per_token: 2.5e-6, output_cost_per_token: 1e-5, max_input_tokens: 128_000 },
    });
    const r = await cli('prices', 'gemini-2.5-pro', '--prices', file);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`${file} field 'gemini-2.5-pro': model 'gemini-2.5-pro' is not priced: its entry gives no prices (only max_input_tokens)`);
    expect(r.stderr).toContain('pass the file with --prices-override instead');
    const curve = await cli(...CURVE, '--prices', file);
    expect([curve.code, curve.stdout]).toEqual([2, '']);
    expect(curve.stderr).toContain("model 'gemini-2.5-pro' is not priced: its entry gives no prices (only max_input_tokens)");
    const table = loadPriceTable({ pricesFile: file });
    expect(table.modelNames()).toEqual(['gpt-4o']);
    expect(userErrorOf(() => table.resolve('gemini-2.5-pro')).issues[0]).toMatchObject({ file, field: 'gemini-2.5-pro', code: 'unpriced_model' });
  });
});

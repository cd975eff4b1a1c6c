/**
 * Hostile price files (--prices, --prices-override): a key given twice was read as its last value, a bad
 * `max_input_tokens` (-5, "abc", 1e400) was dropped silently, and a key of 100,000 characters was compared
 * in full against every key loopcost reads and echoed whole. Each is now refused (exit 2) naming file,
 * field and what to do, the long key cut as every message cuts a long name.
 */
import { spawnSync } from 'node:child_process';
import { truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadLiteLlmTable, parseLiteLlmTable } from '../../src/pricing/index.js';
import { judgeKey, nearestReadKey } from '../../src/pricing/litellmKeys.js';
import { MAX_SHOWN_NAME } from '../../src/shownName.js';
import { cli, tempDir } from '../cli/run.js';
import { userErrorOf } from '../helpers.js';

const TRACE = 'scenarios/reference-sum-of-squares.jsonl';
const dir = tempDir();
const write = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const priced = (extra: string) => `{"input_cost_per_token": 1.5e-7, "output_cost_per_token": 6e-7, "mode": "chat"${extra}}`;

describe('a key given twice in a price file', () => {
  const twicePriced = write('twice.json', ['{', '  "gpt-4o-mini": {', '    "input_cost_per_token": 1.5e-7,', '    "output_cost_per_token": 6e-7,', '    "input_cost_per_token": -5', '  }', '}', ''].join('\n'));

  it('is refused by --prices and --prices-override naming file, line and key path, exit 2, nothing on stdout', async () => {
    for (const flag of ['--prices', '--prices-override']) {
      const r = await cli('replay', TRACE, flag, twicePriced);
      expect(r.code, flag).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        `loopcost: ${twicePriced}:line 5 field 'gpt-4o-mini.input_cost_per_token': key "input_cost_per_token" is given twice in the same object (keep the one you mean and delete the other: JSON readers keep only the last of a repeated key, silently)\n`,
      );
    }
  });

  it('the built CLI refuses it too, with no stack trace', () => {
    const run = spawnSync(process.execPath, ['bin/loopcost.js', 'prices', '--prices', twicePriced], { encoding: 'utf8' });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^loopcost: .*twice\.json:line 5 field 'gpt-4o-mini\.input_cost_per_token': key "input_cost_per_token" is given twice/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('a model named twice is refused at the second, and any duplicate in the file, even in an entry loopcost skips', () => {
    const models = userErrorOf(() => parseLiteLlmTable(`{\n"a": ${priced('')},\n"b": ${priced('')},\n"a": ${priced('')}\n}`, 'models.json'));
    expect(models.issues).toEqual([expect.objectContaining({ file: 'models.json', line: 4, field: 'a', code: 'duplicate_key' })]);
    const skipped = userErrorOf(() => parseLiteLlmTable(`{"sample_spec": {"mode": "chat", "mode": "x"}, "a": ${priced('')}}`, 'spec.json'));
    expect(skipped.issues).toEqual([expect.objectContaining({ line: 1, field: 'sample_spec.mode', code: 'duplicate_key' })]);
  });

  it('the same keys in different entries are no duplicate: the file loads', () => {
    const table = parseLiteLlmTable(`{"a": ${priced(', "max_input_tokens": 1000')}, "b": ${priced(', "max_input_tokens": 2000')}}`, 'ok.json');
    expect(table.modelNames()).toEqual(['a', 'b']);
  });
});

describe('max_input_tokens', () => {
  const bad: Array<[string, string, string]> = [
    ['-5', 'negative_number', 'must not be negative, got -5'],
    ['"abc"', 'invalid_number', 'must be a whole number of tokens, got "abc"'],
    ['1e400', 'invalid_number', 'must be a whole number of tokens, got Infinity'],
    ['"NaN"', 'invalid_number', 'must be a whole number of tokens, got "NaN"'],
    ['128000.5', 'invalid_number', 'got 128000.5'],
    ['1e20', 'invalid_number', 'got 100000000000000000000'],
    ['true', 'invalid_number', 'got true'],
    ['[128000]', 'invalid_number', 'got [128000]'],
  ];

  it('a bad value is refused naming model and field; every one in the file is reported together', () => {
    const entries = bad.map(([value], i) => `"m${i}": ${priced(`, "max_input_tokens": ${value}`)}`);
    const issues = userErrorOf(() => parseLiteLlmTable(`{${entries.join(',\n')}}`, 'windows.json')).issues;
    expect(issues.map((issue) => [issue.field, issue.code])).toEqual(bad.map(([, code], i) => [`m${i}.max_input_tokens`, code]));
    issues.forEach((issue, i) => {
      expect(issue.message).toContain(bad[i]![2]);
      expect(issue.hint).toMatch(/^write max_input_tokens as a JSON whole number of tokens/);
    });
  });

  it('through the CLI: exit 2, the field and the value named, nothing on stdout', async () => {
    const file = write('window.json', `{"gpt-4o-mini": ${priced(', "max_input_tokens": -5')}}`);
    const r = await cli('replay', TRACE, '--prices', file);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/window\.json:line 1 field 'gpt-4o-mini\.max_input_tokens': the context window must not be negative, got -5 \(write max_input_tokens/);
  });

  it('a whole number is the context window; absent, null or 0 give none', () => {
    const table = parseLiteLlmTable(
      `{"w": ${priced(', "max_input_tokens": 128000')}, "none": ${priced('')}, "null": ${priced(', "max_input_tokens": null')}, "zero": ${priced(', "max_input_tokens": 0')}}`,
      'good.json',
    );
    expect(table.resolve('w').contextWindow).toBe(128_000);
    for (const model of ['none', 'null', 'zero']) expect(table.resolve(model).contextWindow, model).toBeUndefined();
  });

  it("the shared LiteLLM tables keep every model's window", () => {
    const table = loadLiteLlmTable('../shared/prices/litellm-2024.json');
    expect(table.resolve('gpt-4o').contextWindow).toBe(128_000);
  });
});

describe('a price file with keys of 100,000 characters', () => {
  const longModel = 'm'.repeat(100_000);
  const longPrice = 'cost'.repeat(25_000);
  const longOther = 'x'.repeat(100_000);

  it('is refused with short messages: each long key cut to its start and its length', async () => {
    const file = write('long.json', JSON.stringify({ [longModel]: { input_cost_per_token: 1e-6, output_cost_per_token: 1e-6, [longPrice]: 1 }, other: { [longOther]: 1 } }));
    const r = await cli('replay', TRACE, '--prices', file);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain(`field '${'m'.repeat(MAX_SHOWN_NAME)}… (100,000 characters).${'cost'.repeat(MAX_SHOWN_NAME / 4)}… (100,000 characters)': unknown price key`);
    expect(lines[0]).toContain('(give its prices in USD per token: input_cost_per_token,');
    expect(lines[1]).toContain(`field 'other': entry for model 'other' has no field loopcost reads (${'x'.repeat(MAX_SHOWN_NAME)}… (100,000 characters) is not`);
    expect(r.stderr.length).toBeLessThan(2_000);
  });

  it('gets no did-you-mean: no key loopcost reads is near it', () => {
    expect(nearestReadKey(longPrice)).toBeUndefined();
    expect(judgeKey(longPrice)).toEqual({ kind: 'unknown_price' });
    expect(judgeKey(longOther)).toEqual({ kind: 'unknown' });
  });

  it('short near misses still get their suggestion', () => {
    expect(judgeKey('input_cost_per_tokens')).toEqual({ kind: 'misspelled', nearest: 'input_cost_per_token' });
    expect(judgeKey('max_inputs_tokens')).toEqual({ kind: 'misspelled', nearest: 'max_input_tokens' });
    expect(judgeKey('output_price_per_token')).toEqual({ kind: 'unknown_price', nearest: 'output_cost_per_token' });
    expect(judgeKey('max_output_tokens')).toEqual({ kind: 'ignored' });
  });
});

describe('a price file past 64 MB', () => {
  it('is refused by its size before it is read, naming the flag to check', async () => {
    const huge = join(dir, 'huge.json');
    writeFileSync(huge, '{}');
    truncateSync(huge, 65 * 1024 * 1024); // sparse: no 65 MB written
    const r = await cli('replay', TRACE, '--prices-override', huge);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`loopcost: ${huge}: is 65 MB, more than a price file's 64 MB (check the path given to --prices-override: a LiteLLM price table is a few MB of JSON)\n`);
  });
});

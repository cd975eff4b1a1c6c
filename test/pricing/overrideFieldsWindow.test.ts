/**
 * A `--prices-override` entry that gives only `max_input_tokens` gives a model of the bundled table its
 * context window and keeps every price of the table: `--context-window model` then fires on
 * gemini-2.5-pro (no window in @pydantic/genai-prices 0.1.8), in curve and replay, and the reports say
 * the window and the file. (Before, such an entry was skipped without a word: the window stayed unknown.)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPriceTable } from '../../src/pricing/index.js';
import { cli, tempDir } from '../cli/run.js';

const MODEL = 'gemini-2.5-pro';
const dir = tempDir();
const overrideFile = (name: string, window: number): string => {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify({ [MODEL]: { max_input_tokens: window } }));
  return path;
};
const MILLION = overrideFile('window-1m.json', 1_048_576);
const SMALL = overrideFile('window-131k.json', 131_072);

/** The curve of the brief: the prompt at step n is 500 + (n − 1) · 2,200 tokens (150 output + 2,050 tool result a step). */
const CURVE = ['curve', '--model', MODEL, '--system-tokens', '500', '--output-tokens', '150', '--tool-tokens', '2050'];
const prompt = (step: number): number => 500 + (step - 1) * 2_200;

/** A text report with its wrapped lines joined (a report wraps at its width, continuing lines indented). */
const unwrapped = (text: string): string => text.replace(/\n {2,}/g, ' ');

/** The first step whose prompt the provider refuses: prompt + max_tokens (4,096, the default) above the window. */
function firstRefusedStep(window: number): number {
  const allowed = window - 4_096;
  const step = Math.floor((allowed - 500) / 2_200) + 2;
  expect(prompt(step)).toBeGreaterThan(allowed);
  expect(prompt(step - 1)).toBeLessThanOrEqual(allowed);
  return step;
}

describe('a window-only --prices-override entry', () => {
  it('gives the model its window and keeps every price of the table', () => {
    const table = loadPriceTable().resolve(MODEL);
    expect(table.contextWindow).toBeUndefined();
    const overridden = loadPriceTable({ overridesFile: MILLION }).resolve(MODEL);
    expect(overridden.contextWindow).toBe(1_048_576);
    expect(overridden.base).toEqual(table.base);
    expect(overridden.tiers).toEqual(table.tiers);
    expect(overridden.base).toEqual({ input: 1_250_000, cachedInput: 125_000, output: 10_000_000 });
    expect(overridden.tiers).toEqual([{ aboveInputTokens: 200_000, prices: { input: 2_500_000, cachedInput: 250_000, output: 15_000_000 } }]);
    // Some prices are the table's: the source is the table's (dated), marked as overridden by the file.
    expect(overridden.source).toMatchObject({ name: '@pydantic/genai-prices', dating: 'release', overrides: { name: MILLION } });
  });

  it('curve --context-window model stops before the step whose prompt + max_tokens passes the window', async () => {
    // 1,048,576 − 4,096 = 1,044,480 tokens allowed: step 475 sends 1,043,300, step 476 would send 1,045,500.
    expect(firstRefusedStep(1_048_576)).toBe(476);
    const json = JSON.parse((await cli(...CURVE, '--steps', '500', '--context-window', 'model', '--prices-override', MILLION, '--format', 'json')).stdout);
    expect(json.stop).toEqual({ reason: 'context_overflow', detail: 'next prompt holds 1045500 tokens + max_tokens 4096 > context window 1048576' });
    expect(json.rows).toHaveLength(475);
    expect(json.rows.at(-1).inputTokens).toBe(prompt(475));
    expect(json.warnings).toEqual([]);
    expect(json.pricing.contextWindow).toBe(1_048_576);
    expect(json.prices).toMatchObject({ name: '@pydantic/genai-prices', overrides: { name: MILLION, hash: expect.stringMatching(/^[0-9a-f]{16}$/) } });

    // 131,072 − 4,096 = 126,976 allowed: step 58 sends 125,900, step 59 would send 128,100.
    expect(firstRefusedStep(131_072)).toBe(59);
    const small = JSON.parse((await cli(...CURVE, '--steps', '100', '--context-window', 'model', '--prices-override', SMALL, '--format', 'json')).stdout);
    expect(small.stop.reason).toBe('context_overflow');
    expect(small.rows).toHaveLength(58);
    expect(small.warnings).toEqual([]);
  });

  it("curve's text report marks the window and names the override file", async () => {
    const text = unwrapped((await cli(...CURVE, '--steps', '500', '--prices-override', MILLION)).stdout);
    expect(text).toContain('mark: step 476: the prompt (1,045,500 tokens) + max_tokens 4,096 exceed the 1,048,576-token context window of gemini-2.5-pro');
    expect(text).toMatch(/prices: @pydantic\/genai-prices 0\.1\.8 \(sha256 [0-9a-f]{16}\) \+ \d+ loopcost corrections \(v\d+, sha256 [0-9a-f]{16}\), overridden by \S*window-1m\.json \(sha256 [0-9a-f]{16}\)/);
    const braked = unwrapped((await cli(...CURVE, '--steps', '100', '--context-window', 'model', '--prices-override', SMALL)).stdout);
    expect(braked).toContain('stopped: context_overflow — next prompt holds 128100 tokens + max_tokens 4096 > context window 131072');
    expect(braked).not.toContain('warning:');
  });

  it('replay --context-window model stops a gemini-2.5-pro run at the window, with no windowless warning', async () => {
    const trace = join(dir, 'gemini.jsonl');
    writeFileSync(trace, readFileSync('scenarios/recorded-pair.jsonl', 'utf8').replaceAll('"model":"gpt-4o-mini","provider":"openai"', `"model":"${MODEL}","provider":"google"`));
    const before = JSON.parse((await cli('replay', trace, '--context-window', 'model', '--format', 'json')).stdout);
    expect(before.runs.map((run: { stopReason: string }) => run.stopReason)).toEqual(['completed', 'trace_end']);
    expect(before.warnings.map((w: { code: string }) => w.code)).toContain('no_context_window');
    // Run 1 sends prompts of 520 then 640 tokens: a 4,700-token window allows 4,700 − 4,096 = 604.
    const window = overrideFile('window-4700.json', 4_700);
    const after = JSON.parse((await cli('replay', trace, '--context-window', 'model', '--prices-override', window, '--format', 'json')).stdout);
    expect(after.runs.map((run: { stopReason: string; steps: number }) => [run.stopReason, run.steps])).toEqual([
      ['context_overflow', 1],
      ['context_overflow', 1],
    ]);
    expect(after.warnings.map((w: { code: string }) => w.code)).not.toContain('no_context_window');
    // The first call is priced as without the file: the entry changed the window only.
    expect(after.runs[0].costUsd).toBeCloseTo(520 * 1.25e-6 + 40 * 10e-6, 12);
  });

  it('loopcost prices shows the window and where it came from', async () => {
    const text = (await cli('prices', MODEL, '--prices-override', MILLION)).stdout;
    expect(text).toContain('context window: 1,048,576 tokens');
    expect(text).toContain('$1.25');
    expect(text).toMatch(/overridden by\s+\S*window-1m\.json/);
  });
});

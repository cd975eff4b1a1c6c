/**
 * What a person sees of `curve`: the step where the prompt crosses the context window or a price tier, the
 * brakes it takes and where it stopped, the footer's words for the strategy used, its chart (moved out of
 * reports.test.ts, which grew past 300 lines).
 */
import { describe, expect, it } from 'vitest';
import { cli } from './run.js';

describe('curve', () => {
  const gpt4o = ['curve', '--model', 'gpt-4o', '--system-tokens', '500', '--output-tokens', '150', '--tool-tokens', '2050', '--steps', '100'];

  it('marks the step where the prompt crosses the context window and where it crosses a price tier', async () => {
    const text = (await cli(...gpt4o)).stdout;
    // prompt at step n: 500 + (n − 1)·2200; with the 4,096 max_tokens sent, above 128,000 from step 58 (125,900 + 4,096)
    expect(text).toMatch(/^ +58 +125,900 .* \+ max_tokens > window 128,000$/m);
    expect(text).toMatch(/^mark: step 58: the prompt \(125,900 tokens\) \+ max_tokens 4,096 exceed the 128,000-token context window of gpt-4o/m);
    const gemini = (await cli('curve', '--model', 'gemini-2.5-pro', '--system-tokens', '500', '--output-tokens', '150', '--tool-tokens', '2050', '--steps', '100')).stdout;
    expect(gemini).toMatch(/^ +92 +200,700 .* > price tier 200,000$/m);
    const json = JSON.parse((await cli(...gpt4o, '--format', 'json')).stdout);
    expect(json.marks).toEqual([expect.objectContaining({ step: 58, kind: 'context_window' })]);
    // what steps 58–100 add to the total: priced, but no real run could be billed it
    const beforeMark = json.rows[56].cumulativeCostUsd;
    const pastPico = Math.round((json.totalCostUsd - beforeMark) * 1e12);
    const past = (Math.round(pastPico / 1e8) / 1e4).toFixed(4); // to 4 decimals, half up
    expect(json.marks[0].message).toContain(`; steps 58–100, $${past} of the total, are priced past it`);
  });

  it('takes brake flags and --context-window, and says where it stopped', async () => {
    const stopped = JSON.parse((await cli(...gpt4o, '--context-window', 'model', '--format', 'json')).stdout);
    expect(stopped.stop.reason).toBe('context_overflow');
    // step 57's prompt 123,700 + 4,096 fits 128,000; step 58's 125,900 + 4,096 does not
    expect(stopped.rows).toHaveLength(57);
    const text = (await cli(...gpt4o, '--max-cost', '1')).stdout;
    expect(text).toMatch(/^stopped: budget/m);
    expect(text).toMatch(/^settings: brakes max-cost=1,budget-mode=check · context full · cache off/m);
    const capped = JSON.parse((await cli(...gpt4o, '--context-window', '50000', '--format', 'json')).stdout);
    expect(capped.stop.reason).toBe('context_overflow');
    expect(capped.rows.at(-1).inputTokens).toBeLessThanOrEqual(50_000);
    expect(capped.rows).toHaveLength(23);
  });

  it('the footer describes the strategy actually used', async () => {
    expect((await cli(...gpt4o)).stdout).toMatch(/^growth: context full: .* input grows linearly per step and\s+the total quadratically/m);
    const window = (await cli(...gpt4o, '--context', 'window:5')).stdout;
    expect(window).toMatch(/^growth: context window:5: each prompt holds system \+ goal \+ the last 5 steps [^]*then stays at 11,500 tokens/m);
    expect(window).not.toMatch(/quadratically/);
  });

  it('--format chart', async () => {
    const chart = (await cli(...gpt4o, '--format', 'chart')).stdout;
    expect(chart).toMatch(/^input tokens per step \(100 steps\); flat line: the 128,000-token context window$/m);
    expect(chart).toMatch(/[┼┤]/);
  });
});

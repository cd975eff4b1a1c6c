/**
 * `--context-window model` on the command line: the brake, the curve's mark, the report's settings and
 * the help all count the max_tokens the loop sends (`--max-output-tokens`, default 4096) against the
 * model's window; `--context-window N` stays the largest prompt.
 */
import { describe, expect, it } from 'vitest';
import { cli } from './run.js';

// Prompt at step n: 500 + (n − 1)·2,200 on gpt-4o's 128,000-token window.
const GPT4O = ['curve', '--model', 'gpt-4o', '--system-tokens', '500', '--output-tokens', '150', '--tool-tokens', '2050', '--steps', '100', '--format', 'json'];

async function curve(...flags: string[]) {
  const out = await cli(...GPT4O, ...flags);
  expect(out.code, out.stderr).toBe(0);
  return JSON.parse(out.stdout);
}

describe('--context-window model counts max_tokens against the window', () => {
  it('curve: stops before step 58 (125,900 + 4,096 > 128,000), at --max-output-tokens 100 before step 59', async () => {
    const model = await curve('--context-window', 'model');
    expect(model.rows).toHaveLength(57);
    expect(model.stop).toEqual({ reason: 'context_overflow', detail: 'next prompt holds 125900 tokens + max_tokens 4096 > context window 128000' });
    expect(model.settings.brakes).toBe('context-window=model');
    const small = await curve('--context-window', 'model', '--max-output-tokens', '100');
    expect(small.rows).toHaveLength(58);
    expect(small.stop.detail).toBe('next prompt holds 128100 tokens + max_tokens 100 > context window 128000');
    expect(small.settings.brakes).toBe('context-window=model,max-output-tokens=100');
  });

  it('an explicit --context-window 128000 is the largest prompt: stops before step 59 whatever max_tokens', async () => {
    for (const flags of [[], ['--max-output-tokens', '100'], ['--max-output-tokens', '8000']]) {
      const explicit = await curve('--context-window', '128000', ...flags);
      expect(explicit.rows).toHaveLength(58);
      expect(explicit.stop.detail).toBe('next prompt holds 128100 tokens, context window 128000');
    }
  });

  it('curve without the brake marks where a real call would fail: step 58', async () => {
    expect((await curve()).marks).toEqual([expect.objectContaining({ step: 58, kind: 'context_window', message: expect.stringContaining('+ max_tokens 4,096 exceed the 128,000-token context window') })]);
    expect((await curve('--max-output-tokens', '100')).marks).toEqual([expect.objectContaining({ step: 59, kind: 'context_window' })]);
  });

  it('replay of synthetic runs: each stops with the window and max_tokens named, and the settings state max_tokens', async () => {
    const out = await cli('replay', 'scenarios/recursive-verification.yaml', '--runs', '3', '--preset', 'none', '--context-window', 'model', '--format', 'json');
    const report = JSON.parse(out.stdout);
    expect(report.settings.brakeSettings).toMatchObject({ contextWindow: 'model', maxOutputTokens: 4096 });
    for (const run of report.runs) {
      expect(run.stopReason).toBe('context_overflow');
      expect(run.stopDetail).toMatch(/^next prompt holds (\d+) tokens \+ max_tokens 4096 > context window 128000$/);
      const prompt = Number(/holds (\d+)/.exec(run.stopDetail)![1]);
      expect(prompt + 4096).toBeGreaterThan(128_000);
    }
  });

  it('the help says so', async () => {
    const help = (await cli('replay', '--help')).stdout.replace(/\s+/g, ' ');
    expect(help).toContain("under --context-window model it counts against the model's window");
    expect(help).toContain("('model': stop before prompt + --max-output-tokens passes the model's window");
  });
});

/**
 * `project`'s prompt crossings and past-window warning count the max_tokens sent against the context
 * window, as the `--context-window model` brake does (kernel/limits.ts promptAllowedTokens): a provider
 * refuses a call whose prompt + max_tokens passes the window, so a recorded run whose prompts stay within
 * the window but pass window − max_tokens is counted and warned; a smaller --max-output-tokens moves it.
 * A synthetic run's provider refuses such a prompt (the run ends there), so it never crosses.
 */
import { describe, expect, it } from 'vitest';
import { PromptCrossings } from '../../src/population/project.js';
import { pastWindowWarnings } from '../../src/report/pastWindowWarnings.js';
import { MINI } from '../helpers.js';
import { cli } from '../cli/run.js';

const rows = (...inputs: number[]) => inputs.map((inputTokens, i) => ({ step: i + 1, inputTokens }));
const windowCrossing = (crossings: PromptCrossings) => crossings.crossings().find((c) => c.kind === 'context_window')!;

describe('prompt crossings count max_tokens against the window', () => {
  it('a prompt within the 128,000-token window but past 128,000 − 4,096 is counted; with max_tokens 100 it is not, one past 127,900 is', () => {
    const byDefault = new PromptCrossings();
    byDefault.add(MINI, rows(100_000, 126_000, 127_000));
    expect(windowCrossing(byDefault)).toEqual({ model: 'mini', kind: 'context_window', aboveInputTokens: 123_904, contextWindowTokens: 128_000, maxOutputTokens: 4096, runs: 1, runsCrossing: 1, firstStep: 2, medianStep: 2 });

    const small = new PromptCrossings({ maxOutputTokens: 100 });
    small.add(MINI, rows(100_000, 126_000, 127_000));
    small.add(MINI, rows(127_000, 127_950));
    expect(windowCrossing(small)).toMatchObject({ aboveInputTokens: 127_900, maxOutputTokens: 100, runs: 2, runsCrossing: 1, firstStep: 2 });
  });

  it('the past-window warning says the window less max_tokens, and is not given under --context-window model', () => {
    const crossings = new PromptCrossings();
    crossings.add(MINI, rows(126_000));
    const [warning] = pastWindowWarnings(crossings.crossings(), false);
    expect(warning!.code).toBe('past_context_window');
    expect(warning!.message).toMatch(/^prompts pass the context window less max_tokens of mini \(128,000 − 4,096 = 123,904 tokens\) in 1 of 1 runs: a provider refuses a call whose prompt \+ max_tokens passes the window/);
    expect(pastWindowWarnings(crossings.crossings(), true)).toEqual([]);
  });

  it('a recorded run whose prompts stay within the window is warned once they pass window − max_tokens; --max-output-tokens 100 moves the line past them', async () => {
    // long-exploration re-priced as gpt-4 (8,192 tokens), cut at 4 steps: its prompts stay within the
    // window (an 8,192-token brake does not stop it) but pass 8,192 − 4,096 at step 3.
    const args = ['scenarios/long-exploration.jsonl', '--model', 'gpt-4', '--max-steps', '4'];
    const within = JSON.parse((await cli('replay', ...args, '--context-window', '8192', '--format', 'json')).stdout);
    expect(within.runs.map((run: { stopReason: string }) => run.stopReason)).toEqual(['max_steps']);
    const project = [...args, '--days', '2', '--trials', '20', '--format', 'json'];
    const past = JSON.parse((await cli('project', ...project)).stdout);
    expect(past.crossings.find((c: { kind: string }) => c.kind === 'context_window')).toMatchObject({ aboveInputTokens: 4096, contextWindowTokens: 8192, maxOutputTokens: 4096, runsCrossing: 1, firstStep: 3 });
    expect(past.warnings.find((w: { code: string }) => w.code === 'past_context_window').message).toMatch(/^prompts pass the context window less max_tokens of gpt-4 \(8,192 − 4,096 = 4,096 tokens\) in 1 of 1 runs: a provider refuses/);
    const text = (await cli('project', ...args, '--days', '2', '--trials', '20')).stdout.replace(/\s+/g, ' ');
    expect(text).toContain('gpt-4: prompts pass the context window less max_tokens (8,192 − 4,096 = 4,096 tokens) in 1 of 1 runs, first at step 3, median step 3.');

    const smaller = JSON.parse((await cli('project', ...project, '--max-output-tokens', '100')).stdout);
    expect(smaller.crossings.find((c: { kind: string }) => c.kind === 'context_window')).toMatchObject({ aboveInputTokens: 8092, runsCrossing: 0 });
    expect(smaller.warnings.map((w: { code: string }) => w.code)).not.toContain('past_context_window');
  });

  it('synthetic runs send no prompt past window − max_tokens: their provider refuses it and the run ends there, so none is counted or warned; --max-output-tokens 100 lets them on', async () => {
    const flags = ['scenarios/flight-search.yaml', '--model', 'gpt-4', '--preset', 'none', '--max-steps', '4'];
    const args = ['project', ...flags, '--days', '2', '--trials', '20', '--format', 'json'];
    const past = JSON.parse((await cli(...args)).stdout);
    expect(past.crossings.find((c: { kind: string }) => c.kind === 'context_window')).toMatchObject({ aboveInputTokens: 4096, runs: 30, runsCrossing: 0 });
    expect(past.warnings.map((w: { code: string }) => w.code)).not.toContain('past_context_window');
    // Some prompts pass 8,192 − 4,096 within the window: those calls are refused (a failed call each), as a provider refuses them.
    const failed = async (...more: string[]) => JSON.parse((await cli('replay', ...flags, ...more, '--format', 'json')).stdout).runs.filter((run: { failedCalls: number }) => run.failedCalls > 0).length;
    expect(await failed()).toBeGreaterThan(0);
    // With max_tokens 100 no prompt passes 8,092 tokens: every call was within the 8,192-token window.
    expect(await failed('--max-output-tokens', '100')).toBe(0);
    const smaller = JSON.parse((await cli(...args, '--max-output-tokens', '100')).stdout);
    expect(smaller.crossings.find((c: { kind: string }) => c.kind === 'context_window')).toMatchObject({ aboveInputTokens: 8092, runsCrossing: 0 });
    expect(smaller.warnings.map((w: { code: string }) => w.code)).not.toContain('past_context_window');
  });

  it('an explicit --context-window n above window − max_tokens lets such prompts through, and is warned as no brake is', async () => {
    const args = ['project', 'scenarios/long-exploration.jsonl', '--model', 'gpt-4', '--max-steps', '4', '--days', '2', '--trials', '20', '--format', 'json'];
    const loose = JSON.parse((await cli(...args, '--context-window', '8192')).stdout);
    expect(loose.warnings.map((w: { code: string }) => w.code)).toContain('past_context_window');
    const model = JSON.parse((await cli(...args, '--context-window', 'model')).stdout);
    expect(model.warnings.map((w: { code: string }) => w.code)).not.toContain('past_context_window');
  });
});

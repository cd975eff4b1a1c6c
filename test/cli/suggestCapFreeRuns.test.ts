/**
 * `project --suggest-cap` on runs that cost $0 (a price table that prices their model at 0) used to say
 * "Suggested per-run budget: $0 (--max-cost 0) … it stops 2 of those 2 runs (100.0%)" and then "A cap at the
 * largest completing run, $0 (--max-cost 0), stops none of them", a flag the CLI refuses ('0' is not a number
 * greater than 0) and two sentences that contradict each other. A $0 budget binds nothing: none is suggested,
 * in one line that says why, and no flag the CLI refuses is printed (population/project.ts suggestCapPico).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { suggestCapPico } from '../../src/population/project.js';
import { suggestCapText } from '../../src/report/suggestCapText.js';
import { cli, tempDir } from './run.js';

/** A run of `model` of two calls, completed. */
const run = (model: string): string =>
  [
    `{"type":"header","schema":"loopcost.trace/1","model":"${model}","provider":"openai","systemTokens":100,"goalTokens":50}`,
    '{"type":"call","outputTokens":10,"toolCalls":[{"name":"read_file","arguments":{"path":"a"},"resultTokens":20}]}',
    '{"type":"call","outputTokens":10,"final":true}',
    '{"type":"end","outcome":"completed"}',
  ].join('\n') + '\n';

/** A LiteLLM-style override that prices gpt-4o at $0. */
const FREE = '{"gpt-4o":{"input_cost_per_token":0,"cache_read_input_token_cost":0,"output_cost_per_token":0,"litellm_provider":"openai","mode":"chat"}}';

function files(models: readonly string[]): { traces: string[]; free: string } {
  const dir = tempDir();
  const traces = models.map((model, i) => {
    const path = join(dir, `run${i}.jsonl`);
    writeFileSync(path, run(model));
    return path;
  });
  const free = join(dir, 'free.json');
  writeFileSync(free, FREE);
  return { traces, free };
}

/** Every `--max-cost VALUE` the text names. */
const capFlags = (text: string): string[] => [...text.matchAll(/--max-cost (\S+?)[),]/g)].map((m) => m[1]!);

describe('project --suggest-cap on runs that cost $0', () => {
  it('suggests no budget, says why in one line, and names no --max-cost 0', async () => {
    const { traces, free } = files(['gpt-4o', 'gpt-4o']);
    const r = await cli('project', ...traces, '--prices-override', free, '--suggest-cap', '0.02', '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    const cap = JSON.parse(r.stdout).suggestCap;
    expect(cap.capUsd).toBeNull();
    expect(cap.stopped).toBe(0);
    expect(cap.text).toBe('No per-run budget is suggested: the 2 runs that complete with no brakes cost $0, and a budget cannot bind runs that cost $0.');
    const table = await cli('project', ...traces, '--prices-override', free, '--suggest-cap', '0.02');
    expect(table.code).toBe(0);
    expect(table.stdout).not.toContain('--max-cost 0');
    expect(table.stdout).not.toContain('Suggested per-run budget');
  });

  it('when all but the share asked cost $0: no budget, and the cap at the largest completing run (more than $0) is one the CLI takes', async () => {
    const { traces, free } = files(['gpt-4o', 'gpt-4o', 'gpt-4o', 'gpt-4o-mini']);
    const r = await cli('project', ...traces, '--prices-override', free, '--suggest-cap', '0.5', '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    const cap = JSON.parse(r.stdout).suggestCap;
    expect(cap.capUsd).toBeNull();
    expect(cap.text).toMatch(/^No per-run budget is suggested: the one that stops at most 50\.0% of the 4 runs that complete with no brakes would be \$0 \(all but at most 50\.0% of them cost \$0\), and a budget cannot bind runs that cost \$0; a cap at the largest completing run, \$[\d.]+ \(--max-cost [\d.]+\), stops none of them\.$/);
    const [flag] = capFlags(cap.text);
    expect(Number(flag)).toBeGreaterThan(0);
    // The flag named is one replay takes.
    const replayed = await cli('replay', traces[3]!, '--max-cost', flag!);
    expect(replayed.code, replayed.stderr).toBe(0);
  });

  it('the rule: a quantile of $0 is no budget; a positive one is the budget', () => {
    expect(suggestCapPico([0, 0], 0.02)).toBeUndefined();
    expect(suggestCapPico([0, 0, 0, 7], 0.5)).toBeUndefined();
    expect(suggestCapPico([0, 5, 7], 0.5)).toBe(5);
    expect(suggestCapPico([], 0.5)).toBeUndefined();
  });

  it('the text with no run completing is unchanged', () => {
    const facts = { share: 0.02, capPico: undefined, largestPico: undefined, completedRuns: 0, stopped: 0, upperShare: 0, boundShare: 0, runsToClaim: 149, modeFlag: '' };
    expect(suggestCapText(facts)).toBe('No run completes, so no cap can be suggested for stopping at most 2.0% of completing runs.');
    expect(suggestCapText({ ...facts, completedRuns: 1, largestPico: 0 })).toBe('No per-run budget is suggested: the one run that completes with no brakes cost $0, and a budget cannot bind runs that cost $0.');
  });
});

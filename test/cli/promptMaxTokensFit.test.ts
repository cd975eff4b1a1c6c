/**
 * A scenario whose smallest first prompt fits the model's window alone but not with the max_tokens its
 * loop sends (4,096 by default) cannot make a single call either: a provider refuses prompt + max_tokens
 * past the window (kernel/providerWindow.ts providerRefuses), so every run stopped provider_refused at its
 * first call, for $0, exit 0, with no word. Every command that runs scenarios now refuses it, as it refuses
 * a prompt past the window alone (scenario/promptFit.ts), naming the max_tokens and how much would fit.
 * `serve` is not: its requests carry their own max_tokens (test/serve/contextWindowMaxTokens.test.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPriceTable } from '../../src/pricing/index.js';
import { parseScenario } from '../../src/scenario/load.js';
import { prepareScenario } from '../../src/scenario/run.js';
import { cli, tempDir } from './run.js';

// keeps-asking's goal is 50 tokens: 126,050 + 4,096 = 130,146 > gpt-4o-mini's 128,000; 1,950 would fit.
const TEXT = readFileSync('scenarios/keeps-asking.yaml', 'utf8').replace('systemTokens: 450', 'systemTokens: 126000');
const PATH = join(tempDir(), 's126k.yaml');
writeFileSync(PATH, TEXT);

const REFUSAL =
  /s126k\.yaml:line 9 field 'systemTokens': every run's first prompt is 126,050 tokens \(systemTokens 126,000 \+ goalTokens 50\); with the max_tokens of 4,096 every request sends \(the default\), 130,146 tokens, more than gpt-4o-mini's context window of 128,000 tokens: no run could make a single call \(its provider refuses a prompt \+ max_tokens past the window; each run would stop at its first call, for \$0\) \(max_tokens must leave room for the prompt: send at most 1,950 \(--max-output-tokens/;

describe('a first prompt that fits the window alone but not with the max_tokens sent', () => {
  it.each([
    ['replay'],
    ['replay --context-window model'],
    ['sweep --grid max-steps=5,10'],
    ['whatif --try max-steps=5'],
    ['project'],
    ['calibrate --grid max-steps=5,10'],
    ['check'],
    ['generate'],
  ])('%s refuses it, exit 2, at its line and field', async (args) => {
    const [command, ...flags] = args.split(' ');
    const r = await cli(command!, PATH, '--runs', '3', ...flags);
    expect(r.code, r.stdout).toBe(2);
    expect(r.stderr).toMatch(REFUSAL);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('a sweep refuses a grid max_tokens that leaves the prompt no room, naming it (not "the default")', async () => {
    const r = await cli('sweep', PATH, '--runs', '3', '--grid', 'max-output-tokens=1000,2000');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/with the max_tokens of 2,000 every request sends, 128,050 tokens, more than/);
  });

  it('with the max_tokens it names, the first call is answered (the one rule: prompt + max_tokens ≤ window)', async () => {
    const r = await cli('replay', PATH, '--runs', '3', '--max-output-tokens', '1950', '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    for (const run of JSON.parse(r.stdout).runs as { steps: number }[]) expect(run.steps).toBeGreaterThanOrEqual(1);
    const sweep = await cli('sweep', PATH, '--runs', '3', '--grid', 'max-output-tokens=1000,1950');
    expect(sweep.code, sweep.stderr).toBe(0);
  });

  it('serve prepares it (each request sends its own max_tokens); other commands do not', () => {
    const scenario = parseScenario(TEXT, 's126k.yaml');
    const prices = loadPriceTable();
    expect(() => prepareScenario(scenario, { prices, served: true })).not.toThrow();
    expect(() => prepareScenario(scenario, { prices })).toThrow(/with the max_tokens of 4,096 every request sends/);
  });
});

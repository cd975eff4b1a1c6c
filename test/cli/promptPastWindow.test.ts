/**
 * A scenario whose fixed prompt (system + goal + promptOverhead.fixedTokens) is larger than its model's
 * window (gpt-4o-mini: 128,000 in the bundled table) cannot make a single call: every command that runs
 * scenarios refuses it, exit 2, naming the file, the line and field, the sizes and the window — by one
 * check (scenario/promptFit.ts, in prepareScenario). A prompt that fits in some runs still runs, and
 * so does one run as a model whose window holds it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';

const KEEPS_ASKING = readFileSync('scenarios/keeps-asking.yaml', 'utf8');

function scenario(name: string, from: string, to: string): string {
  const text = KEEPS_ASKING.replace(from, to);
  expect(text).not.toBe(KEEPS_ASKING);
  const path = join(tempDir(), name);
  writeFileSync(path, text);
  return path;
}

const REFUSAL = /syst200k\.yaml:line 9 field 'systemTokens': every run's first prompt is 200,050 tokens \(systemTokens 200,000 \+ goalTokens 50\), more than gpt-4o-mini's context window of 128,000 tokens: no run could make a single call/;

describe('a fixed prompt larger than the model window', () => {
  const path = scenario('syst200k.yaml', 'systemTokens: 450', 'systemTokens: 200000');

  it.each([
    ['replay'],
    ['whatif', '--try', 'max-steps=5'],
    ['sweep', '--grid', 'max-steps=5,10'],
    ['project'],
    ['calibrate', '--grid', 'max-steps=5,10'],
    ['check'],
    ['generate'],
  ])('%s refuses it, exit 2, at its line and field', async (command, ...flags) => {
    const r = await cli(command, path, ...flags);
    expect(r.code, r.stdout).toBe(2);
    expect(r.stderr).toMatch(REFUSAL);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('the largest count too; the line names the part that is larger', async () => {
    const r = await cli('replay', scenario('systmax.yaml', 'systemTokens: 450', 'systemTokens: 9007199254740991'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/systmax\.yaml:line 9 field 'systemTokens': every run's first prompt is 9,007,199,254,741,041 tokens \(systemTokens 9,007,199,254,740,991 \+ goalTokens 50\)/);
    const goal = await cli('replay', scenario('goal.yaml', 'goalTokens: 50', 'goalTokens: 150000'));
    expect(goal.stderr).toMatch(/goal\.yaml:line 10 field 'goalTokens': every run's first prompt is 150,450 tokens \(systemTokens 450 \+ goalTokens 150,000\)/);
    const overhead = await cli('replay', scenario('overhead.yaml', 'goalTokens: 50', 'goalTokens: 50\npromptOverhead: { fixedTokens: 130000 }'));
    expect(overhead.stderr).toMatch(/field 'promptOverhead\.fixedTokens': every run's first prompt is 130,500 tokens \(systemTokens 450 \+ goalTokens 50 \+ promptOverhead\.fixedTokens 130,000\)/);
  });

  it('a prompt that fits in some runs runs (some are refused: what such a scenario shows); so does a model whose window holds it', async () => {
    const some = await cli('replay', scenario('some.yaml', 'systemTokens: 450', 'systemTokens: { kind: uniform, min: 100000, max: 200000 }'), '--format', 'json');
    expect(some.code, some.stderr).toBe(0);
    const stops = (JSON.parse(some.stdout).runs as { stopReason: string }[]).map((run) => run.stopReason);
    expect(stops).toContain('provider_refused');
    expect(stops.some((stop) => stop !== 'provider_refused')).toBe(true);
    // gpt-4.1's window (~1M tokens) holds 200,050.
    expect((await cli('replay', path, '--model', 'gpt-4.1')).code).toBe(0);
  });

  it('run as a model whose window cannot hold it, the message says so', async () => {
    const fits = scenario('fits.yaml', 'systemTokens: 450', 'systemTokens: 200000');
    writeFileSync(fits, readFileSync(fits, 'utf8').replace('model: gpt-4o-mini', 'model: gpt-4.1'));
    expect((await cli('replay', fits, '--runs', '2')).code).toBe(0);
    const r = await cli('whatif', fits, '--model', 'gpt-4o-mini', '--try', 'max-steps=5');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/more than gpt-4o-mini's context window of 128,000 tokens \(the model given to run it as; the file's is gpt-4\.1\)/);
  });
});

describe('a YAML syntax error on the scenario: line', () => {
  it('replay and check say the file is not valid YAML, with its line and column', async () => {
    const path = join(tempDir(), 'syntaxerr.yaml');
    writeFileSync(path, 'scenario: [unclosed\n');
    for (const command of ['replay', 'check']) {
      const r = await cli(command, path);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/syntaxerr\.yaml:line 1: not valid YAML at column 20: /);
      expect(r.stderr).not.toMatch(/trace format|is not a scenario file/);
    }
  });
});

/**
 * `generate` said nothing of what replay and whatif (and sweep and project, of the window) warn about the same scenario (a model
 * with no cached-input price under `cache: on`): it now says the same `warning:` lines on stderr, after
 * the runs and before the file written is said; stdout stays the JSONL runs. A max_tokens that leaves no
 * room for a prompt in the model's window (the provider refuses every call) is refused, as by the others.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, oneEntryScenario, tempDir } from './run.js';

/** The `warning:` lines of a text, each joined with its indented continuation lines. */
function warnings(text: string): string[] {
  return text.replace(/\n {2,}/g, ' ').split('\n').filter((line) => line.startsWith('warning: '));
}

function expectJsonl(text: string, runs: number): void {
  const lines = text.split('\n').filter((line) => line !== '');
  for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
  expect(lines.filter((line) => (JSON.parse(line) as { type?: string }).type === 'header')).toHaveLength(runs);
}

describe('generate: the warnings other commands give the scenario, on stderr', () => {
  it('cache on with a model the table gives no cached-input price: as replay says it', async () => {
    const path = oneEntryScenario(tempDir(), 'gpt4.yaml', { model: 'gpt-4', runs: '2', context: '{ context: full, cache: on }' });
    const made = await cli('generate', path);
    expect(made.code, made.stderr).toBe(0);
    expectJsonl(made.stdout, 2);
    expect(made.stdout).not.toMatch(/warning/);
    const said = warnings(made.stderr);
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/^warning: --cache on: gpt-4 has no cached-input price in this table/);
    expect(said).toEqual(warnings((await cli('replay', path)).stdout));
  });

  it('max_tokens past the window (the provider refuses every call): refused, as sweep and project refuse it; no file written', async () => {
    const dir = tempDir();
    const path = oneEntryScenario(dir, 'mini.yaml', { runs: '2' });
    const out = join(dir, 'runs.jsonl');
    const made = await cli('generate', path, '--max-output-tokens', '200000', '--out', out);
    expect(made.code, made.stderr).toBe(2);
    const refusal = /mini\.yaml:line 3 field 'systemTokens': every run's first prompt is 10 tokens; with the max_tokens of 200,000 every request sends, 200,010 tokens, more than gpt-4o-mini's context window of 128,000 tokens: no run could make a single call/;
    expect(made.stderr).toMatch(refusal);
    expect(existsSync(out)).toBe(false);
    for (const command of ['sweep', 'project']) expect((await cli(command, path, '--max-output-tokens', '200000')).stderr).toMatch(refusal);
  });

  it('a scenario nothing is said of: stderr empty', async () => {
    const made = await cli('generate', oneEntryScenario(tempDir(), 'ok.yaml', { runs: '2', context: '{ context: full, cache: on }' }));
    expect(made.code, made.stderr).toBe(0);
    expect(made.stderr).toBe('');
  });
});

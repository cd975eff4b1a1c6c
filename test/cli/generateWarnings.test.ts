/**
 * `generate` said nothing of what replay and whatif (and sweep and project, of the window) warn about the same scenario (a model
 * with no cached-input price under `cache: on`; a max_tokens that leaves no room for a prompt in the
 * model's window, so the provider refuses every call): it now says the same `warning:` lines on stderr,
 * after the runs and before the file written is said; stdout stays the JSONL runs.
 */
import { readFileSync } from 'node:fs';
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

  it('max_tokens past the window (the provider refuses every call): as sweep and project say it; --out said last', async () => {
    const dir = tempDir();
    const path = oneEntryScenario(dir, 'mini.yaml', { runs: '2' });
    const out = join(dir, 'runs.jsonl');
    const made = await cli('generate', path, '--max-output-tokens', '200000', '--out', out);
    expect(made.code, made.stderr).toBe(0);
    expectJsonl(readFileSync(out, 'utf8'), 2);
    const said = warnings(made.stderr);
    expect(said).toEqual([expect.stringMatching(/^warning: max_tokens 200,000 leaves no room for a prompt in gpt-4o-mini's window of 128,000 tokens: every call is refused/)]);
    expect(said).toEqual(warnings((await cli('sweep', path, '--max-output-tokens', '200000')).stdout));
    const projected = warnings((await cli('project', path, '--max-output-tokens', '200000')).stdout);
    for (const line of said) expect(projected).toContain(line);
    expect(made.stderr.trimEnd().split('\n').pop()).toMatch(/^loopcost: 2 synthetic runs of .* written to /);
  });

  it('a scenario nothing is said of: stderr empty', async () => {
    const made = await cli('generate', oneEntryScenario(tempDir(), 'ok.yaml', { runs: '2', context: '{ context: full, cache: on }' }));
    expect(made.code, made.stderr).toBe(0);
    expect(made.stderr).toBe('');
  });
});

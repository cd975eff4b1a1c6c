/**
 * A summary trigger at or below the prompt's fixed part (system + goal + summary tokens): after the first
 * summary every prompt passes it, and a summary call is made before every step. `curve` and a scenario file
 * run by `replay`, `whatif` or `project` say so in one warning naming the flag or field and the numbers; a
 * trigger above it says nothing.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';

const CURVE = ['curve', '--model', 'gpt-4o', '--system-tokens', '500', '--output-tokens', '150', '--tool-tokens', '2050', '--steps', '10'];

/** Its warnings in JSON, by code. */
async function warningsOf(...argv: string[]): Promise<{ code: string; message: string }[]> {
  const r = await cli(...argv, '--format', 'json');
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout).warnings ?? [];
}

function summaryScenario(context: string): string {
  const file = join(tempDir(), 'summary.yaml');
  const lines = ['scenario: loopcost.scenario/1', 'model: gpt-4o-mini', 'systemTokens: 500', 'goalTokens: 20', `context: { context: '${context}' }`, 'population:', '  - behaviour: healthy', '    weight: 1', '    steps: 12', '    outputTokens: 100', '    toolResultTokens: 300'];
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

describe('a summary trigger at or below the fixed prompt', () => {
  it('curve --context summary:trigger=10 with 500 system and 2000 summary tokens warns, naming --context and the numbers', async () => {
    const r = await cli(...CURVE, '--context', 'summary:trigger=10,keep=5,tokens=2000');
    expect(r.code).toBe(0);
    expect(r.stdout.replace(/\n {9}/g, ' ')).toContain(
      "warning: --context: trigger=10 is at or below the prompt's fixed part (--system-tokens 500 + --goal-tokens 0 + summary tokens=2000 = 2500 tokens): after the first summary every prompt passes it, so a summary call is made before every step; give a trigger above 2500",
    );
    const said = await warningsOf(...CURVE, '--context', 'summary:trigger=2500,keep=5,tokens=2000');
    expect(said.map((w) => w.code)).toEqual(['summary_every_step']);
    expect(await warningsOf(...CURVE, '--context', 'summary:trigger=2501,keep=5,tokens=2000')).toEqual([]);
    const compared = await warningsOf(...CURVE, '--compare-context', 'full;summary:trigger=100,keep=2,tokens=50');
    expect(compared.map((w) => w.message)).toEqual([expect.stringMatching(/^--compare-context summary:trigger=100,keep=2,tokens=50: trigger=100 is at or below the prompt's fixed part \(.* = 550 tokens\)/)]);
  });

  it("a scenario file's context is named at its line; --context over it is named as --context", async () => {
    const file = summaryScenario('summary:trigger=2000,keep=2,tokens=1500');
    const own = await warningsOf('replay', file, '--runs', '2');
    expect(own.filter((w) => w.code === 'summary_every_step').map((w) => w.message)).toEqual([
      expect.stringMatching(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} line 5 field 'context.context': trigger=2000 is at or below the prompt's fixed part \\(.*systemTokens 500 \\+ goalTokens 20 \\+ summary tokens=1500 = 2020 tokens\\)`)),
    ]);
    const flag = await warningsOf('replay', file, '--runs', '2', '--context', 'summary:trigger=30,keep=2,tokens=10');
    expect(flag.filter((w) => w.code === 'summary_every_step').map((w) => w.message)).toEqual([expect.stringMatching(/^--context: trigger=30 is at or below .* = 530 tokens\)/)]);
    expect((await warningsOf('replay', file, '--runs', '2', '--context', 'summary:trigger=3000,keep=2,tokens=1500')).map((w) => w.code)).not.toContain('summary_every_step');
  });

  it('whatif and project say it of a scenario file as replay does', async () => {
    const file = summaryScenario('summary:trigger=2000,keep=2,tokens=1500');
    const said = (await warningsOf('replay', file, '--runs', '2')).filter((w) => w.code === 'summary_every_step');
    expect(said).toHaveLength(1);
    const whatif = await warningsOf('whatif', file, '--runs', '2', '--try', 'max-steps=5');
    expect(whatif.filter((w) => w.code === 'summary_every_step')).toEqual(said);
    const project = await warningsOf('project', file, '--runs', '2', '--runs-per-day', '10');
    expect(project.filter((w) => w.code === 'summary_every_step')).toEqual(said);
  });
});

/**
 * The summary_every_step warning (report/summaryTriggerWarning.ts) said by check, sweep and calibrate of the
 * scenario files they run, as replay says it: check of each file's settings; sweep and calibrate of each
 * configuration's strategy over each file — the file's `context` where no flag and no grid axis gives one
 * (named at its field), a `--grid context` value over it (named with the value), `--context` (named so) —
 * once per distinct strategy × file, whatever the other axes, and byte-identical under `--workers 2`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './run.js';

type Warning = { code: string; message: string };

async function triggerWarnings(...argv: string[]): Promise<Warning[]> {
  const r = await cli(...argv, '--format', 'json');
  expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(0);
  return ((JSON.parse(r.stdout).warnings ?? []) as Warning[]).filter((w) => w.code === 'summary_every_step');
}

/** A scenario file (`name` in `dir`) of 500 system and 20 goal tokens whose `context` is `context`, with an expectation check can hold it to. */
function summaryScenario(dir: string, name: string, context: string): string {
  const file = join(dir, name);
  const lines = ['scenario: loopcost.scenario/1', 'model: gpt-4o-mini', 'systemTokens: 500', 'goalTokens: 20', `context: { context: '${context}' }`, 'population:', '  - behaviour: healthy', '    weight: 1', '    steps: 12', '    outputTokens: 100', '    toolResultTokens: 300', 'expect:', '  runs:', '    steps: { max: 1000 }'];
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

const EVERY_STEP = 'summary:trigger=2000,keep=2,tokens=1500';

describe('a summary trigger at or below the fixed prompt, under check, sweep and calibrate', () => {
  it("check says it of each scenario file's settings as replay does; --context over them named --context", async () => {
    const dir = tempDir();
    const file = summaryScenario(dir, 'summary.yaml', EVERY_STEP);
    const said = await triggerWarnings('replay', file, '--runs', '2');
    expect(said).toHaveLength(1);
    expect(said[0]!.message).toContain("line 5 field 'context.context': trigger=2000 is at or below");
    expect(await triggerWarnings('check', file, '--runs', '2')).toEqual(said);
    const flag = await triggerWarnings('replay', file, '--runs', '2', '--context', 'summary:trigger=30,keep=2,tokens=10');
    expect(flag.map((w) => w.message)).toEqual([expect.stringMatching(/^--context: trigger=30 is at or below/)]);
    expect(await triggerWarnings('check', file, '--runs', '2', '--context', 'summary:trigger=30,keep=2,tokens=10')).toEqual(flag);
    expect(await triggerWarnings('check', summaryScenario(dir, 'fine.yaml', 'summary:trigger=3000,keep=2,tokens=1500'), '--runs', '2')).toEqual([]);
  });

  it("sweep and calibrate say it of a file's own context once, whatever the other axes, as replay does; --workers 2 the same", async () => {
    const dir = tempDir();
    const file = summaryScenario(dir, 'summary.yaml', EVERY_STEP);
    const said = await triggerWarnings('replay', file, '--runs', '2');
    const outputs: string[] = [];
    for (const workers of ['1', '2']) {
      const r = await cli('sweep', file, '--runs', '4', '--grid', 'max-steps=5,10', '--workers', workers, '--format', 'json');
      expect(r.code, r.stderr).toBe(0);
      expect((JSON.parse(r.stdout).warnings as Warning[]).filter((w) => w.code === 'summary_every_step')).toEqual(said);
      outputs.push(r.stdout);
    }
    expect(outputs[1]).toBe(outputs[0]);
    expect(await triggerWarnings('calibrate', file, '--runs', '2', '--grid', 'max-repeat=2,3')).toEqual(said);
    const flag = await triggerWarnings('replay', file, '--runs', '2', '--context', 'summary:trigger=30,keep=2,tokens=10');
    expect(await triggerWarnings('sweep', file, '--runs', '2', '--grid', 'max-steps=5,10', '--context', 'summary:trigger=30,keep=2,tokens=10')).toEqual(flag);
  });

  it('a --grid context axis replaces the file\'s context: each summary value that passes is named with the value, once per file', async () => {
    const dir = tempDir();
    const a = summaryScenario(dir, 'a.yaml', EVERY_STEP);
    const b = summaryScenario(dir, 'b.yaml', 'full');
    const grid = ['--grid', 'context=full,summary:trigger=30,keep=2,tokens=10,summary:trigger=5000,keep=2,tokens=10', '--grid', 'max-steps=5,10'];
    const said = await triggerWarnings('sweep', a, b, '--runs', '2', ...grid);
    const value = 'summary:trigger=30,keep=2,tokens=10';
    expect(said.map((w) => w.message)).toEqual([
      expect.stringMatching(new RegExp(`^--grid context ${value}: trigger=30 is at or below the prompt's fixed part \\(.*a\\.yaml's systemTokens 500 \\+ goalTokens 20 \\+ summary tokens=10 = 530 tokens\\)`)),
      expect.stringMatching(new RegExp(`^--grid context ${value}: trigger=30 is at or below the prompt's fixed part \\(.*b\\.yaml's systemTokens 500 \\+ goalTokens 20 \\+ summary tokens=10 = 530 tokens\\)`)),
    ]);
    expect(await triggerWarnings('calibrate', a, b, '--runs', '2', ...grid)).toEqual(said);
  });
});

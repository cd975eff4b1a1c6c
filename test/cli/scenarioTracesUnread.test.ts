/**
 * A scenario file with a population AND `traces:` given to a command other than `check`: only check reads
 * `traces:`, so the others ran the population alone and said nothing, even for an entry that matches
 * nothing (`traces: [nosuch/*.jsonl]`). Each now says it once per file in its warnings (the report's, or
 * generate's stderr), through one function (scenarioWarnings.ts unreadTracesWarnings). A scenario with
 * traces and no population is still refused by those commands.
 */
import { describe, expect, it } from 'vitest';
import { cli, oneEntryScenario, tempDir } from './run.js';

/** The `warning:` lines of a text, each joined with its indented continuation lines. */
function warnings(text: string): string[] {
  return text.replace(/\n {2,}/g, ' ').split('\n').filter((line) => line.startsWith('warning: '));
}

const UNREAD = (file: string, instead = 'give those traces to this command as inputs to replay them') => `warning: ${file}: its traces: entries are read by loopcost check only; ${instead}`;

describe("a scenario file's traces: entries, beside its population, outside check", () => {
  const dir = tempDir();
  const both = oneEntryScenario(dir, 'both.yaml', { runs: '2', traces: '[nosuch/*.jsonl]' });
  const plain = oneEntryScenario(dir, 'plain.yaml', { runs: '2' });

  it('replay, whatif, sweep, project and calibrate say it once per file in their reports', async () => {
    for (const argv of [['replay'], ['whatif', '--try', 'max-steps=2'], ['sweep', '--grid', 'max-steps=2,3'], ['project'], ['calibrate']]) {
      const r = await cli(...argv, both, plain);
      expect(r.code, `${argv[0]}: ${r.stderr}`).toBeLessThanOrEqual(1);
      expect(warnings(r.stdout).filter((line) => line.includes('traces:')), argv[0]).toEqual([UNREAD(both)]);
    }
  });

  it('JSON reports hold it as a warning of its own code', async () => {
    for (const command of ['replay', 'sweep']) {
      const r = await cli(command, both, '--format', 'json');
      const found = (JSON.parse(r.stdout) as { warnings: { code: string; message: string }[] }).warnings.filter((w) => w.code === 'scenario_traces_unread');
      expect(found.map((w) => `warning: ${w.message}`), command).toEqual([UNREAD(both)]);
    }
  });

  it('generate says it on stderr', async () => {
    const r = await cli('generate', both);
    expect(r.code, r.stderr).toBe(0);
    // generate reads no traces beside a scenario: it says where they are read.
    expect(warnings(r.stderr)).toEqual([UNREAD(both, 'replay those traces with loopcost replay, or hold them to the expectations with loopcost check')]);
    expect(warnings((await cli('generate', plain)).stderr)).toEqual([]);
  });

  it('a file without traces: says nothing of it; check reads the entry (and refuses one that matches nothing)', async () => {
    const r = await cli('replay', plain);
    expect(r.stdout).not.toMatch(/traces: entries/);
    const checked = await cli('check', both);
    expect(checked.stdout + checked.stderr).not.toMatch(/read by loopcost check only/);
    expect(checked.stderr).toMatch(/nosuch/);
  });

  it('a scenario with traces and no population is still refused (no synthetic population)', async () => {
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const only = join(dir, 'only.yaml');
    writeFileSync(only, 'scenario: loopcost.scenario/1\ntraces: [nosuch/*.jsonl]\n');
    const r = await cli('replay', only);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/has no synthetic population/);
  });
});

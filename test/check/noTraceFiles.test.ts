/**
 * In one check, a scenario whose `traces:` brings in only scenario files (left out with a warning, as
 * another scenario's traces are read with them) is refused saying so — not as though --skip-bad had left
 * it no run — with the line of its `traces:`; mixed with bad files under --skip-bad, both are counted.
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../cli/run.js';

function scenario(dir: string, name: string, traces: readonly string[]): string {
  const path = join(dir, `${name}.yaml`);
  writeFileSync(path, ['scenario: loopcost.scenario/1', `name: ${name}`, `traces: ${JSON.stringify(traces)}`, 'expect:', '  runs: { steps: { max: 100 } }', ''].join('\n'));
  return path;
}

/** `a.yaml` names `scen/` (a scenario file only), `b.yaml` names `tr/` (the reference run). */
function twoScenarios(): { dir: string; a: string; b: string } {
  const dir = tempDir();
  mkdirSync(join(dir, 'scen'));
  copyFileSync('scenarios/reference-sum-of-squares.yaml', join(dir, 'scen', 'other.yaml'));
  mkdirSync(join(dir, 'tr'));
  copyFileSync('scenarios/reference-sum-of-squares.jsonl', join(dir, 'tr', 'good.jsonl'));
  return { dir, a: scenario(dir, 'a', ['scen']), b: scenario(dir, 'b', ['tr']) };
}

describe('a scenario whose traces: found only scenario files, beside one with traces', () => {
  it('is refused naming what its entries found, with no word of --skip-bad (given or not)', async () => {
    const { dir, a, b } = twoScenarios();
    for (const flags of [[], ['--skip-bad']]) {
      const r = await cli('check', a, b, ...flags);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(
        `${a}:line 3 field 'traces': its traces: entries found 1 scenario file (${join(dir, 'scen', 'other.yaml')}), not read as a trace, and no trace file: no run to check; nothing was written`,
      );
      expect(r.stderr).not.toContain('--skip-bad left it no run');
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('with a bad trace file beside the scenario file, under --skip-bad: both are named', async () => {
    const { a, b, dir } = twoScenarios();
    writeFileSync(join(dir, 'scen', 'broken.jsonl'), '{bad\n');
    const r = await cli('check', a, b, '--skip-bad');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('its traces: entries found 1 scenario file');
    expect(r.stderr).toContain('and 1 trace file with problems, which --skip-bad left out: no run to check');
  });

  it('three scenario files found are all named, as every message lists a few names (someNames)', async () => {
    const { a, b, dir } = twoScenarios();
    for (const name of ['p.yaml', 'q.yaml']) copyFileSync('scenarios/reference-sum-of-squares.yaml', join(dir, 'scen', name));
    const r = await cli('check', a, b);
    expect(r.code).toBe(2);
    const at = (name: string) => join(dir, 'scen', name);
    expect(r.stderr).toContain(`its traces: entries found 3 scenario files (${at('other.yaml')}, ${at('p.yaml')} and ${at('q.yaml')}), not read as traces, and no trace file`);
  });
});

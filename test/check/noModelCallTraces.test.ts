/**
 * In one check, a scenario whose `traces:` folder holds only sessions with no model call (left out of a
 * walk, as another scenario's traces are read with them: import/inputSet.ts noModelCallFiles) is refused
 * saying that every file it found holds no model call, with the line of its `traces:`, with or without
 * --skip-bad. Before, it was told "every trace file it names has problems: --skip-bad left it no run" —
 * though nothing was bad and --skip-bad was not given.
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

/** `a.yaml` names `tr/` (the reference run), `b.yaml` names `empty/`: a session cut before its first reply and a summary-only one. */
function twoScenarios(): { dir: string; a: string; b: string; empty: string[] } {
  const dir = tempDir();
  mkdirSync(join(dir, 'tr'));
  copyFileSync('scenarios/reference-sum-of-squares.jsonl', join(dir, 'tr', 'good.jsonl'));
  mkdirSync(join(dir, 'empty'));
  const empty = [join(dir, 'empty', 'cut.jsonl'), join(dir, 'empty', 'summary.jsonl')];
  copyFileSync('test/fixtures/no-model-call/claude-code-user-only.jsonl', empty[0]!);
  writeFileSync(empty[1]!, '{"type":"summary","summary":"Fix the login redirect loop","leafUuid":"0b6f4c2e-9d0e-4a4f-8f0e-3d9c1f5a7b21"}\n');
  return { dir, a: scenario(dir, 'a', ['tr']), b: scenario(dir, 'b', ['empty']), empty };
}

describe('a scenario whose traces: found only files of no model call, beside one with traces', () => {
  it('is refused saying every file it found holds no model call, with no word of --skip-bad (given or not)', async () => {
    const { a, b, empty } = twoScenarios();
    for (const flags of [[], ['--skip-bad']]) {
      const r = await cli('check', a, b, ...flags);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(
        `${b}:line 3 field 'traces': every file its traces: entries found (2 files: ${empty[0]} and ${empty[1]}) holds no model call (summary-only or empty sessions): no run to check; nothing was written`,
      );
      expect(r.stderr).not.toContain('--skip-bad left it no run');
      expect(r.stderr).not.toContain('has problems');
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('beside a scenario file: both kinds are named', async () => {
    const { dir, a, b } = twoScenarios();
    copyFileSync('scenarios/reference-sum-of-squares.yaml', join(dir, 'empty', 'other.yaml'));
    const r = await cli('check', a, b);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`its traces: entries found 1 scenario file (${join(dir, 'empty', 'other.yaml')}), not read as a trace, and 2 files of no model call (`);
    expect(r.stderr).not.toContain('no trace file');
  });
});

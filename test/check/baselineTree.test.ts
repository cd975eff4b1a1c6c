/**
 * A check baseline says whether it was written by `check --tree` (each session tree one run) or without it
 * (each recorded run on its own): the two measure unlike things, so a check whose --tree differs from the
 * baseline's is refused (exit 2, the baseline's `tree` field named, what to do), where before it compared
 * them silently (a tree's cost against a part's: a DRIFT, or a pass, that meant nothing). The per-agent limits
 * a tree baseline was judged under are stored with each scenario's settings and said when they change.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../cli/run.js';

const SESSION = 'test/fixtures/claude-code/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl';

function sessionScenario(dir: string): string {
  const path = join(dir, 'sessions.yaml');
  writeFileSync(path, ['scenario: loopcost.scenario/1', 'name: sessions', `traces: [${resolve(SESSION)}]`, 'brakes: { max-cost: 2 }', 'expect:', '  population: { completionRate: { min: 0 } }', ''].join('\n'));
  return path;
}

describe('a check baseline and --tree', () => {
  it('a baseline written by check --tree says so; a check without --tree against it is refused, naming the field and what to do', async () => {
    const dir = tempDir();
    const scenario = sessionScenario(dir);
    const baseline = join(dir, 'baseline.json');
    const written = await cli('check', '--tree', scenario, '--update-baseline', baseline);
    expect(written.code, written.stderr).toBe(0);
    const file = JSON.parse(readFileSync(baseline, 'utf8'));
    expect(file.tree).toBe(true);
    expect(file.scenarios[0].settings.subagent).toBe('none');
    expect(file.scenarios[0].recordedRuns).toBe(1);

    const without = await cli('check', scenario, '--baseline', baseline);
    expect(without.code).toBe(2);
    expect(without.stderr).toContain(`${baseline} field 'tree'`);
    expect(without.stderr).toContain('the baseline was written by check --tree (each session tree judged as one run), and this check has no --tree');
    expect(without.stderr).toContain(`--tree --baseline ${baseline}`);
    expect(without.stderr).not.toMatch(/\n\s+at /);

    // Judged as it was written: compared, no drift.
    const same = await cli('check', '--tree', scenario, '--baseline', baseline, '--format', 'json');
    expect(same.code, same.stderr).toBe(0);
    expect((JSON.parse(same.stdout).drift.rows as { status: string }[]).every((row) => row.status === 'ok')).toBe(true);
  });

  it('a baseline written without --tree: a check --tree against it is refused; its file holds no tree field', async () => {
    const dir = tempDir();
    const scenario = sessionScenario(dir);
    const baseline = join(dir, 'baseline.json');
    expect((await cli('check', scenario, '--update-baseline', baseline)).code).toBe(0);
    const file = JSON.parse(readFileSync(baseline, 'utf8'));
    expect(file.tree).toBeUndefined();
    expect(file.scenarios[0].settings.subagent).toBeUndefined();
    const tree = await cli('check', '--tree', scenario, '--baseline', baseline);
    expect(tree.code).toBe(2);
    expect(tree.stderr).toContain(`${baseline} field 'tree'`);
    expect(tree.stderr).toContain('the baseline was written by a check without --tree');
    expect(tree.stderr).toContain(`--tree --update-baseline ${baseline}`);
    expect((await cli('check', scenario, '--baseline', baseline)).code).toBe(0);
  });

  it('per-agent limits changed since a tree baseline are said beside the scenario’s figures', async () => {
    const dir = tempDir();
    const scenario = sessionScenario(dir);
    const baseline = join(dir, 'baseline.json');
    expect((await cli('check', '--tree', scenario, '--update-baseline', baseline)).code).toBe(0);
    const limited = await cli('check', '--tree', scenario, '--baseline', baseline, '--subagent-max-steps', '1', '--format', 'json');
    expect(limited.code).not.toBe(2);
    const changes = JSON.parse(limited.stdout).drift.changes as { changes: { setting: string; change: string }[] }[];
    expect(changes[0]!.changes).toContainEqual(expect.objectContaining({ setting: 'per-agent limits', change: 'subagent-max-steps none → 1' }));
  });
});

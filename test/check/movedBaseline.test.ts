/**
 * A baseline copied away from where `--update-baseline` wrote it (a reviewer's `cp baseline.json ci/`):
 * its scenarios are keyed by their path relative to its directory, so none matched and the check failed
 * every scenario GONE beside as many `new` ones, exit 1, with no word of why. It is refused now (exit 2),
 * saying where the keys point and what to do (src/check/movedBaseline.ts). A baseline whose scenarios
 * were all renamed is no moved one: it still reports them gone and new.
 */
import { copyFileSync, mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { refuseMovedBaseline } from '../../src/check/movedBaseline.js';
import { cli, oneEntryScenario, tempDir } from '../cli/run.js';

/** A project with two scenarios under scenarios/ and a baseline written beside them. */
async function project(): Promise<{ root: string; scenarios: string; baseline: string }> {
  const root = tempDir();
  const scenarios = join(root, 'scenarios');
  mkdirSync(scenarios);
  oneEntryScenario(scenarios, 'a.yaml', { name: 'a', runs: '5' });
  oneEntryScenario(scenarios, 'b.yaml', { name: 'b', runs: '5' });
  const baseline = join(root, 'baseline.json');
  const wrote = await cli('check', scenarios, '--update-baseline', baseline);
  expect(wrote.code, wrote.stderr).toBe(0);
  return { root, scenarios, baseline };
}

describe('check --baseline of a baseline moved from where it was written', () => {
  it('is refused (exit 2): its keys point elsewhere, and the message says keep it there or write it again (it was 2 GONE, exit 1)', async () => {
    const { root, scenarios, baseline } = await project();
    const elsewhere = join(root, 'ci');
    mkdirSync(elsewhere);
    copyFileSync(baseline, join(elsewhere, 'baseline.json'));
    const moved = await cli('check', scenarios, '--baseline', join(elsewhere, 'baseline.json'));
    expect(moved.code).toBe(2);
    expect(moved.stdout).toBe('');
    expect(moved.stderr).toContain(`${join(elsewhere, 'baseline.json')}: none of its 2 scenarios matched the 2 checked: they are keyed by their path relative to the baseline's directory`);
    expect(moved.stderr).toMatch(/so its a\.yaml is \S*\/ci\/scenarios\/a\.yaml from here, while this check read \S*\/scenarios\/a\.yaml/);
    expect(moved.stderr).toContain('keep the baseline where --update-baseline wrote it');
    // Where it was written, it matches.
    expect((await cli('check', scenarios, '--baseline', baseline)).code).toBe(0);
  });

  it('scenarios renamed (no file name in common) are still gone and new, exit 1', async () => {
    const { scenarios, baseline } = await project();
    renameSync(join(scenarios, 'a.yaml'), join(scenarios, 'a2.yaml'));
    renameSync(join(scenarios, 'b.yaml'), join(scenarios, 'b2.yaml'));
    const renamed = await cli('check', scenarios, '--baseline', baseline);
    expect(renamed.code).toBe(1);
    expect(renamed.stdout).toContain('0 of 2 baseline scenarios matched (2 gone), 2 new scenarios');
  });

  it('refuseMovedBaseline: only when none matched and a gone scenario shares a file name with one checked', () => {
    const moved = { file: 'b.json', matched: 0, gone: ['../x/s/a.yaml'], checked: ['s/a.yaml'] };
    expect(() => refuseMovedBaseline(moved)).toThrow(/none of its 1 scenarios matched the 1 checked/);
    expect(() => refuseMovedBaseline({ ...moved, matched: 1 })).not.toThrow();
    expect(() => refuseMovedBaseline({ ...moved, checked: ['s/c.yaml'] })).not.toThrow();
    expect(() => refuseMovedBaseline({ ...moved, gone: [] })).not.toThrow();
  });
});

/**
 * A baseline copied away from where `--update-baseline` wrote it (a reviewer's `cp baseline.json ci/`):
 * its scenarios are keyed by their path relative to its directory, so none matched and the check failed
 * every scenario GONE beside as many `new` ones, exit 1, with no word of why. It is refused now (exit 2),
 * saying where the keys point and what to do (src/check/movedBaseline.ts) — for files given one by one: a
 * directory given is matched by its files' paths within it (movedDirectory.ts). A baseline whose scenarios
 * were all renamed is no moved one: each is matched as a rename by its `name:` (scenarioMatch.ts).
 */
import { copyFileSync, mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { refuseWrongBaseline } from '../../src/check/movedBaseline.js';
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
  it('files given one by one: refused (exit 2), its keys point elsewhere, and the message says keep it there, check their directory or write it again (it was 2 GONE, exit 1)', async () => {
    const { root, scenarios, baseline } = await project();
    const elsewhere = join(root, 'ci');
    mkdirSync(elsewhere);
    copyFileSync(baseline, join(elsewhere, 'baseline.json'));
    // Their directory given, they are matched by their paths within it (movedDirectory.test.ts).
    expect((await cli('check', scenarios, '--baseline', join(elsewhere, 'baseline.json'))).code).toBe(0);
    const moved = await cli('check', join(scenarios, 'a.yaml'), join(scenarios, 'b.yaml'), '--baseline', join(elsewhere, 'baseline.json'));
    expect(moved.code).toBe(2);
    expect(moved.stdout).toBe('');
    expect(moved.stderr).toContain(`${join(elsewhere, 'baseline.json')}: wrong baseline? it holds `);
    expect(moved.stderr).toContain("none of its 2 scenarios matched the 2 checked: they are keyed by their path relative to the baseline's directory");
    expect(moved.stderr).toMatch(/so its a\.yaml is \S*\/ci\/scenarios\/a\.yaml from here, while this check read \S*\/scenarios\/a\.yaml/);
    expect(moved.stderr).toContain('keep the baseline where --update-baseline wrote it, beside the paths it names; or check the directory that holds the scenario files');
    // Where it was written, it matches.
    expect((await cli('check', scenarios, '--baseline', baseline)).code).toBe(0);
  });

  it('scenarios renamed (no file name in common) are matched by their names, compared as themselves: exit 0', async () => {
    const { scenarios, baseline } = await project();
    renameSync(join(scenarios, 'a.yaml'), join(scenarios, 'a2.yaml'));
    renameSync(join(scenarios, 'b.yaml'), join(scenarios, 'b2.yaml'));
    const renamed = await cli('check', scenarios, '--baseline', baseline);
    expect(renamed.code).toBe(0);
    expect(renamed.stdout).toContain('2 of 2 baseline scenarios matched (2 renamed), 0 baseline figures drifted');
  });

  it('unnamed scenarios of the very same runs renamed cannot be told apart: none matched, exit 2 (wrong baseline?)', async () => {
    const root = tempDir();
    const scenarios = join(root, 'scenarios');
    mkdirSync(scenarios);
    oneEntryScenario(scenarios, 'a.yaml', { runs: '5' });
    oneEntryScenario(scenarios, 'b.yaml', { runs: '5' });
    const baseline = join(root, 'baseline.json');
    expect((await cli('check', scenarios, '--update-baseline', baseline)).code).toBe(0);
    renameSync(join(scenarios, 'a.yaml'), join(scenarios, 'a2.yaml'));
    renameSync(join(scenarios, 'b.yaml'), join(scenarios, 'b2.yaml'));
    const r = await cli('check', scenarios, '--baseline', baseline);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('wrong baseline? it holds ');
  });

  it('refuseWrongBaseline: movedOnly refuses only when a baseline scenario shares a file name with one checked; else always', () => {
    const moved = { file: 'b.json', holds: ['../x/s/a.yaml'], checked: ['s/a.yaml'] };
    expect(() => refuseWrongBaseline({ ...moved, movedOnly: true })).toThrow(/none of its 1 scenarios matched the 1 checked: they are keyed/);
    expect(() => refuseWrongBaseline({ ...moved, checked: ['s/c.yaml'], movedOnly: true })).not.toThrow();
    expect(() => refuseWrongBaseline({ ...moved, checked: ['s/c.yaml'] })).toThrow(/wrong baseline\? it holds \.\.\/x\/s\/a\.yaml; the check found s\/c\.yaml/);
  });
});

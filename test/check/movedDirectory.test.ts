/**
 * A scenarios directory moved away from its baseline (src/check/movedDirectory.ts). A baseline written by
 * `check scenarios/ --update-baseline baseline.json` keys its files `scenarios/a.yaml` (their path from the
 * baseline's directory), so the directory copied elsewhere and checked against the same baseline, or moved
 * together with its baseline put inside it, matched none and was refused (exit 2) as a moved baseline, with
 * the advice to write it again. A directory given is now matched by its files' paths within it: the same
 * scenarios pass, from any working directory; a scenario removed or added there is still gone or new; and a
 * baseline under two directories of which holds the files alike is refused, naming both.
 */
import { cpSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, oneEntryScenario, tempDir } from '../cli/run.js';

/** A repository with scenarios/ (a.yaml, b.yaml, named) and baseline.json beside it, written by `check scenarios/`. */
async function repository(): Promise<{ root: string; scenarios: string; baseline: string }> {
  const root = tempDir();
  const scenarios = join(root, 'repo', 'scenarios');
  mkdirSync(scenarios, { recursive: true });
  oneEntryScenario(scenarios, 'a.yaml', { name: 'a', runs: '5' });
  oneEntryScenario(scenarios, 'b.yaml', { name: 'b', runs: '5' });
  const baseline = join(root, 'repo', 'baseline.json');
  const wrote = await cli('check', scenarios, '--update-baseline', baseline);
  expect(wrote.code, wrote.stderr).toBe(0);
  return { root, scenarios, baseline };
}

const flat = (text: string) => text.replace(/\s+/g, ' ');

/** `loopcost check ARGV` run from `dir` (the in-process CLI reads relative paths from the working directory). */
async function checkFrom(dir: string, ...argv: string[]) {
  const here = process.cwd();
  process.chdir(dir);
  try {
    return await cli('check', ...argv);
  } finally {
    process.chdir(here);
  }
}

describe('check --baseline of a scenarios directory moved away from it', () => {
  it('the directory moved with its baseline put inside it: matched by the paths within it, exit 0 (was exit 2, moved baseline)', async () => {
    const { root, scenarios, baseline } = await repository();
    const moved = join(root, 'elsewhere', 'loopcost');
    mkdirSync(join(root, 'elsewhere'));
    renameSync(scenarios, moved);
    renameSync(baseline, join(moved, 'baseline.json'));
    const r = await cli('check', moved, '--baseline', join(moved, 'baseline.json'));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('2 of 2 baseline scenarios matched, 0 baseline figures drifted');
    // Said how: the keys line names the directory and the baseline's, and how to key them where they are.
    expect(flat(r.stdout)).toContain(`keys: the scenario files of ${moved} are matched by their paths within it as the baseline's under`);
    expect(flat(r.stdout)).toContain(`(2 matched): none of them is where the baseline names it`);
    expect(flat(r.stdout)).toContain(`write the baseline again: run the same check with --update-baseline ${join(moved, 'baseline.json')}`);
    // Written again there, it keys them where they are: no note.
    expect((await cli('check', moved, '--baseline', join(moved, 'baseline.json'), '--update-baseline', join(moved, 'baseline.json'))).code).toBe(0);
    const again = await cli('check', moved, '--baseline', join(moved, 'baseline.json'));
    expect(again.code).toBe(0);
    expect(again.stdout).not.toContain('keys:');
  });

  it('the directory copied to another path, checked from another working directory with relative paths: exit 0', async () => {
    const { root, scenarios, baseline } = await repository();
    const copy = join(root, 'copy', 'scenarios-v2');
    cpSync(scenarios, copy, { recursive: true });
    const work = join(root, 'work');
    mkdirSync(work);
    const r = await checkFrom(work, relative(work, copy), '--baseline', relative(work, baseline), '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { passed: boolean; drift: { scenarios: Record<string, number>; keysNote?: string } };
    expect(report.passed).toBe(true);
    expect(report.drift.scenarios).toMatchObject({ inBaseline: 2, matched: 2, gone: 0, new: 0 });
    expect(report.drift.keysNote).toContain(`the scenario files of ${join('..', 'copy', 'scenarios-v2')} are matched by their paths within it`);
    // The original, still where it was, matches as before (no note).
    const original = await checkFrom(work, relative(work, scenarios), '--baseline', relative(work, baseline));
    expect(original.code, original.stderr).toBe(0);
    expect(original.stdout).not.toContain('keys:');
  });

  it('a real mismatch in the moved directory: a scenario removed is GONE (shown where it was in it), one added is new, exit 1', async () => {
    const { root, scenarios, baseline } = await repository();
    const moved = join(root, 'moved');
    renameSync(scenarios, moved);
    rmSync(join(moved, 'b.yaml'));
    oneEntryScenario(moved, 'c.yaml', { runs: '5', seed: '7' }, { outputTokens: '20' });
    const junit = join(root, 'junit.xml');
    const r = await cli('check', moved, '--baseline', baseline, '--junit', junit);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toContain('1 of 2 baseline scenarios matched (1 gone), 1 new scenario');
    expect(r.stdout).toMatch(new RegExp(`^${join(moved, 'b.yaml').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} +scenario +GONE: not checked$`, 'm'));
    expect(r.stdout).toMatch(/c\.yaml +scenario +new: not in the baseline/);
    expect(readFileSync(junit, 'utf8')).toContain(`<failure type="gone" message="${join(moved, 'b.yaml')}: in the baseline, not checked">`);
  });

  it('two directories of the baseline hold the moved files alike: refused (exit 2), naming both and what to do', async () => {
    const root = tempDir();
    for (const dir of ['x', 'y']) {
      mkdirSync(join(root, dir));
      oneEntryScenario(join(root, dir), 'a.yaml', { name: `${dir}-a`, runs: '5' });
    }
    const baseline = join(root, 'baseline.json');
    expect((await cli('check', join(root, 'x'), join(root, 'y'), '--update-baseline', baseline)).code).toBe(0);
    const z = join(root, 'z');
    mkdirSync(z);
    oneEntryScenario(z, 'a.yaml', { runs: '5' });
    const r = await cli('check', z, '--baseline', baseline);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const err = flat(r.stderr);
    expect(err).toContain(`none of the scenario files in ${z} is where the baseline names it`);
    expect(err).toContain(`they are as much the baseline's under ${join(root, 'x')}/ and ${join(root, 'y')}/ (1 file each): which were moved there cannot be told`);
    expect(err).toContain(`start a baseline for ${z}: run the same check with --update-baseline FILE`);
  });
});

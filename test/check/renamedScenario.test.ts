/**
 * A CI owner's review of `loopcost check` against a baseline:
 * 1. Renaming a scenario file while loosening its brakes failed only as "1 gone, 1 new", and the advice
 *    (--update-baseline) then accepted it with exit 0, max-steps 12 → 1000 never said. A scenario found under a
 *    new path is now matched as a rename of a gone one (by its `name:`, else by its synthetic runs), compared as
 *    that scenario, and accepting says what it accepts (scenarioMatch.ts).
 * 2. A baseline none of whose scenarios matched was exit 1 (another scenario set) or exit 2 (the same files
 *    through a linked directory, compared as spelled); now always exit 2, "wrong baseline?", and keys are
 *    compared with links followed, so the linked run matches (movedBaseline.ts, scenarioKey.ts).
 * 3. Suggested commands quote a path a shell would split (shellWord).
 */
import { copyFileSync, mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, oneEntryScenario, tempDir } from '../cli/run.js';

const flat = (text: string) => text.replace(/\s+/g, ' ');

/** springfield-weather.yaml and production-mix.yaml in `root/s`, with a baseline `root/s/b.json` written. */
async function project(): Promise<{ dir: string; baseline: string }> {
  const dir = join(tempDir(), 's');
  mkdirSync(dir);
  for (const file of ['springfield-weather.yaml', 'production-mix.yaml']) copyFileSync(join('scenarios', file), join(dir, file));
  const baseline = join(dir, 'b.json');
  const wrote = await cli('check', dir, '--update-baseline', baseline);
  expect(wrote.code, wrote.stderr).toBe(0);
  return { dir, baseline };
}

/** The reviewer's edit: the brakes loosened, the expectations that held them dropped. */
function loosen(file: string, edit: (text: string) => string = (text) => text): void {
  const text = readFileSync(file, 'utf8')
    .replace('brakes: { preset: reference }', 'brakes: { preset: reference, max-steps: 1000, max-cost: 100 }')
    .replace('stopReason: max_steps, steps: { max: 12 }, costUsd: { max: 0.003 }', 'stopReason: timeout');
  writeFileSync(file, edit(text));
}

describe('check: a renamed scenario is compared as the one it was', () => {
  it('renamed (same name:) with its brakes loosened: brakes loosened, worst case rose, renamed from; JUnit brake failures; exit 1', async () => {
    const { dir, baseline } = await project();
    const renamed = join(dir, 'weather.yaml');
    renameSync(join(dir, 'springfield-weather.yaml'), renamed);
    loosen(renamed);
    const junit = join(dir, '..', 'j.xml');
    const r = await cli('check', dir, '--baseline', baseline, '--junit', junit);
    expect(r.code).toBe(1);
    const text = flat(r.stdout);
    expect(text).toMatch(/FAIL: .* 2 of 2 baseline scenarios matched \(1 renamed\), .*2 brakes loosened, worst case per run rose in 1 scenario/);
    expect(text).toContain(`renamed: ${renamed}: renamed from `);
    expect(text).toContain('springfield-weather.yaml (the same name: "springfield weather"): compared as that scenario');
    expect(text).toMatch(/brakes loosened: \S*weather\.yaml: max-steps 12 → 1000, max-cost 0\.5 → 100/);
    expect(text).not.toContain('GONE');
    expect(text).toContain('key a renamed scenario by its new path');
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain('type="brake"');
    expect(xml).not.toContain('type="gone"');
  });

  it('accepting it with --update-baseline says what it accepts (the loosened brakes), as without the rename', async () => {
    const { dir, baseline } = await project();
    const renamed = join(dir, 'weather.yaml');
    renameSync(join(dir, 'springfield-weather.yaml'), renamed);
    loosen(renamed);
    const r = await cli('check', dir, '--baseline', baseline, '--update-baseline', baseline);
    expect(r.code).toBe(0);
    const text = flat(r.stdout);
    expect(text).toMatch(/PASS: .*\(1 renamed\).*2 brakes loosened, worst case per run rose in 1 scenario \(accepted: the baseline written again\)/);
    expect(text).toMatch(/brakes loosened: \S*weather\.yaml: max-steps 12 → 1000, max-cost 0\.5 → 100: .*accepted: the baseline holds it now/);
    expect(text).toContain('the baseline written again keys it by its new path');
    // Written again, the baseline keys it by its new path: the next check matches it as it is.
    const stored = JSON.parse(readFileSync(baseline, 'utf8')) as { scenarios: { source: string }[] };
    expect(stored.scenarios.map((s) => s.source).sort()).toEqual(['production-mix.yaml', 'weather.yaml']);
    const next = await cli('check', dir, '--baseline', baseline);
    expect(next.code).toBe(0);
    expect(flat(next.stdout)).not.toContain('renamed');
  });

  it('unnamed, renamed and its name dropped: matched by its synthetic runs (the same agents), its loosened brakes said', async () => {
    const { dir, baseline } = await project();
    const renamed = join(dir, 'weather.yaml');
    renameSync(join(dir, 'springfield-weather.yaml'), renamed);
    loosen(renamed, (text) => text.replace('name: springfield weather\n', ''));
    const r = await cli('check', dir, '--baseline', baseline);
    expect(r.code).toBe(1);
    const text = flat(r.stdout);
    expect(text).toContain('(1 renamed)');
    expect(text).toContain('(the same synthetic runs: its seed and the population entry each run drew)');
    expect(text).toContain('2 brakes loosened');
  });

  it('a new scenario of another name beside a gone one stays new and gone, and the gone note says how to carry a rename', async () => {
    const { dir, baseline } = await project();
    const other = join(dir, 'weather.yaml');
    renameSync(join(dir, 'springfield-weather.yaml'), other);
    writeFileSync(other, readFileSync(other, 'utf8').replace('name: springfield weather', 'name: another').replace('runs: 20', 'runs: 21'));
    const r = await cli('check', dir, '--baseline', baseline);
    expect(r.code).toBe(1);
    const text = flat(r.stdout);
    expect(text).toContain('1 of 2 baseline scenarios matched (1 gone), 1 new scenario');
    expect(text).toContain("if a new scenario is a gone one renamed, give it the gone one's `name:`");
  });
});

describe('check: a baseline none of whose scenarios matched', () => {
  it('another scenario set: exit 2, wrong baseline?, naming what it holds and what the check found (was exit 1, 0 of N matched)', async () => {
    const { baseline } = await project();
    const others = join(tempDir(), 'others');
    mkdirSync(others);
    oneEntryScenario(others, 'x.yaml', { name: 'x', runs: '3' });
    const r = await cli('check', others, '--baseline', baseline);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const err = flat(r.stderr);
    expect(err).toContain(`${baseline}: wrong baseline? it holds `);
    expect(err).toMatch(/it holds \S*production-mix\.yaml and \S*springfield-weather\.yaml; the check found \S*others\/x\.yaml: none of its 2 scenarios matched the 1 checked/);
    expect(err).toContain('compare with the baseline written for these scenarios (--baseline FILE)');
  });

  it('the same files through a linked directory match (paths compared with links followed)', async () => {
    const { dir, baseline } = await project();
    const linked = join(dir, '..', 'sc');
    symlinkSync(dir, linked);
    const r = await cli('check', linked, '--baseline', baseline);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('2 of 2 baseline scenarios matched, 0 baseline figures drifted');
    // A baseline written through the link keys the same files alike.
    const through = join(linked, 'b2.json');
    expect((await cli('check', linked, '--update-baseline', through)).code).toBe(0);
    const keys = (JSON.parse(readFileSync(through, 'utf8')) as { scenarios: { source: string }[] }).scenarios.map((s) => s.source);
    expect(keys.sort()).toEqual(['production-mix.yaml', 'springfield-weather.yaml']);
  });
});

describe('check: suggested commands quote a path with a space', () => {
  it('the written line, next: and accept-it lines give the path as one shell word', async () => {
    const dir = join(tempDir(), 'my s');
    mkdirSync(dir);
    copyFileSync(join('scenarios', 'springfield-weather.yaml'), join(dir, 'springfield-weather.yaml'));
    const baseline = join(dir, 'b l.json');
    const wrote = await cli('check', dir, '--update-baseline', baseline);
    expect(wrote.code).toBe(0);
    expect(wrote.stderr).toContain(`compare later runs with --baseline '${baseline}'`);
    loosen(join(dir, 'springfield-weather.yaml'));
    const r = await cli('check', dir, '--baseline', baseline);
    expect(r.code).toBe(1);
    const text = flat(r.stdout);
    expect(text).toContain(`accept it: run the same check with --update-baseline '${baseline}'`);
    expect(text).toContain(`next: to accept an intended change, write the baseline again: run the same check with --update-baseline '${baseline}' (and commit the file)`);
    const missing = await cli('check', dir, '--baseline', join(dir, 'no such.json'));
    expect(missing.code).toBe(2);
    expect(flat(missing.stderr)).toContain(`loopcost check '${dir}' --update-baseline '${join(dir, 'no such.json')}'`);
  });
});

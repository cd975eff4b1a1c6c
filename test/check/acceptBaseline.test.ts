/**
 * The accept flow a failing check suggests — "run the same check with --update-baseline FILE" — accepts in
 * one command: the check that writes again the very baseline it compared with exits 0 when its
 * expectations hold, its verdict saying what it accepted (review s24-r1: it exited 1, trials/maxrepeat/u.txt).
 * Written to another file, the comparison still fails; an expectation that fails still fails.
 * And `--tolerance 1`, read as 100%, is refused (a bare number of 1 or more), as `5` is; `100%` is taken.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { flightGate } from './flightGate.js';
import { cli } from '../cli/run.js';


const loosen = (file: string) => writeFileSync(file, readFileSync(file, 'utf8').replace('brakes: { preset: reference }', 'brakes: { preset: reference, max-repeat: 10 }').replace('runs: 30', 'runs: 20'));

describe('loopcost check --baseline FILE --update-baseline FILE accepts what it found', () => {
  it('exits 0, says it accepted, and the next check passes', async () => {
    const { file, baseline } = await flightGate();
    loosen(file);
    expect((await cli('check', file, '--baseline', baseline)).code).toBe(1);
    const accept = await cli('check', file, '--baseline', baseline, '--update-baseline', baseline);
    expect(accept.code, accept.stdout).toBe(0);
    expect(accept.stdout).toMatch(/^loopcost check: PASS: .*, 1 brake loosened, fewer runs than the baseline in 1 scenario \(accepted: the baseline written again\)\n/);
    expect(accept.stdout.replace(/\s+/g, ' ')).toContain(`next: accepted: the differences above are the baseline now, written again to ${baseline} (--update-baseline); commit it`);
    expect((await cli('check', file, '--baseline', baseline)).code).toBe(0);
  });

  it('every line and JUnit testcase says it was accepted, not how to accept it; JUnit counts no failure', async () => {
    const { dir, file, baseline } = await flightGate();
    loosen(file);
    const junit = join(dir, 'check.xml');
    const before = await cli('check', file, '--baseline', baseline, '--junit', junit);
    expect(before.stdout.replace(/\s+/g, ' ')).toMatch(/brakes loosened: .*tighten it back, or if intended, accept it: run the same check with --update-baseline/);
    expect(readFileSync(junit, 'utf8')).toMatch(/<testsuites name="loopcost check" tests="\d+" failures="2" /);
    const accept = await cli('check', file, '--baseline', baseline, '--update-baseline', baseline, '--junit', junit);
    const text = accept.stdout.replace(/\s+/g, ' ');
    expect(text).not.toMatch(/accept it: run the same check/);
    expect(text).toMatch(/brakes loosened: .*max-repeat 3 → 10: .*the next one may\); accepted: the baseline holds it now \(written again to /);
    expect(text).toMatch(/runs dropped: .*\); accepted: the baseline holds it now \(written again to /);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(/<testsuites name="loopcost check" tests="\d+" failures="0" /);
    expect(xml).not.toContain('<failure type="brake"');
    expect(xml).toContain('<system-out>accepted (the baseline written again): brake loosened: max-repeat 3 → 10');
    expect(xml).toContain('<system-out>accepted (the baseline written again): fewer runs than the baseline');
  });

  it('the same file by another name accepts too; JSON passed and drift.accepted say so', async () => {
    const { dir, file, baseline } = await flightGate();
    loosen(file);
    const other = `${dir}/./${relative(dir, baseline)}`;
    const json = await cli('check', file, '--baseline', baseline, '--update-baseline', other, '--format', 'json');
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout);
    expect([report.passed, report.brakesLoosened, report.runsDropped, report.drift.accepted, report.scenarios[0].passed]).toEqual([true, 1, 1, other, true]);
  });

  it('written to another file, the comparison still fails', async () => {
    const { dir, file, baseline } = await flightGate();
    loosen(file);
    const r = await cli('check', file, '--baseline', baseline, '--update-baseline', join(dir, 'next.json'));
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^loopcost check: FAIL: /);
  });

  it('an expectation that fails still fails the check', async () => {
    const { file, baseline } = await flightGate();
    writeFileSync(file, readFileSync(file, 'utf8').replace('completionRate: { min: 0.65 }', 'completionRate: { min: 0.99 }'));
    expect((await cli('check', file, '--baseline', baseline, '--update-baseline', baseline)).code).toBe(1);
  });
});

describe('check --tolerance: a bare number of 1 or more is refused', () => {
  it.each([
    ['1', "'1' would mean 100%: write 1% or 0.01"],
    ['1.0', "'1.0' would mean 100%: write 1.0% or 0.01"],
    ['+1', "'+1' would mean 100%: write 1% or 0.01"],
    ['5', "'5' would mean 500%: write 5% or 0.05"],
  ])('%s: exit 2, saying what it would mean and what to write', async (tolerance, said) => {
    const { file, baseline } = await flightGate();
    const r = await cli('check', file, '--baseline', baseline, '--tolerance', tolerance);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`<command line> field '--tolerance': ${said}`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it.each(['100%', '1%', '0.01', '0.5', '0'])('%s is taken', async (tolerance) => {
    const { file, baseline } = await flightGate();
    expect((await cli('check', file, '--baseline', baseline, '--tolerance', tolerance)).code).toBe(0);
  });
});

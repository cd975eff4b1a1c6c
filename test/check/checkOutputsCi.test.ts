/**
 * `check`'s outputs as CI consumes them. What a review found: `--junit` and `--update-baseline` were
 * written before the report, so a run that failed to write it (exit 2, "nothing written") left them
 * behind; `--format json` said `failed: 0` and each scenario `passed: true` where the table said
 * "FAIL … 5 baseline figures drifted" and the JUnit file held 5 failures; an expectation's limit was
 * display text only (`≤ $0.003`); `--out x.xml` was told the format follows `.json, .csv, or .txt`
 * (check refuses .csv), and `--junit /dev/stdout` put the XML into the JSON report on stdout.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, cli, tempDir } from '../cli/run.js';

const ASKING = 'scenarios/keeps-asking.yaml';
const REFERENCE = 'scenarios/reference-sum-of-squares.yaml';
const linux = process.platform === 'linux';

describe.runIf(linux)('every output or none: a check that exits 2 while writing leaves none of them', () => {
  it('--out /dev/full: no --junit, no --update-baseline left; an old JUnit file is kept as it was', async () => {
    const dir = tempDir();
    const junit = join(dir, 'ok.xml');
    const baseline = join(dir, 'ok.json');
    writeFileSync(junit, 'old\n');
    const r = await cli('check', ASKING, '--junit', junit, '--update-baseline', baseline, '--out', '/dev/full', '--format', 'json');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("loopcost: /dev/full field '--out': cannot be written: no space left on the device (choose another --out path)\n");
    expect(readdirSync(dir)).toEqual(['ok.xml']);
    expect(readFileSync(junit, 'utf8')).toBe('old\n');
  });

  it('--update-baseline /dev/full: no --out report, no JUnit file left (whichever output fails)', async () => {
    const dir = tempDir();
    const r = await cli('check', ASKING, '--junit', join(dir, 'j.xml'), '--update-baseline', '/dev/full', '--out', join(dir, 'r.json'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^loopcost: \/dev\/full field '--update-baseline': cannot be written/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('standard output redirected to a file that cannot take the report: no JUnit file left (the built CLI)', () => {
    const dir = tempDir();
    // At most 2 KiB a file (SIGXFSZ ignored: the write past it fails): the JSON report (~2.8 KB) does not fit, the JUnit XML (~0.4 KB) does.
    const args = [process.execPath, BIN, 'check', ASKING, '--format', 'json', '--junit', join(dir, 'j.xml')].map((arg) => `'${arg}'`).join(' ');
    const r = spawnSync('bash', ['-c', `trap '' XFSZ; ulimit -f 2; exec ${args} > '${join(dir, 'stdout.json')}'`], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^loopcost: standard output cannot be written/);
    expect(readdirSync(dir)).toEqual(['stdout.json']);
  });

  it('all written when all can be: the report, the JUnit file and the baseline, announced as before', async () => {
    const dir = tempDir();
    const [out, junit, baseline] = ['r.json', 'j.xml', 'b.json'].map((name) => join(dir, name));
    const r = await cli('check', ASKING, '--junit', junit!, '--update-baseline', baseline!, '--out', out!);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n').filter((line) => line !== '')).toEqual([
      `loopcost: report written to ${out} (json)`,
      `loopcost: JUnit report written to ${junit}`,
      `loopcost: baseline of 1 scenario written to ${baseline} (compare later runs with --baseline ${baseline})`,
    ]);
    expect(readdirSync(dir).sort()).toEqual(['b.json', 'j.xml', 'r.json']);
    expect(JSON.parse(readFileSync(out!, 'utf8')).passed).toBe(true);
  });
});

describe('check --format json says what the table and the JUnit file say of a baseline', () => {
  it('drifted figures: counted in the summary, and the scenario is not passed (its expectations are)', async () => {
    const dir = tempDir();
    const baseline = join(dir, 'kb.json');
    expect((await cli('check', ASKING, '--update-baseline', baseline)).code).toBe(0);
    const junit = join(dir, 'kj.xml');
    const r = await cli('check', ASKING, '--baseline', baseline, '--max-steps', '8', '--format', 'json', '--junit', junit);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout);
    const driftRows = report.drift.rows.filter((row: { status: string }) => row.status === 'drift').length;
    expect(driftRows).toBe(5);
    expect({ passed: report.passed, failed: report.failed, drifted: report.drifted, gone: report.gone, brakesRemoved: report.brakesRemoved, worstCaseRose: report.worstCaseRose }).toEqual({
      passed: false,
      failed: 0,
      drifted: 5,
      gone: 0,
      brakesRemoved: 0,
      worstCaseRose: 0,
    });
    const [scenario] = report.scenarios;
    expect({ passed: scenario.passed, expectationsPassed: scenario.expectationsPassed, drifted: scenario.drifted }).toEqual({ passed: false, expectationsPassed: true, drifted: 5 });
    // The JUnit file's failures are the summary's: expectations failed plus every baseline failure.
    const failures = Number(/<testsuites [^>]*failures="(\d+)"/.exec(readFileSync(junit, 'utf8'))![1]);
    expect(failures).toBe(report.failed + report.drifted + report.gone + report.brakesRemoved + report.worstCaseRose);
    // The table's verdict counts the same.
    const table = await cli('check', ASKING, '--baseline', baseline, '--max-steps', '8');
    expect(table.stdout).toMatch(/^loopcost check: FAIL: 1 scenario, 3 expectations, 0 failed, 1 of 1 baseline scenario matched, 5 baseline figures drifted\n/);
  });

  it('a brake removed and a scenario gone: counted, and the summary passes only when every count is 0', async () => {
    const dir = tempDir();
    const baseline = join(dir, 'b.json');
    expect((await cli('check', ASKING, REFERENCE, '--update-baseline', baseline)).code).toBe(0);
    const same = JSON.parse((await cli('check', ASKING, REFERENCE, '--baseline', baseline, '--format', 'json')).stdout);
    expect([same.passed, same.drifted, same.gone, same.brakesRemoved, same.worstCaseRose]).toEqual([true, 0, 0, 0, 0]);
    expect(same.scenarios.map((s: { passed: boolean }) => s.passed)).toEqual([true, true]);

    // Every brake off (`--preset none`), and the other scenario not checked: each failure counted, as the table and JUnit count it.
    const junit = join(dir, 'j.xml');
    const r = await cli('check', ASKING, '--baseline', baseline, '--preset', 'none', '--format', 'json', '--junit', junit);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout);
    expect({ failed: report.failed, drifted: report.drifted, gone: report.gone, brakesRemoved: report.brakesRemoved, worstCaseRose: report.worstCaseRose }).toEqual({ failed: 3, drifted: 5, gone: 1, brakesRemoved: 4, worstCaseRose: 1 });
    expect(report.brakesRemoved).toBe(report.drift.brakesRemoved.length);
    const [scenario] = report.scenarios;
    expect([scenario.passed, scenario.drifted, scenario.brakesRemoved, scenario.worstCaseRose]).toEqual([false, 5, 4, 1]);
    // JUnit fails besides each brake removed its modes (repeat-mode, repeat-action, budget-mode: drift.removedWithBrake), under the names they pass under.
    expect(report.drift.removedWithBrake.map((m: { brake: string }) => m.brake).sort()).toEqual(['budget-mode', 'repeat-action', 'repeat-mode']);
    expect(readFileSync(junit, 'utf8')).toMatch(/<testsuites name="loopcost check" tests="\d+" failures="17"/);
    const table = await cli('check', ASKING, '--baseline', baseline, '--preset', 'none');
    expect(table.stdout).toMatch(/^loopcost check: FAIL: 1 scenario, 3 expectations, 3 failed, 1 of 2 baseline scenarios matched \(1 gone\), 5 baseline figures drifted, 4 brakes removed, worst case per run rose in 1 scenario\n/);
  });

  it('without a baseline: no baseline counts, a scenario passes as its expectations do', async () => {
    const report = JSON.parse((await cli('check', ASKING, '--max-steps', '30', '--format', 'json')).stdout);
    expect(report).not.toHaveProperty('drifted');
    expect(report.scenarios[0]).not.toHaveProperty('drifted');
    expect({ passed: report.scenarios[0].passed, expectationsPassed: report.scenarios[0].expectationsPassed }).toEqual({ passed: false, expectationsPassed: false });
  });
});

describe("each expectation's limit as numbers beside its text", () => {
  it('limitMin / limitMax in limitUnit (USD, share, steps), a stopReason as its list', async () => {
    const report = JSON.parse((await cli('check', ASKING, REFERENCE, '--format', 'json')).stdout);
    const rows = report.scenarios.flatMap((s: { expectations: object[] }) => s.expectations) as Record<string, unknown>[];
    const byName = (name: string) => rows.find((row) => row.expectation === name)!;
    expect(byName('runs.steps')).toMatchObject({ limit: '≤ 12', limitMax: 12, limitUnit: 'steps' });
    expect(byName('runs.steps')).not.toHaveProperty('limitMin');
    expect(byName('runs.costUsd')).toMatchObject({ limit: '≤ $0.003', limitMax: 0.003, limitUnit: 'USD' });
    expect(byName('runs.stopReason')).toMatchObject({ limit: 'one of repeat, max_steps', limitStopReasons: ['repeat', 'max_steps'] });
    expect(byName('runs.stopReason')).not.toHaveProperty('limitUnit');
    const shares = rows.filter((row) => row.limitUnit === 'share');
    expect(shares.length).toBeGreaterThan(0);
    for (const row of shares) {
      // The text shows a percentage; the numbers are the share the scenario file wrote (0..1).
      const shown = Number(/([\d.]+)%/.exec(String(row.limit))![1]) / 100;
      expect(row.limitMin ?? row.limitMax).toBeCloseTo(shown, 12);
    }
  });
});

describe('the output flags check refuses, in its own words', () => {
  it('--out x.xml: the extensions check writes (not .csv), and --junit for JUnit XML', async () => {
    const dir = tempDir();
    const r = await cli('check', ASKING, '--junit', join(dir, 'x.xml'), '--out', join(dir, 'x.xml'));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`'${join(dir, 'x.xml')}' ends in .xml, which names no format loopcost writes (check's report follows --out's extension: .json, or .txt for a table)`);
    expect(r.stderr).toContain('JUnit XML is written with --junit FILE');
    expect(r.stderr).not.toMatch(/\.csv/);
    expect(readdirSync(dir)).toEqual([]);
    const md = await cli('check', ASKING, '--out', join(dir, 'x.md'));
    expect(md.stderr).toMatch(/ends in \.md, which names no format loopcost writes \(check's report follows --out's extension: \.json, or \.txt for a table\)/);
    expect(md.stderr).not.toMatch(/\.csv/);
    // .csv, a format other commands write: refused as check's own (ci-gate.test.ts).
    expect((await cli('check', ASKING, '--out', join(dir, 'x.csv'))).stderr).toMatch(/check writes a table or JSON, not csv/);
  });

  it.runIf(linux)('--junit or --update-baseline naming standard output (/dev/stdout, /dev/fd/1, /proc/self/fd/1) is refused as `-` is', async () => {
    for (const path of ['/dev/stdout', '/dev/fd/1', '/proc/self/fd/1']) {
      const r = await cli('check', ASKING, '--junit', path, '--format', 'json');
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`field '--junit': '${path}' is where this process's standard output goes: it carries check's report, and the file --junit writes would be mixed into it`);
    }
    const baseline = await cli('check', ASKING, '--update-baseline', '/dev/stdout');
    expect(baseline.code).toBe(2);
    expect(baseline.stderr).toContain("field '--update-baseline': '/dev/stdout' is where this process's standard output goes");
  });

  it.runIf(linux)('--junit naming the file standard output is redirected to is refused (the built CLI); /dev/null is not', () => {
    const dir = tempDir();
    const file = join(dir, 'out.txt');
    const fd = openSync(file, 'w');
    const r = spawnSync(process.execPath, [BIN, 'check', ASKING, '--format', 'json', '--junit', file], { stdio: ['ignore', fd, 'pipe'], encoding: 'utf8' });
    closeSync(fd);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`field '--junit': '${file}' is where this process's standard output goes`);
    expect(readFileSync(file, 'utf8')).toBe('');
    const nul = spawnSync('bash', ['-c', `exec '${process.execPath}' '${BIN}' check '${ASKING}' --junit /dev/null > /dev/null`], { encoding: 'utf8' });
    expect(nul.status).toBe(0);
    expect(existsSync(join(dir, 'j.xml'))).toBe(false);
  });
});

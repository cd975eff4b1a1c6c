/**
 * `check --baseline` as a CI gate must not pass when it should fail. Two wrong verdicts an audit found:
 * a `--prices-override` of a model no scenario uses (or any other change of the table's identity) labelled
 * every money regression a "price change" and passed; and a baseline whose scenario paths matched none
 * of the checked ones (written from another directory) passed with every row `new` or `gone`.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../cli/run.js';

const RECURSIVE = 'scenarios/recursive-verification.yaml';
const REFERENCE = 'scenarios/reference-sum-of-squares.yaml';
const ASKING = 'scenarios/keeps-asking.yaml';
const BIN = resolve('bin/loopcost.js');

interface Row {
  scenario: string;
  figure: string;
  baseline: number | null;
  measured: number | null;
  atBaselinePrices?: number | null;
  status: string;
}

function litellm(dir: string, name: string, models: Record<string, [number, number]>): string {
  const entries = Object.fromEntries(Object.entries(models).map(([model, [input, output]]) => [model, { input_cost_per_token: input, output_cost_per_token: output, litellm_provider: 'openai', mode: 'chat', max_input_tokens: 128000 }]));
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(entries));
  return path;
}

async function jsonCheck(...args: string[]): Promise<{ code: number; report: { passed: boolean; drift: { rows: Row[]; scenarios: Record<string, number>; priceChange?: unknown; tableChange?: unknown; pricesUnknown?: unknown } } }> {
  const r = await cli('check', ...args, '--format', 'json');
  expect(r.stderr).not.toMatch(/internal error/);
  return { code: r.code, report: JSON.parse(r.stdout) };
}

/** A baseline as format 1 held it: each run's cost range (`…costUsd` expectations) in picodollars, as formats 1 and 2 wrote it. */
function formatOne(scenarios: { expectations: Record<string, unknown> }[], sources: readonly string[]): object[] {
  return scenarios.map((s, i) => ({
    ...s,
    source: sources[i],
    expectations: Object.fromEntries(
      Object.entries(s.expectations).map(([key, value]) => {
        const range = value as { min: number; max: number } | null;
        return key.endsWith('.costUsd') && range !== null ? [key, { min: Math.round(range.min * 1e12), max: Math.round(range.max * 1e12) }] : [key, value];
      }),
    ),
  }));
}

/**
 * The baselines `check SCENARIOS --update-baseline` wrote, by the scenarios: written once per process, then
 * copied (the same bytes in every temporary directory: each names its scenarios by their paths from there,
 * and every temporary directory is as deep).
 */
const written = new Map<string, string>();

/** `dir/name`: the baseline of the scenarios as they are. */
async function baselineOf(dir: string, name: string, ...scenarios: string[]): Promise<string> {
  const baseline = join(dir, name);
  const key = JSON.stringify(scenarios);
  const known = written.get(key);
  if (known !== undefined) writeFileSync(baseline, known);
  else {
    expect((await cli('check', ...scenarios, '--update-baseline', baseline)).code).toBe(0);
    written.set(key, readFileSync(baseline, 'utf8'));
  }
  return baseline;
}

const byStatus = (rows: readonly Row[], status: string) => rows.filter((row) => row.status === status).map((row) => row.figure);

describe('a price change is a change in the prices of the models run, not in the table', () => {
  it('a --prices-override of a model no scenario uses hides no money drift (the audit: +34% passed as a price change)', async () => {
    const dir = tempDir();
    const baseline = await baselineOf(dir, 'B.json', RECURSIVE);
    const unused = litellm(dir, 'same.json', { 'some-unused-model': [1e-6, 2e-6] });

    const plain = await cli('check', RECURSIVE, '--baseline', baseline, '--tolerance', '5%', '--max-repeat', '4');
    expect(plain.code).toBe(1);
    const overridden = await cli('check', RECURSIVE, '--baseline', baseline, '--tolerance', '5%', '--max-repeat', '4', '--prices-override', unused);
    expect(overridden.code).toBe(1);
    expect(overridden.stdout).toMatch(/^loopcost check: FAIL: 1 scenario, \d+ expectations, 0 failed, 1 of 1 baseline scenario matched, 3 baseline figures drifted, 1 brake loosened$/m);
    expect(overridden.stdout).toMatch(/^scenarios\/recursive-verification\.yaml +costUsd +\$0\.4483 +\$0\.5991 +DRIFT ↑ \+33\.6%$/m);
    expect(overridden.stdout).not.toMatch(/price change/);
    // Said why: the table differs, the model run is priced alike.
    expect(overridden.stdout.replace(/\s+/g, ' ')).toMatch(/price table: the baseline was priced with .*overridden \(sha256 [0-9a-f]{16}\); the model these scenarios run is priced the same in both, so every figure is compared as measured/);
    // The same verdict, row for row, as without the override.
    const rows = (text: string) => text.split('\n').filter((line) => / DRIFT ↑ \+[\d.]+%$/.test(line));
    expect(rows(overridden.stdout)).toEqual(rows(plain.stdout));
  });

  it('under a real price change the runs are measured again under the baseline prices: a brake change made with it is still caught', async () => {
    const dir = tempDir();
    const baseline = await baselineOf(dir, 'B.json', RECURSIVE);
    const dearer = litellm(dir, 'dearer.json', { 'gpt-4o-mini': [1.65e-7, 6.6e-7] });

    // The price change alone: every cost moved, none under the baseline's prices; passes.
    const priced = await jsonCheck(RECURSIVE, '--baseline', baseline, '--prices-override', dearer);
    expect(priced.code).toBe(0);
    expect(priced.report.drift.priceChange).toMatchObject({ models: [{ baseline: { model: 'gpt-4o-mini', pricesPicoPerToken: { input: 150000 } }, now: { model: 'gpt-4o-mini', pricesPicoPerToken: { input: 165000 } } }] });
    expect(byStatus(priced.report.drift.rows, 'drift')).toEqual([]);
    expect(byStatus(priced.report.drift.rows, 'price change')).toContain('costUsd');
    const cost = priced.report.drift.rows.find((row) => row.figure === 'costUsd')!;
    expect(cost.atBaselinePrices).toBe(cost.baseline);
    expect(cost.measured).toBeGreaterThan(cost.baseline! * 1.05);

    // A loosened brake with the price change: the brake drift is DRIFT, measured as without any price change.
    const unchanged = await jsonCheck(RECURSIVE, '--baseline', baseline, '--max-repeat', '4');
    const both = await jsonCheck(RECURSIVE, '--baseline', baseline, '--max-repeat', '4', '--prices-override', dearer);
    expect(both.code).toBe(1);
    expect(both.report.passed).toBe(false);
    expect(byStatus(both.report.drift.rows, 'drift')).toEqual(byStatus(unchanged.report.drift.rows, 'drift'));
    expect(byStatus(both.report.drift.rows, 'drift')).toEqual(['costUsd', 'costPerRunUsd.mean', 'costPerRunUsd.p50']);
    for (const row of both.report.drift.rows) expect(row.atBaselinePrices).toBe(unchanged.report.drift.rows.find((r) => r.figure === row.figure)!.measured);

    // The text report (--junit writes its file beside it and leaves standard output as it is).
    const junit = join(dir, 'check.xml');
    const text = await cli('check', RECURSIVE, '--baseline', baseline, '--max-repeat', '4', '--prices-override', dearer, '--junit', junit);
    expect(text.stdout).toMatch(/^scenario +figure +baseline +measured +at baseline prices +status$/m);
    expect(text.stdout).toMatch(/^scenarios\/recursive-verification\.yaml +costUsd +\$0\.4483 +\$0\.6590 +\$0\.5991 +DRIFT ↑ \+33\.6%$/m);
    expect(text.stdout).toMatch(/^scenarios\/recursive-verification\.yaml +costPerRunUsd\.max +\$0\.0165 +\$0\.0181 +\$0\.0165 +price change$/m);

    // JUnit: the drift names the figure at the baseline's prices; what the price alone moved is a note.
    const xml = readFileSync(junit, 'utf8');
    // In the report's units (as the text table shows them), with what changed since the baseline.
    expect(xml).toMatch(/<testcase classname="recursive verification" name="baseline costUsd">\n {6}<failure type="drift" message="drift ↑ \+33\.6%: costUsd: baseline \$0\.4483, measured \$0\.6590, \$0\.5991 at the baseline&apos;s prices \(tolerance 5%\); changed since the baseline: brakes: max-repeat 3 → 4">/);
    expect(xml).toMatch(/name="baseline costPerRunUsd\.max">\n {6}<system-out>price change, not a brake regression: /);
  });

  it('a format 1 baseline (no model prices) is still read; under another table money that moved is drift, with how to renew it', async () => {
    const dir = tempDir();
    const current = await baselineOf(dir, 'B.json', RECURSIVE);
    const { models: _models, ...rest } = JSON.parse(readFileSync(current, 'utf8'));
    const old = join(dir, 'old.json');
    writeFileSync(old, JSON.stringify({ ...rest, baseline: 'loopcost.check-baseline/1', scenarios: formatOne(rest.scenarios, [RECURSIVE]) }));
    expect((await cli('check', RECURSIVE, '--baseline', old)).code).toBe(0);

    const unused = litellm(dir, 'same.json', { 'some-unused-model': [1e-6, 2e-6] });
    const r = await cli('check', RECURSIVE, '--baseline', old, '--max-repeat', '4', '--prices-override', unused);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^scenarios\/recursive-verification\.yaml +costUsd +\$0\.4483 +\$0\.5991 +DRIFT ↑ \+33\.6%$/m);
    expect(r.stdout.replace(/\s+/g, ' ')).toContain('the baseline (format 1) does not hold the prices of its models, so money that moved counts as drift: write the baseline again with --update-baseline');
  });
});

describe('a baseline matches the same scenario files from any directory, and a baseline scenario not checked fails', () => {
  it('from scenarios/ (`check .`) a baseline written from the repository matches every scenario (the audit: 0 matched, PASS)', async () => {
    const dir = tempDir();
    const baseline = await baselineOf(dir, 'B.json', REFERENCE, ASKING);
    const fromScenarios = (...args: string[]) => spawnSync(process.execPath, [BIN, 'check', 'reference-sum-of-squares.yaml', 'keeps-asking.yaml', '--baseline', baseline, ...args], { cwd: 'scenarios', encoding: 'utf8' });

    const same = fromScenarios();
    expect(same.stderr).toBe('');
    expect(same.status).toBe(0);
    expect(same.stdout).toMatch(/^loopcost check: PASS: 2 scenarios, \d+ expectations, 0 failed, 2 of 2 baseline scenarios matched, 0 baseline figures drifted$/m);
    expect(same.stdout).toMatch(/all 18 figures within tolerance/);

    const cached = fromScenarios('--cache', 'on');
    expect(cached.status).toBe(1);
    expect(cached.stdout).toMatch(/^loopcost check: FAIL: .*, 2 of 2 baseline scenarios matched, \d+ baseline figures drifted$/m);
    expect(cached.stdout).toMatch(/^keeps-asking\.yaml +costUsd +\$\S+ +\$\S+ +DRIFT ↓ -[\d.]+%$/m);
    expect(cached.stdout).not.toMatch(/ new$| GONE$/m);
  });

  it('keys each scenario by its path from the baseline file: the directory moves together, the check runs from anywhere', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'checks'));
    copyFileSync(ASKING, join(dir, 'checks', 'keeps-asking.yaml'));
    const baseline = join(dir, 'checks', 'baseline.json');
    expect((await cli('check', join(dir, 'checks', 'keeps-asking.yaml'), '--update-baseline', baseline, '--runs', '3')).code).toBe(0);
    expect(JSON.parse(readFileSync(baseline, 'utf8')).scenarios.map((s: { source: string }) => s.source)).toEqual(['keeps-asking.yaml']);
    for (const [cwd, file, saved] of [
      [join(dir, 'checks'), 'keeps-asking.yaml', 'baseline.json'],
      [dir, 'checks/keeps-asking.yaml', 'checks/baseline.json'],
    ] as const) {
      const r = spawnSync(process.execPath, [BIN, 'check', file, '--baseline', saved, '--runs', '3'], { cwd, encoding: 'utf8' });
      expect(r.status, r.stdout).toBe(0);
      expect(r.stdout).toMatch(/1 of 1 baseline scenario matched, 0 baseline figures drifted/);
    }
  });

  it('a baseline scenario not checked is GONE and fails, with a hint; the JUnit file carries it as a failure', async () => {
    const dir = tempDir();
    const baseline = await baselineOf(dir, 'B.json', REFERENCE, ASKING);
    const junit = join(dir, 'check.xml');
    const r = await cli('check', REFERENCE, '--baseline', baseline, '--junit', junit);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^loopcost check: FAIL: 1 scenario, 5 expectations, 0 failed, 1 of 2 baseline scenarios matched \(1 gone\), 0 baseline figures drifted$/m);
    expect(r.stdout).toMatch(/^scenarios\/keeps-asking\.yaml +scenario +GONE: not checked$/m);
    expect(r.stdout.replace(/\s+/g, ' ')).toContain('gone: 1 baseline scenario not checked (a failure): check it too, or, if removed on purpose, drop it from the baseline (next)');
    expect(r.stdout.replace(/\s+/g, ' ')).toContain(`next: to drop a scenario removed on purpose, write the baseline again: run the same check with --update-baseline ${baseline} (and commit the file)`);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(/<testsuites name="loopcost check" tests="\d+" failures="1" errors="0">/);
    expect(xml).toContain(`<testsuite name="baseline ${baseline}" file="${baseline}" tests="1" failures="1" errors="0" skipped="0">`);
    expect(xml).toContain('<testcase classname="baseline');
    expect(xml).toMatch(/<failure type="gone" message="scenarios\/keeps-asking\.yaml: in the baseline, not checked">/);

    // Accepted on this one scenario (the same check with --update-baseline): exit 0; the other's file is still
    // there, so its entry is kept (a check of some scenarios drops none of the others), and it stays GONE here.
    const accept = await cli('check', REFERENCE, '--baseline', baseline, '--update-baseline', baseline);
    expect(accept.code).toBe(0);
    expect(accept.stdout.replace(/\s+/g, ' ')).toContain('kept 1 scenario not checked (its entry written back unchanged)');
    expect((await cli('check', REFERENCE, '--baseline', baseline)).code).toBe(1);
  });

  it('a format 1 baseline keyed from another directory matches nothing: refused (exit 2), with how to renew it', async () => {
    const dir = tempDir();
    const current = await baselineOf(dir, 'B.json', REFERENCE, ASKING);
    const { models: _models, ...rest } = JSON.parse(readFileSync(current, 'utf8'));
    const old = join(dir, 'old.json');
    writeFileSync(old, JSON.stringify({ ...rest, baseline: 'loopcost.check-baseline/1', scenarios: formatOne(rest.scenarios, [REFERENCE, ASKING]) }));
    expect((await cli('check', REFERENCE, ASKING, '--baseline', old)).code).toBe(0);
    const r = spawnSync(process.execPath, [BIN, 'check', 'reference-sum-of-squares.yaml', 'keeps-asking.yaml', '--baseline', old], { cwd: 'scenarios', encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.replace(/\s+/g, ' ')).toContain('wrong baseline? it holds ');
    expect(r.stderr.replace(/\s+/g, ' ')).toContain('this baseline (format 1) names scenario files by the path given where it was written');
  });
});

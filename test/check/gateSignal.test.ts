/**
 * `check --baseline` as a CI gate must fail on signal, not noise (a review's findings): a synthetic sample's
 * figures move by chance between two samples of one population (population entries reordered, more runs),
 * so a figure drifts only past the tolerance AND beyond the band resampling explains at 95%, said in the
 * report; the largest run of a sample is not held; a total is not compared across run counts; a brake the
 * baseline had that is now off fails; recorded runs replay exactly and keep the tolerance alone.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../cli/run.js';
import { gate, withoutAgents } from './gateFixture.js';


function edit(file: string, edits: (text: string) => string): void {
  const text = readFileSync(file, 'utf8');
  const edited = edits(text);
  expect(edited).not.toBe(text);
  writeFileSync(file, edited);
}

/** The population's two stuck entries swapped: the same population, another sample of it. */
function swapEntries(text: string): string {
  const [a, b, c] = ['  - behaviour: perfectionist', '  - behaviour: retrier', '  - behaviour: asker'].map((mark) => text.indexOf(mark));
  return text.slice(0, a) + text.slice(b!, c) + text.slice(a, b) + text.slice(c);
}

interface Row {
  figure: string;
  status: string;
  noise?: number | null;
  relativeChange?: number | null;
}

async function checkJson(file: string, baseline: string): Promise<{ code: number; rows: Row[]; report: Record<string, unknown>; stdout: string }> {
  const r = await cli('check', file, '--baseline', baseline, '--format', 'json');
  const report = JSON.parse(r.stdout);
  return { code: r.code, rows: report.drift.rows, report, stdout: r.stdout };
}

let loosenedRun: Promise<{ file: string; r: Awaited<ReturnType<typeof cli>>; junit: string }> | undefined;

/** max-repeat 3 → 10 on the gate's agents, checked against its baseline with --junit: its report and JUnit, made once for the tests that read them. */
function loosened() {
  loosenedRun ??= (async () => {
    const { file, baseline } = await gate();
    edit(file, (text) => text.replace('max-repeat: 3', 'max-repeat: 10'));
    const junit = join(tempDir(), 'check.xml');
    const r = await cli('check', file, '--baseline', baseline, '--junit', junit);
    return { file, r, junit: readFileSync(junit, 'utf8') };
  })();
  return loosenedRun;
}

describe('drift that is signal, not noise', () => {
  it('population entries in another order (no change) pass, the moved figures within noise and its band said (a baseline without agents)', async () => {
    const { file, baseline } = await gate();
    withoutAgents(baseline);
    edit(file, swapEntries);
    const r = await cli('check', file, '--baseline', baseline);
    expect(r.code, r.stdout).toBe(0);
    // The p95 moved -14.1%, past the 5% tolerance: a DRIFT (exit 1) before the noise band.
    expect(r.stdout).toMatch(/costPerRunUsd\.p95 +\$0\.00887 +\$0\.00763 +within noise: ↓ -14\.1% \(±23\.1% at 95% together\)/);
    const said = r.stdout.replace(/\s+/g, ' ');
    expect(said).toContain(`noise: ${file}: at 95% for its figures together (each at 99.4%), resampling its synthetic runs and the baseline's explains completionRate ±6.8 points`);
    // How each band was found: p50 and p95 off the exact bootstrap distribution (no resamples), the others from 1000 drawn.
    expect(said).toMatch(/costPerCompletedUsd ±[\d.]+% \(costPerRunUsd\.p50 and costPerRunUsd\.p95 read off the exact bootstrap distribution, no resample drawn; the others from 1000 seeded resamples of the runs\);/);
    const json = await checkJson(file, baseline);
    expect(json.code).toBe(0);
    const p95 = json.rows.find((row) => row.figure === 'costPerRunUsd.p95')!;
    expect(p95.status).toBe('noise');
    expect(p95.noise).toBeGreaterThan(Math.abs(p95.relativeChange!) * 0.00887);
  });

  it('a brake loosened (max-repeat 3 → 10) on the same agents drifts: no band (the change moved it, not chance)', async () => {
    const { file, r } = await loosened();
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/costPerRunUsd\.mean +\$0\.00292 +\$0\.00331 +DRIFT ↑ \+13\.3%\n/);
    expect(r.stdout.replace(/\s+/g, ' ')).toContain(`same agents: ${file}: its synthetic runs are the agents the baseline ran (its seed, each run drawing the same population entry): what moved, moved with the change, not by chance, and the tolerance alone judges it`);
    expect(r.stdout).not.toMatch(/^noise:/m);
  });

  it('more runs: the total is not compared, the largest run not held, the rest within noise (a baseline without agents)', async () => {
    const { file, baseline } = await gate();
    withoutAgents(baseline);
    edit(file, (text) => text.replace(/^runs: 500$/m, 'runs: 2000'));
    const json = await checkJson(file, baseline);
    // Was: costUsd DRIFT +314.1%, costPerRunUsd.max DRIFT +52.2%, p50 DRIFT +6.2%: exit 1.
    expect(json.code).toBe(0);
    const status = Object.fromEntries(json.rows.map((row) => [row.figure, row.status]));
    expect(status).toMatchObject({ costUsd: 'not compared', 'costPerRunUsd.max': 'not held', 'costPerRunUsd.p50': 'noise' });
    const text = await cli('check', file, '--baseline', baseline);
    expect(text.stdout).toMatch(/costUsd +\$1\.4606 +\$6\.0482 +not compared: totals of different run counts/);
    expect(text.stdout).toMatch(/costPerRunUsd\.max +\$0\.0171 +\$0\.0260 +not held: ↑ \+52\.2% \(the largest run of a sample\)/);
  });

  it('the baseline stores each figure\'s noise, and the same check writes the same bytes', async () => {
    const { file, baseline } = await gate();
    const first = readFileSync(baseline, 'utf8');
    const entry = JSON.parse(first).scenarios[0];
    expect(entry.noise).toEqual({
      completionRate: expect.any(Number),
      falseStopRate: expect.any(Number),
      wastedShare: expect.any(Number),
      costUsd: expect.any(Number),
      costPerRunUsd: { mean: expect.any(Number), p50: expect.any(Number), p95: expect.any(Number) },
      costPerCompletedUsd: expect.any(Number),
    });
    expect((await cli('check', file, '--update-baseline', baseline)).code).toBe(0);
    expect(readFileSync(baseline, 'utf8')).toBe(first);
    edit(file, swapEntries);
    const [a, b] = [await checkJson(file, baseline), await checkJson(file, baseline)];
    expect(a.stdout).toBe(b.stdout);
  });

  it('recorded runs replay exactly: no noise band, the tolerance alone judges them', async () => {
    const dir = tempDir();
    copyFileSync('scenarios/reverify-forever.jsonl', join(dir, 'reverify.jsonl'));
    const file = join(dir, 'rec.yaml');
    writeFileSync(file, 'scenario: loopcost.scenario/1\nname: rec\ntraces: [reverify.jsonl]\nbrakes: { max-repeat: 3 }\n');
    const baseline = join(dir, 'baseline.json');
    expect((await cli('check', file, '--update-baseline', baseline)).code).toBe(0);
    expect(JSON.parse(readFileSync(baseline, 'utf8')).scenarios[0].noise).toBeUndefined();
    edit(file, (text) => text.replace('max-repeat: 3', 'max-repeat: 4'));
    const json = await checkJson(file, baseline);
    expect(json.code).toBe(1);
    expect(json.rows.some((row) => row.status === 'drift')).toBe(true);
    expect(json.rows.every((row) => row.noise === undefined)).toBe(true);
  });
});

describe('a brake the baseline had, now off', () => {
  it('fails, naming each brake and how to accept it, in the report and JUnit (type="brake")', async () => {
    const { file, baseline } = await gate();
    edit(file, (text) => text.replace(' max-cost: 0.10,', '').replace(', timeout: 120', ''));
    const junit = join(tempDir(), 'check.xml');
    const r = await cli('check', file, '--baseline', baseline, '--junit', junit);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^loopcost check: FAIL: .*, 0 baseline figures drifted, 2 brakes removed, worst case per run rose in 1 scenario\n/);
    expect(r.stdout.replace(/\s+/g, ' ')).toContain(
      `brakes removed: ${file}: max-cost (0.1 in the baseline), timeout (120 in the baseline): brakes the baseline had are off (a failure: the runs at hand may not reach them, the next one may); if intended, accept it: run the same check with --update-baseline ${baseline}`,
    );
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain('<testcase classname="support agent" name="baseline brake max-cost">\n      <failure type="brake" message="brake removed: max-cost (0.1 in the baseline), off now">');
    expect(xml).toContain('name="baseline brake timeout"');
    const json = await checkJson(file, baseline);
    expect(json.report.passed).toBe(false);
    expect((json.report.drift as { brakesRemoved: unknown }).brakesRemoved).toEqual([
      { scenario: file, setting: 'brakes', brake: 'max-cost', baseline: '0.1' },
      { scenario: file, setting: 'brakes', brake: 'timeout', baseline: '120' },
    ]);
    // Accepted: the baseline written again.
    expect((await cli('check', file, '--update-baseline', baseline)).code).toBe(0);
    expect((await cli('check', file, '--baseline', baseline)).code).toBe(0);
  });

  it('a brake tightened or added is no removal', async () => {
    const { file, baseline } = await gate();
    edit(file, (text) => text.replace('max-steps: 15,', 'max-steps: 15, max-tokens: 900000,'));
    const json = await checkJson(file, baseline);
    expect((json.report.drift as { brakesRemoved?: unknown }).brakesRemoved).toBeUndefined();
  });
});

describe('JUnit drift failures', () => {
  it('are type="drift", not "expectation"', async () => {
    const { r, junit } = await loosened();
    expect(r.code).toBe(1);
    expect(junit).toMatch(/<testcase classname="support agent" name="baseline costPerRunUsd\.mean">\n {6}<failure type="drift" message="drift ↑ \+13\.3%: costPerRunUsd\.mean: baseline \$0\.00292, measured \$0\.00331 \(tolerance 5%\); changed since the baseline: brakes: max-repeat 3 → 10">/);
  });
});

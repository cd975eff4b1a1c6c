/**
 * A scenario checked on fewer runs than its baseline's fails (review s24-r1: the production mix with
 * `repeat-action: skip` failed at 200 runs and passed at 10; `max-repeat: 50` passed at 5 or 50 runs, with
 * only "synthetic runs: 200 → 10" to show for it). More runs than the baseline's stay fine.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { flightGate } from './flightGate.js';
import { cli, tempDir } from '../cli/run.js';
import { runsDropped } from '../../src/check/runsDropped.js';
import type { BaselineScenario } from '../../src/check/baselineFile.js';
import type { ScenarioCheck } from '../../src/check/run.js';


describe('runsDropped', () => {
  const check = (synthetic: number, recorded: number) => ({ source: 'x.yaml', syntheticRuns: synthetic, recordedRuns: recorded, metrics: { runs: synthetic + recorded } }) as unknown as ScenarioCheck;
  const before = { source: 'x.yaml', syntheticRuns: 200, recordedRuns: 3, figures: { runs: 203 } } as unknown as BaselineScenario;

  it('fewer synthetic or recorded runs than the baseline stored, each named; as many or more, none', () => {
    expect(runsDropped(before, check(10, 3))).toEqual([{ scenario: 'x.yaml', runs: 'synthetic runs', baseline: 200, now: 10 }]);
    expect(runsDropped(before, check(200, 2))).toEqual([{ scenario: 'x.yaml', runs: 'recorded runs', baseline: 3, now: 2 }]);
    expect(runsDropped(before, check(200, 3))).toEqual([]);
    expect(runsDropped(before, check(400, 5))).toEqual([]);
  });

  it('a baseline that stored only the total: fewer runs in all', () => {
    const old = { source: 'x.yaml', figures: { runs: 203 } } as unknown as BaselineScenario;
    expect(runsDropped(old, check(100, 3))).toEqual([{ scenario: 'x.yaml', runs: 'runs', baseline: 203, now: 103 }]);
  });
});

describe('loopcost check: fewer runs than the baseline fail', () => {
  it('runs: 30 → 10 in the file fails, naming the scenario, both counts and what to do; in JSON and JUnit too', async () => {
    const { file, baseline } = await flightGate();
    writeFileSync(file, readFileSync(file, 'utf8').replace('runs: 30', 'runs: 10'));
    const junit = join(tempDir(), 'check.xml');
    const r = await cli('check', file, '--baseline', baseline, '--junit', junit);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/^loopcost check: FAIL: .*, fewer runs than the baseline in 1 scenario\n/);
    expect(r.stdout.replace(/\s+/g, ' ')).toContain(
      `runs dropped: ${file}: synthetic runs 30 → 10: checked on fewer runs than the baseline (a failure: a regression its runs would show may not show in fewer); run 30 synthetic runs (runs: 30 in the scenario file, or --runs 30) again, or if intended, accept it: run the same check with --update-baseline ${baseline}`,
    );
    expect(readFileSync(junit, 'utf8')).toContain('<testcase classname="flight search" name="baseline synthetic runs">\n      <failure type="runs" message="fewer runs than the baseline: synthetic runs 30 → 10">');
    const json = JSON.parse((await cli('check', file, '--baseline', baseline, '--format', 'json')).stdout);
    expect([json.passed, json.runsDropped, json.scenarios[0].passed, json.scenarios[0].runsDropped]).toEqual([false, 1, false, 1]);
    expect(json.drift.runsDropped).toEqual([{ scenario: file, runs: 'synthetic runs', baseline: 30, now: 10 }]);
  });

  it('--runs below the baseline fails; above it does not', async () => {
    const { file, baseline } = await flightGate();
    const fewer = await cli('check', file, '--baseline', baseline, '--runs', '10', '--format', 'json');
    expect(fewer.code).toBe(1);
    expect(JSON.parse(fewer.stdout).runsDropped).toBe(1);
    const more = await cli('check', file, '--baseline', baseline, '--runs', '60', '--format', 'json');
    expect(JSON.parse(more.stdout).runsDropped).toBe(0);
    expect(JSON.parse(more.stdout).drift.runsDropped).toBeUndefined();
  });
});

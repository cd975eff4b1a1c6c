/**
 * A failing `population.falseStopRate` says what it is made of: how many of the runs that complete without
 * brakes a brake stopped, by the brake (stop reason) and the behaviour, in check's failure text and in its
 * JSON (`breakdown`). It used to say only `measured 5.77%`: no brake, no behaviour, no count.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../cli/run.js';
import { falseStopBreakdown, falseStopText } from '../../src/check/evaluate.js';

/** production-mix with a false-stop rate no run mix of it meets. */
function strictScenario(): string {
  const path = join(tempDir(), 'strict.yaml');
  const text = readFileSync('scenarios/production-mix.yaml', 'utf8').replace(/^expect:[\s\S]*?(?=^\S)/m, '');
  writeFileSync(path, `${text.trimEnd()}\nexpect:\n  population:\n    falseStopRate: { max: 0.0001 }\n`);
  return path;
}

interface Entry {
  stopReason: string;
  behaviour?: string;
  runs: number;
}

describe('check: a failing falseStopRate broken down by brake and behaviour', () => {
  it('JSON: stopped, of, and each stop reason × behaviour, adding up to the rate measured', async () => {
    const r = await cli('check', strictScenario(), '--runs', '100', '--format', 'json');
    expect(r.code, r.stderr).toBe(1);
    const [scenario] = JSON.parse(r.stdout).scenarios;
    const result = scenario.expectations.find((e: { expectation: string }) => e.expectation === 'population.falseStopRate');
    expect(result.pass).toBe(false);
    const { stopped, of, byStop } = result.breakdown as { stopped: number; of: number; byStop: Entry[] };
    expect(stopped).toBe(scenario.figures.falseStops);
    expect(stopped / of).toBeCloseTo(result.measured, 12);
    expect(byStop.reduce((sum, entry) => sum + entry.runs, 0)).toBe(stopped);
    expect(byStop.every((entry) => typeof entry.behaviour === 'string' && entry.stopReason !== 'completed')).toBe(true);
    expect(result.detail).toMatch(new RegExp(`^${stopped} of ${of} runs that complete without brakes stopped by a brake: [a-z_]+ \\d+ \\(`));
  });

  it('text: the failure line names the brakes and behaviours', async () => {
    const r = await cli('check', strictScenario(), '--runs', '100');
    expect(r.code).toBe(1);
    const line = r.stdout.replace(/\n\s+/g, ' ').split('\n').find((l) => l.includes('population.falseStopRate measured'));
    expect(line).toMatch(/population\.falseStopRate measured [\d.]+%, limit ≤ 0\.01% \(\d+ of \d+ runs that complete without brakes stopped by a brake: [a-z_]+ \d+ \([a-z ]+ \d+/);
  });

  it('recorded runs are named as such; runs that do not say their baseline give no breakdown', () => {
    const runs = [
      { source: 'a', stopReason: 'repeat' as const, steps: 3, costPico: 1, baselineCompleted: true },
      { source: 'b', stopReason: 'repeat' as const, steps: 3, costPico: 1, baselineCompleted: true, behaviour: 'kb loop' },
      { source: 'c', stopReason: 'completed' as const, steps: 3, costPico: 1, baselineCompleted: true },
      { source: 'd', stopReason: 'max_steps' as const, steps: 3, costPico: 1, baselineCompleted: false },
    ];
    const breakdown = falseStopBreakdown(runs)!;
    expect(breakdown).toEqual({ stopped: 2, of: 3, byStop: [{ stopReason: 'repeat', runs: 1 }, { stopReason: 'repeat', behaviour: 'kb loop', runs: 1 }] });
    expect(falseStopText(breakdown)).toBe('2 of 3 runs that complete without brakes stopped by a brake: repeat 2 (recorded 1, kb loop 1)');
    expect(falseStopBreakdown(runs.map(({ baselineCompleted: _, ...run }) => run))).toBeUndefined();
  });
});

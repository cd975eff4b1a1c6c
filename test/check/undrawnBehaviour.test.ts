/**
 * An expectation of a behaviour no run drew fails (review s25-r2: a repeater at weight 1 of 100 over 50 runs
 * FAILed on seeds 1–3 and PASSed on 4 and 5 with "no runs … pass"; at weight 0 it always passed). Nothing
 * measured it, so a CI gate must not go green on it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../cli/run.js';

function scenario(loopWeight: number): string {
  const file = join(tempDir(), 'rare.yaml');
  writeFileSync(
    file,
    [
      'scenario: loopcost.scenario/1',
      'model: gpt-4o-mini',
      'systemTokens: 300',
      'runs: 20',
      'population:',
      '  - { behaviour: healthy, weight: 1, steps: 3, outputTokens: 100, toolResultTokens: 100 }',
      `  - { behaviour: repeater, name: loop, weight: ${loopWeight}, outputTokens: 100, toolResultTokens: 100 }`,
      'expect:',
      '  behaviours:',
      '    loop: { stopReason: repeat, steps: { max: 12 } }',
      '',
    ].join('\n'),
  );
  return file;
}

describe('check: a behaviour no run drew', () => {
  it('fails each of its expectations, saying nothing measured them and what to do (weight 0)', async () => {
    const r = await cli('check', scenario(0), '--preset', 'reference', '--format', 'json');
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as { passed: boolean; scenarios: { expectations: { expectation: string; pass: boolean; measuredText: string; detail?: string }[] }[] };
    expect(report.passed).toBe(false);
    const results = report.scenarios[0]!.expectations;
    expect(results.map((x) => [x.expectation, x.pass, x.measuredText])).toEqual([
      ['behaviours.loop.stopReason', false, 'no runs'],
      ['behaviours.loop.steps', false, 'no runs'],
    ]);
    for (const x of results) expect(x.detail).toMatch(/^no run drew behaviour loop, so nothing measured this: give it more runs \(runs: in the scenario file, or --runs\) or a larger weight/);
  });

  it('the same expectations pass where the behaviour was drawn and held them', async () => {
    const r = await cli('check', scenario(1), '--preset', 'reference');
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toMatch(/^loopcost check: PASS: 1 scenario, 2 expectations, 0 failed/);
  });
});

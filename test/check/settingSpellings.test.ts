/**
 * A baseline stores each scenario's settings as text (`max-steps=12,max-cost=0.05,…`), written by the one
 * settings formatter from the parsed values, never from the file's text: the same settings written
 * otherwise in the scenario file (key order, `1.2e1` for 12, spacing) store the same text, and a baseline
 * whose parts are in another order (an edit by hand) is compared part by part. Neither is a change.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../cli/run.js';

const WRITTEN = {
  brakes: 'brakes: { max-steps: 12, max-cost: 0.05, timeout: 60, max-repeat: 3 }',
  latency: 'latency: { call: 2500, tool: 600 }',
  context: 'context: { context: "window:3", cache: off }',
};
const OTHERWISE = {
  brakes: 'brakes: {max-repeat: 3.0,   timeout: 6e1, max-cost: 5.0e-2, max-steps: 1.2e1}',
  latency: 'latency: {tool: 6e2,  call: 2.5e3}',
  context: 'context: {cache: off, context: "window:3"}',
};

function scenarioText(lines: typeof WRITTEN): string {
  return readFileSync('scenarios/weekly-report.yaml', 'utf8')
    .replace(/^runs: \d+$/m, 'runs: 4')
    .replace(/^brakes: .*$/m, lines.brakes)
    .replace(/^latency: .*$/m, lines.latency)
    .replace(/^context: .*$/m, lines.context);
}

async function changes(scenario: string, baseline: string): Promise<unknown> {
  const r = await cli('check', scenario, '--baseline', baseline, '--tolerance', '0', '--format', 'json');
  expect(r.code, r.stdout).toBe(0);
  return JSON.parse(r.stdout).drift.changes;
}

describe('settings written otherwise are the same settings', () => {
  it('key order, exponents and spacing in the scenario file, or parts reordered in the baseline, are no change', async () => {
    const dir = tempDir();
    const scenario = join(dir, 's.yaml');
    const baseline = join(dir, 'b.json');
    writeFileSync(scenario, scenarioText(WRITTEN));
    expect((await cli('check', scenario, '--update-baseline', baseline)).code).toBe(0);
    const stored = JSON.parse(readFileSync(baseline, 'utf8'));
    expect(stored.scenarios[0].settings).toMatchObject({ brakes: 'max-steps=12,max-cost=0.05,budget-mode=check,timeout=60,max-repeat=3,repeat-mode=total', context: 'window:3' });

    writeFileSync(scenario, scenarioText(OTHERWISE));
    expect(await changes(scenario, baseline)).toEqual([]);

    const reordered = join(dir, 'reordered.json');
    stored.scenarios[0].settings.brakes = 'repeat-mode=total,max-repeat=3,timeout=60,budget-mode=check,max-cost=0.05,max-steps=12';
    stored.scenarios[0].settings.latency = stored.scenarios[0].settings.latency.split(',').reverse().join(',');
    writeFileSync(reordered, JSON.stringify(stored));
    expect(await changes(scenario, reordered)).toEqual([]);

    // A setting that did change is said, part by part (the brake loosened fails the check: brakesLoosened.test.ts).
    writeFileSync(scenario, scenarioText({ ...OTHERWISE, brakes: OTHERWISE.brakes.replace('max-repeat: 3.0', 'max-repeat: 4') }));
    const loosened = await cli('check', scenario, '--baseline', baseline, '--tolerance', '0', '--format', 'json');
    expect(loosened.code).toBe(1);
    expect(JSON.parse(loosened.stdout).drift.changes).toEqual([{ scenario, changes: [expect.objectContaining({ setting: 'brakes', change: 'max-repeat 3 → 4' })] }]);
  });
});

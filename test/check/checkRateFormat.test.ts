/**
 * `check` shows rates and shares as money: in its one format (`85.5%`, two decimals at most), with more
 * digits only where that rounding would put the figure on the other side of its limit, or on it when it
 * fails (usdBeside.ts, the rule money had). A failing falseStopRate of 0.100001 showed `10%` beside `≤ 10%`;
 * it is `10.0001%`. A limit is shown as written (`≥ 85.0001%`, not `≥ 85%` beside a failing 85%).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluateExpectations, type CheckedRun } from '../../src/check/evaluate.js';
import { percentBeside } from '../../src/check/usdBeside.js';
import { populationMetrics, type RunPair } from '../../src/metrics/population.js';
import { cli, tempDir } from '../cli/run.js';

const runs: CheckedRun[] = [{ source: 's#1', stopReason: 'completed', steps: 3, costPico: 1000 }];
const metrics = populationMetrics(runs.map((r): RunPair => ({ run: { stopReason: r.stopReason, steps: r.steps, costPico: r.costPico, inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, overshootPico: 0 }, baseline: { stopReason: 'completed', steps: 3, costPico: r.costPico } })));

const SCENARIO = `scenario: loopcost.scenario/1
model: gpt-4o-mini
systemTokens: 10
runs: 20
seed: 1
brakes: { max-steps: 10 }
expect: { population: { completionRate: { min: 0.850001 } } }
population:
  - { behaviour: healthy, weight: 1, steps: { kind: uniform, min: 1, max: 12 }, outputTokens: 10, toolResultTokens: 10 }
`;

describe("check's rates: check's one percent format, more digits only where rounding would cross the limit", () => {
  it('a failing rate just over its limit reads as over it, not as the limit', () => {
    const [failing] = evaluateExpectations({ population: { falseStopRate: { max: 0.1 } } }, runs, { ...metrics, falseStopRate: 0.100001 });
    expect(failing).toMatchObject({ measuredText: '10.0001%', limit: '≤ 10%', pass: false });
    // Just under a least rate: 0.8499996 would round to 85%, the limit it fails.
    const [under] = evaluateExpectations({ population: { completionRate: { min: 0.85 } } }, runs, { ...metrics, completionRate: 0.8499996 });
    expect(under).toMatchObject({ measuredText: '84.99996%', limit: '≥ 85%', pass: false });
  });

  it('where rounding crosses nothing, the format as is; a passing rate on its limit stays on it', () => {
    const [passing] = evaluateExpectations({ population: { wastedShare: { max: 0.5 } } }, runs, { ...metrics, wastedShare: 0.1234567 });
    expect(passing).toMatchObject({ measuredText: '12.35%', limit: '≤ 50%', pass: true });
    const [failing] = evaluateExpectations({ population: { wastedShare: { max: 0.1 } } }, runs, { ...metrics, wastedShare: 0.1234567 });
    expect(failing).toMatchObject({ measuredText: '12.35%', pass: false });
    expect(percentBeside(0.1, { max: 0.1 })).toBe('10%');
    expect(percentBeside(0.07, { min: 0.07 })).toBe('7%');
    // A passing 12.345% under ≤ 12.345% would round up to 12.35%, past it: one digit more.
    expect(percentBeside(0.12345, { max: 0.12345 })).toBe('12.345%');
    // Below 1%: two significant digits, more only to stay off the limit (0.0020001 fails ≤ 0.2%).
    expect(percentBeside(0.00020001, { max: 0.1 })).toBe('0.02%');
    expect(percentBeside(0.0020001, { max: 0.002 })).toBe('0.20001%');
    expect(percentBeside(1e-10, { max: 0 })).toBe('1e-8%');
  });

  it('loopcost check: a completion rate just under its least reads as under it, beside the limit as written', async () => {
    // 17 of 20 runs finish under the step cap: 85%, short of 85.0001%.
    const file = join(tempDir(), 's.check.yaml');
    writeFileSync(file, SCENARIO);
    const json = JSON.parse((await cli('check', file, '--format', 'json')).stdout);
    const [rate] = json.scenarios[0].expectations as { measured: number; measuredText: string; limit: string; pass: boolean }[];
    expect(rate).toMatchObject({ measured: 0.85, measuredText: '85%', limit: '≥ 85.0001%', pass: false });
    expect((await cli('check', file)).stdout).toContain('population.completionRate measured 85%, limit ≥ 85.0001%');
  });
});

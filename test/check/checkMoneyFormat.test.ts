/**
 * `check` shows money in one format, passing and failing figures alike (report/money.ts formatUsd, as every
 * report does): `$0.2187` beside `≤ $0.2`, not `$0.2187225`. Only where that rounding would make a figure
 * read as on the other side of its limit (a failing one as equal to it) does it get more digits.
 */
import { describe, expect, it } from 'vitest';
import { evaluateExpectations, type CheckedRun } from '../../src/check/evaluate.js';
import { usdBeside } from '../../src/check/usdBeside.js';
import { populationMetrics, type RunPair } from '../../src/metrics/population.js';
import { usdToPico } from '../../src/money.js';
import { formatUsd } from '../../src/report/money.js';
import { cli, oneEntryScenario, tempDir } from '../cli/run.js';

const run = (source: string, costUsd: number): CheckedRun => ({ source, stopReason: 'completed', steps: 3, costPico: usdToPico(costUsd) });
const metricsOf = (runs: readonly CheckedRun[]) =>
  populationMetrics(runs.map((r): RunPair => ({ run: { stopReason: r.stopReason, steps: r.steps, costPico: r.costPico, inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, overshootPico: 0 }, baseline: { stopReason: 'completed', steps: 3, costPico: r.costPico } })));

describe("check's money: the report's one format, more digits only where rounding would cross the limit", () => {
  it('a failing figure is rounded as a passing one is', () => {
    const runs = [run('s#1', 0.2187225), run('s#2', 0.2187225)];
    const [failing] = evaluateExpectations({ population: { costPerRunUsd: { p95: { max: 0.2 } } } }, runs, metricsOf(runs));
    expect(failing).toMatchObject({ measuredText: '$0.2187', limit: '≤ $0.2', pass: false });
    const [passing] = evaluateExpectations({ population: { costPerRunUsd: { p95: { max: 0.3 } } } }, runs, metricsOf(runs));
    expect(passing).toMatchObject({ measuredText: '$0.2187', limit: '≤ $0.3', pass: true });
    // Per run too: the highest cost, failing, as the report rounds it.
    const [perRun] = evaluateExpectations({ runs: { costUsd: { max: 0.2 } } }, runs, metricsOf(runs));
    expect(perRun).toMatchObject({ measuredText: '$0.2187', pass: false });
  });

  it('rounding never shows a failing figure equal to its limit, nor a passing one past it', () => {
    // $0.20000004 rounds to $0.2000: it would read as the limit $0.2 it fails.
    const runs = [run('s#1', 0.20000004)];
    const [failing] = evaluateExpectations({ population: { costPerRunUsd: { max: { max: 0.2 } } } }, runs, metricsOf(runs));
    expect(failing).toMatchObject({ measuredText: '$0.20000004', pass: false });
    const [perRun] = evaluateExpectations({ runs: { costUsd: { max: 0.2 } } }, runs, metricsOf(runs));
    expect(perRun).toMatchObject({ measuredText: '$0.20000004', pass: false });
    // Below a least amount: $0.19999996 would read as $0.2000, which is no less than ≥ $0.2.
    expect(usdBeside(usdToPico(0.19999996), { min: usdToPico(0.2) })).toBe('$0.19999996');
    // A passing $0.12345 under ≤ $0.12345 would round up to $0.1235, past it: one digit more.
    expect(usdBeside(usdToPico(0.12345), { max: usdToPico(0.12345) })).toBe('$0.12345');
    // Where rounding crosses nothing, the report's format as is.
    for (const usd of [0.2187225, 0.48413378, 0.00389421, 1234.56789]) expect(usdBeside(usdToPico(usd), { max: usdToPico(0.1) })).toBe(formatUsd(usdToPico(usd)));
    expect(usdBeside(0, { max: 0 })).toBe('$0');
  });

  it('loopcost check: failing money in the table and the failed lines as passing money is', async () => {
    const dir = tempDir();
    const file = oneEntryScenario(dir, 's.check.yaml', { model: 'gpt-4o', runs: '20', seed: '3', expect: '{ population: { costPerRunUsd: { p95: { max: 0.00001 }, p50: { max: 100 } } } }' }, { outputTokens: '{ kind: lognormal, median: 150, p95: 500 }' });
    const out = await cli('check', file);
    expect(out.code).toBe(1);
    const json = JSON.parse((await cli('check', file, '--format', 'json')).stdout);
    const [p50, p95] = json.scenarios[0].expectations as { measured: number; pass: boolean }[];
    expect([p50!.pass, p95!.pass]).toEqual([true, false]);
    const shown = (usd: number) => formatUsd(usdToPico(usd));
    expect(out.stdout).toContain(`population.costPerRunUsd.p95  ${shown(p95!.measured)} `);
    expect(out.stdout).toContain(`population.costPerRunUsd.p95 measured ${shown(p95!.measured)}, limit ≤ $0.00001`);
    expect(out.stdout).toContain(`population.costPerRunUsd.p50  ${shown(p50!.measured)} `);
    // Exact to the picodollar, a failing figure had more digits than the report's format.
    expect(shown(p95!.measured)).not.toBe(`$${p95!.measured}`);
  });
});

import { describe, expect, it } from 'vitest';
import { parseTolerance } from '../../src/check/baseline.js';
import { evaluateExpectations, type CheckedRun } from '../../src/check/evaluate.js';
import { buildCheckReport, renderCheckTable } from '../../src/check/report.js';
import { populationMetrics, type RunPair } from '../../src/metrics/population.js';
import { usdToPico } from '../../src/money.js';

const run = (source: string, stopReason: CheckedRun['stopReason'], steps: number, costUsd: number, behaviour?: string): CheckedRun => ({
  source,
  stopReason,
  steps,
  costPico: usdToPico(costUsd),
  ...(behaviour === undefined ? {} : { behaviour }),
});

function pairs(runs: readonly CheckedRun[], baselineReason: CheckedRun['stopReason']): RunPair[] {
  return runs.map((r) => ({
    run: { stopReason: r.stopReason, steps: r.steps, costPico: r.costPico, inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, overshootPico: 0 },
    baseline: { stopReason: baselineReason, steps: 50, costPico: r.costPico * 4 },
  }));
}

describe('expectations against runs', () => {
  const runs = [run('s#1', 'repeat', 4, 0.01, 'loop'), run('s#2', 'max_steps', 12, 0.03, 'loop'), run('s#3', 'completed', 3, 0.002, 'fine')];

  it('per run: the worst value, how many runs break it and the first; money exact to the picodollar', () => {
    const results = evaluateExpectations({ runs: { steps: { max: 10 }, costUsd: { max: 0.03 }, stopReason: ['repeat', 'completed'] } }, runs, populationMetrics(pairs(runs, 'trace_end')));
    expect(results).toEqual([
      { expectation: 'runs.stopReason', measured: { max_steps: 1 }, measuredText: 'max_steps ×1', limit: 'one of repeat, completed', limitStopReasons: ['repeat', 'completed'], pass: false, detail: '1 of 3 runs break it; first: s#2' },
      { expectation: 'runs.steps', measured: { min: 3, max: 12 }, measuredText: '12 (highest)', limit: '≤ 10', limitMax: 10, limitUnit: 'steps', pass: false, detail: '1 of 3 runs break it; first: s#2' },
      // $0.03 exactly is within "at most $0.03".
      // Measured in USD, as the name says (compared to the picodollar: `money exact` below).
      { expectation: 'runs.costUsd', measured: { min: 0.002, max: 0.03 }, measuredText: '$0.0300 (highest)', limit: '≤ $0.03', limitMax: 0.03, limitUnit: 'USD', pass: true },
    ]);
  });

  it('per named behaviour: only that entry’s runs; a lower bound shows the lowest value', () => {
    const results = evaluateExpectations({ behaviours: { loop: { steps: { min: 5, max: 12 } } } }, runs, populationMetrics(pairs(runs, 'trace_end')));
    expect(results).toEqual([{ expectation: 'behaviours.loop.steps', measured: { min: 4, max: 12 }, measuredText: '4 (lowest)', limit: '5 to 12', limitMin: 5, limitMax: 12, limitUnit: 'steps', pass: false, detail: '1 of 2 runs break it; first: s#1' }]);
  });

  it('population: no completion fails a cost-per-completion bound; no run completing without brakes makes the false stop rate n/a, which passes', () => {
    const stuck = [run('s#1', 'repeat', 4, 0.01), run('s#2', 'max_steps', 12, 0.03)];
    const results = evaluateExpectations({ population: { costPerCompletedUsd: { max: 1 }, falseStopRate: { max: 0 }, wastedShare: { max: 0.5 } } }, stuck, populationMetrics(pairs(stuck, 'trace_end')));
    expect(results.map((r) => [r.expectation, r.measuredText, r.pass])).toEqual([
      ['population.falseStopRate', 'n/a (no run completes without brakes)', true],
      ['population.costPerCompletedUsd', 'none (no run completed)', false],
      ['population.wastedShare', '100%', false],
    ]);
    // The same runs, each of which completes without brakes: every braked one is a false stop.
    const falseStops = evaluateExpectations({ population: { falseStopRate: { max: 0.5 } } }, stuck, populationMetrics(pairs(stuck, 'completed')));
    expect(falseStops[0]).toMatchObject({ measured: 1, measuredText: '100%', limit: '≤ 50%', limitMax: 0.5, limitUnit: 'share', pass: false });
  });

  it('a money figure that fails gets only the digits that keep it from reading as its limit as written', () => {
    const priced = [run('s#1', 'completed', 3, 0.00389421), run('s#2', 'completed', 3, 0.00389421)];
    const metrics = populationMetrics(pairs(priced, 'completed'));
    const [failing] = evaluateExpectations({ population: { costPerRunUsd: { mean: { max: 0.003894 } } } }, priced, metrics);
    // $0.00389 would read as within ≤ $0.003894, $0.003894 as equal to it: one digit more.
    expect(failing).toMatchObject({ measuredText: '$0.0038942', limit: '≤ $0.003894', pass: false });
    const [passing] = evaluateExpectations({ population: { costPerRunUsd: { mean: { max: 0.0039 } } } }, priced, metrics);
    expect(passing).toMatchObject({ measuredText: '$0.00389', limit: '≤ $0.0039', pass: true });
  });

  it('the check table’s summary line counts in the singular for one scenario and one expectation', () => {
    const metrics = populationMetrics(pairs(runs, 'trace_end'));
    const results = evaluateExpectations({ runs: { steps: { max: 12 } } }, runs, metrics);
    const settings = { brakes: 'none', context: 'full', cache: 'off', latency: 'as recorded' };
    const scenario = { source: 's.yaml', name: 's', settings, recordedRuns: 3, syntheticRuns: 0, models: ['gpt-4o-mini'], metrics, results };
    const report = buildCheckReport({ scenarios: [scenario], prices: { name: 'test prices', version: 'file', hash: '0'.repeat(16) }, version: 'test', warnings: [] });
    expect(renderCheckTable(report, 100).split('\n')[0]).toBe('loopcost check: PASS: 1 scenario, 1 expectation, 0 failed');
  });

  it('reads a tolerance as a percentage or a fraction, and refuses anything else', () => {
    expect(parseTolerance('5%')).toBe(0.05);
    expect(parseTolerance('0.05')).toBe(0.05);
    for (const bad of ['', '-5%', '150%', 'five', '5%%', 'NaN']) expect(() => parseTolerance(bad)).toThrow(/--tolerance/);
  });
});

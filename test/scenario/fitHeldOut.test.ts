/**
 * `fit` on runs it has never seen. The 23 deepseek-chat runs of ../shared plus 46 more runs of the same
 * agent on the same 23 SWE-bench Lite dev tasks (run twice more), and 99 runs of it on 99 test tasks
 * (none a dev task): test/fixtures/heldout/README.md. A profile fitted on the 69 dev runs and replayed
 * with 2000 runs, seed 1, predicts the 99 test runs — p50 and p95 of cost and of steps per run within
 * 10%, completion within 3 points — and a profile fitted on the 99 test runs predicts the 69 dev runs
 * as well. (Measured gaps are in docs/scenarios.md.)
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { collectInputs } from '../../src/io/collectInputs.js';
import { loadTraceFiles } from '../../src/import/index.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { replayTrace, resolveTracePricing, type RunResult } from '../../src/replay/replay.js';
import { fitScenario } from '../../src/scenario/fit.js';
import { FIT_METRICS, quantilesOf } from '../../src/scenario/fitReport.js';
import { parseScenario } from '../../src/scenario/load.js';
import { runScenario } from '../../src/scenario/run.js';
import { scenarioYaml } from '../../src/scenario/writeYaml.js';
import type { Trace } from '../../src/trace/types.js';
import { collectAsync } from '../helpers.js';

const prices = loadPriceTable({ pricesFile: 'test/fixtures/prices/deepseek-recorded.json' });
const load = (...inputs: string[]) => collectAsync(loadTraceFiles(collectInputs(inputs)));
const devRuns = await load('../shared/traces/mini-swe-agent/deepseek_chat_dev', 'test/fixtures/heldout/deepseek-chat-dev-unseen.jsonl.gz');
const testRuns = await load('test/fixtures/heldout/deepseek-chat-test.jsonl.gz');

function predicted(fitOn: readonly Trace[]): RunResult[] {
  const { scenario, notes } = fitScenario(fitOn, (trace) => resolveTracePricing(trace, { prices }));
  return runScenario(parseScenario(scenarioYaml(scenario, notes), 'profile.yaml'), { prices, runs: 2000, seed: 1, brakes: NO_BRAKES });
}
const recorded = (runs: readonly Trace[]) => runs.map((trace) => replayTrace(trace, { brakes: NO_BRAKES, strategy: { kind: 'full' }, prices }));
const completion = (runs: readonly RunResult[]) => runs.filter((r) => r.stopReason === 'completed').length / runs.length;

function gaps(synthetic: readonly RunResult[], real: readonly RunResult[]) {
  const out: Record<string, number> = {};
  for (const metric of ['costPerRunUsd', 'stepsPerRun'] as const) {
    const s = quantilesOf(synthetic.map(FIT_METRICS[metric]));
    const r = quantilesOf(real.map(FIT_METRICS[metric]));
    out[`${metric} p50`] = (s.p50 - r.p50) / r.p50;
    out[`${metric} p95`] = (s.p95 - r.p95) / r.p95;
  }
  return out;
}

describe('loopcost fit on mini-swe-agent runs it has never seen', () => {
  it('the fixtures hold what the README says: 69 dev runs, 99 test runs of other tasks, all deepseek-chat', () => {
    expect([devRuns.length, testRuns.length]).toEqual([69, 99]);
    const tasks = (runs: readonly Trace[]) => new Set(runs.map((t) => t.header.task));
    expect(tasks(devRuns).size).toBe(23);
    expect([...tasks(testRuns)].filter((task) => tasks(devRuns).has(task))).toEqual([]);
    expect(new Set([...devRuns, ...testRuns].map((t) => t.header.model))).toEqual(new Set(['deepseek/deepseek-chat']));
  });

  for (const [name, fitOn, checkOn] of [
    ['fitted on the 69 dev runs, the 99 test runs', () => devRuns, () => testRuns],
    ['fitted on the 99 test runs, the 69 dev runs', () => testRuns, () => devRuns],
  ] as const) {
    it(`${name}: p50 and p95 of cost and steps within 10%, completion within 3 points`, () => {
      const synthetic = predicted(fitOn());
      const real = recorded(checkOn());
      for (const [figure, gap] of Object.entries(gaps(synthetic, real))) {
        expect({ figure, gap, within10: Math.abs(gap) < 0.1 }).toEqual({ figure, gap, within10: true });
      }
      expect(Math.abs(completion(synthetic) - completion(real))).toBeLessThan(0.03);
    });
  }
});

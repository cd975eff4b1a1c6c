/**
 * The baseline reader accepts every expectation check writes, by the lists those expectations come from
 * (evaluate.ts POPULATION_FIGURE_NAMES, the expect schema's RUN_EXPECTATION_KEYS), never a copy of them:
 * a scenario bounding every figure evaluate.ts measures and every per-run key, its results written as
 * check writes a baseline (renderBaseline), reads back (parseBaseline) with each expectation as measured.
 */
import { describe, expect, it } from 'vitest';
import { renderBaseline, parseBaseline } from '../../src/check/baselineFile.js';
import { evaluateExpectations, POPULATION_FIGURE_NAMES, type CheckedRun } from '../../src/check/evaluate.js';
import type { ScenarioCheck } from '../../src/check/run.js';
import { populationMetrics, type RunFigures } from '../../src/metrics/population.js';
import { expectSchema, RUN_EXPECTATION_KEYS, type ScenarioExpect } from '../../src/scenario/expectSchema.js';

/** A bound on every name: `costPerRunUsd.p95` as `{costPerRunUsd: {p95: {min: 0}}}`. */
function boundingEvery(names: readonly string[], bound: (name: string) => unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of names) {
    const parts = name.split('.');
    let at = out;
    for (const part of parts.slice(0, -1)) at = (at[part] ??= {}) as Record<string, unknown>;
    at[parts.at(-1)!] = bound(name);
  }
  return out;
}

const runBound = (key: string) => (key === 'stopReason' ? ['completed', 'max_steps'] : { min: 0 });

const runs: CheckedRun[] = [
  { source: 's.yaml#1', behaviour: 'loops', stopReason: 'max_steps', steps: 5, costPico: 3_000_000_000 },
  { source: 's.yaml#2', behaviour: 'solves', stopReason: 'completed', steps: 2, costPico: 1_000_000_000 },
];
const pairs = runs.map((run) => {
  const figures: RunFigures = { stopReason: run.stopReason, steps: run.steps, costPico: run.costPico, inputTokens: 100, cachedInputTokens: 0, outputTokens: 10, overshootPico: 0 };
  return { run: figures, baseline: { stopReason: 'completed' as const, steps: run.steps, costPico: run.costPico } };
});

describe('the baseline reads every expectation check writes', () => {
  it('every population figure evaluate.ts measures and every per-run key: written, then read back as measured', () => {
    const runExpect = boundingEvery(RUN_EXPECTATION_KEYS, runBound);
    const expectation: ScenarioExpect = expectSchema.parse({ runs: runExpect, behaviours: { loops: runExpect }, population: boundingEvery(POPULATION_FIGURE_NAMES, () => ({ min: 0 })) });
    const metrics = populationMetrics(pairs);
    const results = evaluateExpectations(expectation, runs, metrics);
    // The scenario bounds every figure evaluate.ts measures (the property is over all of them).
    expect(results.filter((r) => r.expectation.startsWith('population.')).map((r) => r.expectation.slice('population.'.length))).toEqual([...POPULATION_FIGURE_NAMES]);
    expect(results.filter((r) => r.expectation.startsWith('runs.')).map((r) => r.expectation.slice('runs.'.length))).toEqual([...RUN_EXPECTATION_KEYS]);
    const check: ScenarioCheck = { source: 's.yaml', name: 's', settings: {} as ScenarioCheck['settings'], recordedRuns: 0, syntheticRuns: 2, seed: 1, models: ['m'], metrics, results };
    const text = renderBaseline([check], { prices: { name: 'p', version: '1', hash: 'h' } as never, models: [], version: 'test', scenarioKey: (s) => s });
    const [read] = parseBaseline(text, 'b.json').scenarios;
    expect(read!.expectations).toEqual(Object.fromEntries(results.map((r) => [r.expectation, r.measured])));
  });
});

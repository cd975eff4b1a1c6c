/**
 * The population runner pairs each run under a configuration with the same run under NO_BRAKES: recorded
 * runs as replay gives them, synthetic runs as the same agents (same seed and index) give them.
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES, REFERENCE_PRESET } from '../../src/brakes/config.js';
import { populationMetrics } from '../../src/metrics/population.js';
import { baselinesOf, populationRuns, runFigures, type PopulationInputs } from '../../src/population/run.js';
import { replayTrace } from '../../src/replay/replay.js';
import { loadScenarioFile } from '../../src/scenario/load.js';
import { runScenario } from '../../src/scenario/run.js';
import { distinctSteps, MINI_TABLE, trace } from '../helpers.js';

describe('population runner', () => {
  const traces = [trace(distinctSteps(20), { model: 'mini', outcome: 'completed' }), trace(distinctSteps(6), { model: 'mini', outcome: 'completed' })];
  const scenario = { ...loadScenarioFile('scenarios/production-mix.yaml'), model: 'mini', provider: undefined };
  const inputs: PopulationInputs = { traces, scenarios: [{ scenario, runs: 30, seed: 7 }] };
  const config = { brakes: { ...NO_BRAKES, maxSteps: 10, maxRepeat: 3 }, strategy: { kind: 'full' as const } };

  it('recorded runs are their replay under the brakes, baselines their replay without brakes', () => {
    const runs = populationRuns(inputs, config, MINI_TABLE);
    expect(runs).toHaveLength(32);
    traces.forEach((t, i) => {
      expect(runs[i]!.run).toEqual(runFigures(replayTrace(t, { ...config, prices: MINI_TABLE })));
      const base = replayTrace(t, { brakes: NO_BRAKES, strategy: config.strategy, prices: MINI_TABLE });
      expect(runs[i]!.baseline).toEqual({ stopReason: base.stopReason, steps: base.steps, costPico: base.costPico });
    });
    expect(runs[0]!.run.stopReason).toBe('max_steps');
    expect(runs[0]!.baseline.stopReason).toBe('completed');
    expect(populationMetrics(runs.slice(0, 2)).falseStops).toBe(1);
  });

  it('synthetic runs are the same agents under the brakes and with none', () => {
    const runs = populationRuns(inputs, config, MINI_TABLE).slice(2);
    const braked = runScenario(scenario, { prices: MINI_TABLE, runs: 30, seed: 7, brakes: config.brakes, strategy: config.strategy });
    const free = runScenario(scenario, { prices: MINI_TABLE, runs: 30, seed: 7, brakes: NO_BRAKES, strategy: config.strategy });
    expect(runs.map((r) => r.run)).toEqual(braked.map(runFigures));
    expect(runs.map((r) => [r.baseline.stopReason, r.baseline.steps, r.baseline.costPico, r.baseline.truth])).toEqual(free.map((r) => [r.stopReason, r.steps, r.costPico, r.synthetic]));
    expect(runs.map((r) => r.truth)).toEqual(braked.map((r) => r.synthetic));
    // The population has runs that loop without brakes and are caught here.
    expect(populationMetrics(runs).caughtEarly).toBeGreaterThan(0);
  });

  it('computes baselines once per context, model and latency, whatever the brakes', () => {
    const a = baselinesOf(inputs, config, MINI_TABLE);
    populationRuns(inputs, { ...config, brakes: REFERENCE_PRESET }, MINI_TABLE);
    expect(baselinesOf(inputs, { ...config, brakes: REFERENCE_PRESET }, MINI_TABLE)).toBe(a);
    expect(baselinesOf(inputs, { ...config, strategy: { kind: 'window', windowSteps: 3 } }, MINI_TABLE)).not.toBe(a);
  });
});

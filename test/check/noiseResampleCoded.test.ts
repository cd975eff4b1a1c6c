/**
 * check's noise bands draw 1,000 resamples of a scenario's runs (src/check/noise.ts figureNoise). Each resample's
 * figures were populationMetrics of the resampled runs, every run coded again per resample (its stop reasons
 * looked up, its fields copied) and its cost quantiles selected, though the p50 and p95 bands are exact and the
 * drawn ones unused: most of a check's time against a baseline. Now the runs are coded once and added coded,
 * no quantile selected: the bands must be what populationMetrics of each resample gives, to the last digit.
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { exactQuantileHalfWidth, figureNoise, FIGURE_LEVEL, NOISE_RESAMPLES } from '../../src/check/noise.js';
import { nearestRank, populationMetrics, type PopulationMetrics } from '../../src/metrics/population.js';
import { configurationRuns, type PopulationRun } from '../../src/population/run.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { loadScenarioFile } from '../../src/scenario/load.js';
import { Rng, STREAM } from '../../src/synthetic/random.js';

/** figureNoise as it was: populationMetrics of each resample, recorded runs kept first. */
function referenceNoise(runs: readonly PopulationRun[], seed: number) {
  const recorded = runs.filter((run) => run.truth === undefined);
  const synthetic = runs.filter((run) => run.truth !== undefined);
  const n = synthetic.length;
  const figures: ((m: PopulationMetrics) => number | null)[] = [(m) => m.completionRate, (m) => m.falseStopRate, (m) => m.wastedShare, (m) => m.costUsd, (m) => m.costPerRunUsd.mean, (m) => m.costPerCompletedUsd];
  const values: (number | null)[][] = figures.map(() => []);
  const sample = [...recorded, ...synthetic];
  for (let b = 0; b < NOISE_RESAMPLES; b++) {
    const rng = Rng.stream(seed, b, STREAM.checkBootstrap);
    for (let k = 0; k < n; k++) sample[recorded.length + k] = synthetic[rng.below(n)]!;
    const metrics = populationMetrics(sample);
    figures.forEach((value, i) => values[i]!.push(value(metrics)));
  }
  const half = (of: (number | null)[]) => {
    if (of.some((v) => v === null)) return null;
    const sorted = (of as number[]).sort((a, b) => a - b);
    return ((nearestRank(sorted, 1 - (1 - FIGURE_LEVEL) / 2) ?? 0) - (nearestRank(sorted, (1 - FIGURE_LEVEL) / 2) ?? 0)) / 2;
  };
  const [completionRate, falseStopRate, wastedShare, costUsd, mean, costPerCompletedUsd] = values.map(half).map((v, i) => (v === null ? null : Number(v.toFixed([3, 4, 5].includes(i) ? 12 : 9))));
  const costs = (of: readonly PopulationRun[]) => of.map((run) => run.run.costPico);
  const exact = (p: number) => Number(exactQuantileHalfWidth(costs(recorded), costs(synthetic), p).toFixed(12));
  return { completionRate: completionRate ?? 0, falseStopRate: falseStopRate ?? null, wastedShare: wastedShare ?? 0, costUsd: costUsd ?? 0, costPerRunUsd: { mean: mean ?? 0, p50: exact(0.5), p95: exact(0.95) }, costPerCompletedUsd: costPerCompletedUsd ?? null };
}

describe('noise bands drawn from runs coded once', () => {
  it('are populationMetrics of each resample: synthetic runs alone, and with recorded runs kept beside them', () => {
    const scenario = loadScenarioFile('test/check/gateSignal-support.yaml');
    const brakes = { ...NO_BRAKES, maxSteps: 9, maxCostPico: 4_000_000_000, maxRepeat: 3 };
    const runs = configurationRuns({ scenarios: [{ scenario, runs: 150, seed: 5 }] }, { brakes, strategy: { kind: 'full', cache: 'on' } }, loadPriceTable());
    // Every kind of run the tally counts apart: stopped by a brake, completed, false stops.
    const reasons = new Set(runs.map((run) => run.run.stopReason));
    expect([...reasons].sort()).toEqual(expect.arrayContaining(['completed', 'max_steps', 'repeat']));
    expect(populationMetrics(runs).falseStops).toBeGreaterThan(0);
    expect(figureNoise(runs, 7)).toEqual(referenceNoise(runs, 7));
    const withRecorded = runs.map((run, i) => (i % 5 === 0 ? { ...run, truth: undefined } : run));
    expect(figureNoise(withRecorded, 11)).toEqual(referenceNoise(withRecorded, 11));
  });
});

/**
 * check's noise bands are read at 99.375% (FIGURE_LEVEL), ~3 resamples beyond each end of 1,000: the p95 per
 * run's band moved by a CV of ~20% with the bootstrap seed alone on 200 runs of production-mix. The quantiles'
 * bands are read off the exact bootstrap distribution instead: the same for every seed, and what a bootstrap of
 * many resamples converges to.
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { exactQuantileHalfWidth, figureNoise, FIGURE_LEVEL } from '../../src/check/noise.js';
import { configurationRuns } from '../../src/population/run.js';
import { loadScenarioFile } from '../../src/scenario/load.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { Rng, STREAM } from '../../src/synthetic/random.js';

const runs = configurationRuns({ scenarios: [{ scenario: loadScenarioFile('scenarios/production-mix.yaml'), runs: 200, seed: 1 }] }, { brakes: { ...NO_BRAKES, maxSteps: 12 }, strategy: { kind: 'full' } }, loadPriceTable());

/** Half the FIGURE_LEVEL interval of the resampled nearest-rank p-quantile, by `resamples` seeded resamples of the synthetic costs (the recorded kept). */
function drawnHalfWidth(recorded: number[], synthetic: number[], p: number, resamples: number): number {
  const n = synthetic.length;
  const all = recorded.length + n;
  const rank = Math.max(1, Math.ceil(p * all)) - 1;
  const quantiles = new Float64Array(resamples);
  const sample = new Float64Array(all);
  sample.set(recorded);
  for (let b = 0; b < resamples; b++) {
    const rng = Rng.stream(9, b, STREAM.checkBootstrap);
    for (let k = 0; k < n; k++) sample[recorded.length + k] = synthetic[rng.below(n)]!;
    quantiles[b] = Float64Array.from(sample).sort()[rank]!;
  }
  quantiles.sort();
  const at = (q: number) => quantiles[Math.max(1, Math.ceil(q * resamples)) - 1]!;
  const tail = (1 - FIGURE_LEVEL) / 2;
  return (at(1 - tail) - at(tail)) / 2 / 1e12;
}

describe("check's noise bands of the quantiles", () => {
  it('the p50 and p95 bands are the same whatever the bootstrap seed (they moved by a CV of ~20% over seeds)', () => {
    const bands = [1, 2, 3, 4, 5, 6].map((seed) => figureNoise(runs, seed)!.costPerRunUsd);
    for (const band of bands) expect(band).toMatchObject({ p50: bands[0]!.p50, p95: bands[0]!.p95 });
    expect(bands[0]!.p95).toBeGreaterThan(0);
  });

  it('the exact band is what a bootstrap of many resamples converges to, with recorded runs kept and without', () => {
    const costs = runs.map((run) => run.run.costPico);
    for (const [recorded, synthetic] of [[[], costs], [costs.slice(0, 60), costs.slice(60)]] as const) {
      for (const p of [0.5, 0.95]) {
        const exact = exactQuantileHalfWidth(recorded, synthetic, p);
        const drawn = drawnHalfWidth([...recorded], [...synthetic], p, 20_000);
        expect(Math.abs(exact - drawn) / drawn, `p${p * 100}, ${recorded.length} recorded`).toBeLessThan(0.02);
      }
    }
  });

  it('no synthetic run: no band; one cost repeated: a band of 0', () => {
    expect(exactQuantileHalfWidth([], Array(50).fill(7_000_000), 0.95)).toBe(0);
    expect(exactQuantileHalfWidth([1, 2, 3], [5_000_000], 0.5)).toBe(0);
  });
});

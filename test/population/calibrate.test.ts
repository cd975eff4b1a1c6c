/** Calibration's precision and recall, recomputed from the per-run results of the population runner. */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { calibrationFigures } from '../../src/population/calibrate.js';
import { populationRuns } from '../../src/population/run.js';
import { loadScenarioFile } from '../../src/scenario/load.js';
import { runScenario } from '../../src/scenario/run.js';
import { MINI_TABLE } from '../helpers.js';

describe('calibration', () => {
  const scenario = { ...loadScenarioFile('scenarios/production-mix.yaml'), model: 'mini', provider: undefined };
  const inputs = { scenarios: [{ scenario, runs: 150, seed: 3 }] };

  it('precision, recall and wasted steps follow from each run and its ground truth', () => {
    for (const repeatMode of ['total', 'consecutive'] as const) {
      const brakes = { ...NO_BRAKES, maxRepeat: 3, repeatMode, maxSameError: 3 };
      const runs = populationRuns(inputs, { brakes, strategy: { kind: 'full' } }, MINI_TABLE);
      const figures = calibrationFigures(runs, 0).synthetic;
      // Ground truth, independently: the same agents with no brakes.
      const free = runScenario(scenario, { prices: MINI_TABLE, runs: 150, seed: 3, brakes: NO_BRAKES, strategy: { kind: 'full' } });
      const braked = runScenario(scenario, { prices: MINI_TABLE, runs: 150, seed: 3, brakes, strategy: { kind: 'full' } });
      const stuck = free.map((r) => r.synthetic!.stuckFromStep !== undefined);
      const caught = braked.map((r) => r.stopReason === 'repeat' || r.stopReason === 'error_limit');
      const both = stuck.filter((s, i) => s && caught[i]).length;
      expect(figures.stuck).toBe(stuck.filter(Boolean).length);
      expect(figures.stuck).toBeGreaterThan(0);
      expect(figures.caught).toBe(caught.filter(Boolean).length);
      expect(figures.precision).toBe(both / caught.filter(Boolean).length);
      expect(figures.recall).toBe(both / stuck.filter(Boolean).length);
      const wasted = braked.flatMap((r, i) => (stuck[i] && caught[i] ? [r.steps - free[i]!.synthetic!.stuckFromStep! + 1] : []));
      expect(figures.stepsWastedBeforeCatch?.max).toBe(Math.max(...wasted));
    }
  });
});

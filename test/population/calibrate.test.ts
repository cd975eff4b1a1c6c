/** Calibration's precision and recall, recomputed from the per-run results of the population runner; and as a sweep runs it, held equal to that. */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { collectInputs } from '../../src/io/collectInputs.js';
import { loadTraceFiles } from '../../src/import/index.js';
import { calibrationFigures, calibrationsOf } from '../../src/population/calibrate.js';
import { populationRuns, type PopulationConfig } from '../../src/population/run.js';
import { SweepPopulation } from '../../src/population/sweep.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { loadScenarioFile } from '../../src/scenario/load.js';
import { runScenario } from '../../src/scenario/run.js';
import { collectAsync, MINI_TABLE } from '../helpers.js';

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

describe('calibration as a sweep runs it (calibrationsOf: recordings swept, closed loop where they cannot be)', () => {
  it('= calibrationFigures over each configuration run closed loop, recorded and synthetic runs, batches of long runs', async () => {
    const prices = loadPriceTable();
    const traces = await collectAsync(loadTraceFiles(collectInputs(['test/fixtures/mini-swe-agent'])));
    // Stuck runs that go on to a hard cap of 1,440 steps: batches of recordings end at their most calls, not runs.
    const scenarios = ['recursive-verification', 'production-mix', 'keeps-asking'].map((name) => ({ scenario: loadScenarioFile(`scenarios/${name}.yaml`), runs: 30, seed: 11 }));
    const population = new SweepPopulation(traces, scenarios);
    const configs: PopulationConfig[] = [
      { brakes: { ...NO_BRAKES, maxRepeat: 2, maxSameError: 3 }, strategy: { kind: 'full' } },
      { brakes: { ...NO_BRAKES, maxRepeat: 4, repeatMode: 'consecutive', maxSteps: 40 }, strategy: { kind: 'full' } },
      { brakes: { ...NO_BRAKES, maxRepeat: 3, repeatMode: 'cycle' }, strategy: { kind: 'window', windowSteps: 4 } },
      // Closed loop per configuration: the skip guard changes what the agent sees; masking rewrites history.
      { brakes: { ...NO_BRAKES, maxRepeat: 2, repeatAction: 'skip' }, strategy: { kind: 'full' } },
      { brakes: { ...NO_BRAKES, maxRepeat: 3 }, strategy: { kind: 'mask', maskSteps: 4 } },
      { brakes: NO_BRAKES, strategy: { kind: 'full', cache: 'on' } },
    ];
    const swept = calibrationsOf(population, configs, prices);
    configs.forEach((config, c) => {
      const pairs = [...populationRuns({ traces }, config, prices), ...populationRuns({ scenarios }, config, prices)];
      expect(swept[c], `configuration ${c}`).toEqual(calibrationFigures(pairs, traces.length));
    });
    // Something to judge: stuck runs caught, settings that differ in what they catch, runs that complete on recorded runs.
    expect(swept[0]!.synthetic.caughtStuck).toBeGreaterThan(0);
    expect(new Set(swept.map((figures) => JSON.stringify(figures.synthetic))).size).toBeGreaterThanOrEqual(3);
    expect(swept[0]!.recorded.completedWithoutBrakes).toBeGreaterThan(0);
  });
});

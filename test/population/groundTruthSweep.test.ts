/**
 * The compiled sweep counts false stops, catches and savings by ground truth as the readable path does
 * (each configuration's runs paired with their baselines, populationMetrics): synthetic runs swept from
 * their recordings (the truth on each given baseline), and generated traces swept as recorded runs (the
 * truth read off each header and carried to its baseline cell). The reviewer's support bot
 * (test/fixtures/ground-truth/support.yaml): its flaky-CRM retriers give up and answer anyway, task not
 * done — the same-error brake catches them, no false stop.
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { populationMetrics } from '../../src/metrics/population.js';
import { calibrationsOf } from '../../src/population/calibrate.js';
import { configurationRuns, type PopulationConfig } from '../../src/population/run.js';
import { sweepMetrics, SweepPopulation } from '../../src/population/sweep.js';
import { recordedSyntheticRuns } from '../../src/population/syntheticRecording.js';
import { loadScenarioFile } from '../../src/scenario/load.js';
import { MINI_TABLE } from '../helpers.js';

const scenario = { ...loadScenarioFile('test/fixtures/ground-truth/support.yaml'), model: 'mini', provider: undefined };
const scenarios = [{ scenario, runs: 120, seed: 11 }];
const configs: PopulationConfig[] = [2, 3, 5].map((maxSameError) => ({ brakes: { ...NO_BRAKES, maxSameError }, strategy: { kind: 'full' } }));
configs.push({ brakes: { ...NO_BRAKES, maxSteps: 6, maxRepeat: 3, maxSameError: 3 }, strategy: { kind: 'full' } });

const counts = (m: ReturnType<typeof populationMetrics>) => ({ falseStops: m.falseStops, falseStopRate: m.falseStopRate, caughtEarly: m.caughtEarly, savedUsd: m.savedUsd, baselineCostUsd: m.baselineCostUsd });

describe('false stops by ground truth: sweep = each configuration run on its own', () => {
  it('synthetic runs (recordings swept): the same counts; the retriers are caught, not false stops', () => {
    const swept = sweepMetrics(new SweepPopulation([], scenarios), configs, MINI_TABLE);
    configs.forEach((config, c) => expect(counts(swept[c]!), `configuration ${c}`).toEqual(counts(populationMetrics(configurationRuns({ scenarios }, config, MINI_TABLE)))));
    for (const m of swept.slice(0, 3)) {
      expect(m.stopReasons.error_limit).toBeGreaterThan(0);
      // Only the same-error brake: every stop of it is of a retrier whose task is never done.
      expect(m.falseStops).toBe(0);
      expect(m.caughtEarly).toBe(m.stopReasons.error_limit);
    }
    // With a step cap, runs stopped before their task is done are false stops.
    expect(swept[3]!.falseStops).toBeGreaterThan(0);
  });

  it('generated traces (their headers\' ground truth), swept as recorded runs: as run on their own, and as the scenario\'s runs', () => {
    const traces = [...recordedSyntheticRuns(scenarios, configs[0]!, MINI_TABLE)].flatMap((batch) => batch.traces);
    expect(traces.every((trace) => trace.header.synthetic !== undefined)).toBe(true);
    const swept = sweepMetrics(new SweepPopulation(traces, []), configs, MINI_TABLE);
    const fromScenario = sweepMetrics(new SweepPopulation([], scenarios), configs, MINI_TABLE);
    configs.forEach((config, c) => {
      expect(counts(swept[c]!), `configuration ${c}`).toEqual(counts(populationMetrics(configurationRuns({ traces }, config, MINI_TABLE))));
      expect([swept[c]!.falseStops, swept[c]!.falseStopRate, swept[c]!.caughtEarly], `configuration ${c}`).toEqual([fromScenario[c]!.falseStops, fromScenario[c]!.falseStopRate, fromScenario[c]!.caughtEarly]);
    });
  });

  it('calibrate judges generated traces by their headers\' ground truth, as the scenario\'s runs', () => {
    const traces = [...recordedSyntheticRuns(scenarios, configs[0]!, MINI_TABLE)].flatMap((batch) => batch.traces);
    const generated = calibrationsOf(new SweepPopulation(traces, []), configs, MINI_TABLE);
    const synthetic = calibrationsOf(new SweepPopulation([], scenarios), configs, MINI_TABLE);
    expect(generated.map((f) => f.recorded.runs)).toEqual([0, 0, 0, 0]);
    const judged = (f: (typeof generated)[number]) => {
      const { runs, stuck, caught, caughtStuck, tasksDoneWithoutBrakes, falseStops } = f.synthetic;
      return { runs, stuck, caught, caughtStuck, tasksDoneWithoutBrakes, falseStops };
    };
    expect(generated.map(judged)).toEqual(synthetic.map(judged));
    expect(generated[0]!.synthetic.caughtStuck).toBeGreaterThan(0);
  });
});

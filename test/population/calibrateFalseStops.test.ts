/**
 * calibrate's false stops: on synthetic runs by ground truth (a brake stopped the run before the step at
 * which, with no brakes, its task is done), on recorded runs by outcome (a brake stopped a run that
 * completes with no brakes) — the rule populationMetrics counts by too (src/metrics/groundTruth.ts). A retrier that gives up "completes" without doing its task: caught,
 * it is no false stop; a repeater stuck after its task was done, caught, is none either.
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import { isBrakeStop } from '../../src/brakes/stopReasons.js';
import { populationMetrics } from '../../src/metrics/population.js';
import { calibrationFigures, calibrationsOf } from '../../src/population/calibrate.js';
import { populationRuns, type PopulationConfig } from '../../src/population/run.js';
import { SweepPopulation } from '../../src/population/sweep.js';
import { loadScenarioFile, type Scenario } from '../../src/scenario/load.js';
import { runScenario } from '../../src/scenario/run.js';
import { MINI_TABLE } from '../helpers.js';
import { entry, scenarioOf } from '../synthetic/helpers.js';

const retriers = scenarioOf({ population: [entry('retrier', { givesUpAfter: 20, outputTokens: 60, toolResultTokens: 40 })] });

/** The figures both ways a calibration runs: swept (recordings), and closed loop per configuration; the two agree. */
function calibrated(scenario: Scenario, runs: number, brakes: BrakeConfig) {
  const config: PopulationConfig = { brakes, strategy: { kind: 'full' } };
  const scenarios = [{ scenario, runs, seed: 1 }];
  const [swept] = calibrationsOf(new SweepPopulation([], scenarios), [config], MINI_TABLE);
  const pairs = populationRuns({ scenarios }, config, MINI_TABLE);
  expect(swept).toEqual(calibrationFigures(pairs, 0));
  return { figures: swept!.synthetic, outcome: populationMetrics(pairs) };
}

describe('calibrate: false stops of synthetic runs by ground truth', () => {
  it('50 retriers that give up after 20 attempts, caught by max-same-error=3: no false stop (their task is never done)', () => {
    const { figures, outcome } = calibrated(retriers, 50, { ...NO_BRAKES, maxSameError: 3 });
    expect(figures).toMatchObject({ runs: 50, stuck: 50, caughtStuck: 50, precision: 1, recall: 1 });
    expect(figures).toMatchObject({ tasksDoneWithoutBrakes: 0, falseStops: 0, falseStopRate: null });
    // The population figures (sweep, check, project) count them by the same rule (src/metrics/groundTruth.ts):
    // by outcome every run "completes" with no brakes, and all 50 were false stops.
    expect([outcome.falseStops, outcome.falseStopRate, outcome.caughtEarly]).toEqual([0, null, 50]);
  });

  it('= stopped by a brake before the step the task is done at with no brakes, recomputed from each run (production mix, several brakes)', () => {
    const scenario = { ...loadScenarioFile('scenarios/production-mix.yaml'), model: 'mini', provider: undefined };
    const brakes = { ...NO_BRAKES, maxSteps: 8, maxRepeat: 3, maxSameError: 3 };
    const { figures, outcome } = calibrated(scenario, 150, brakes);
    const free = runScenario(scenario, { prices: MINI_TABLE, runs: 150, seed: 1, brakes: NO_BRAKES, strategy: { kind: 'full' } });
    const braked = runScenario(scenario, { prices: MINI_TABLE, runs: 150, seed: 1, brakes, strategy: { kind: 'full' } });
    const done = free.map((run) => (run.synthetic!.taskDone ? run.synthetic!.doneAtStep! : undefined));
    const falseStops = braked.filter((run, i) => done[i] !== undefined && isBrakeStop(run.stopReason) && run.steps < done[i]!).length;
    expect(figures.tasksDoneWithoutBrakes).toBe(done.filter((step) => step !== undefined).length);
    expect(figures.falseStops).toBe(falseStops);
    expect(figures.falseStops).toBeGreaterThan(0);
    expect(figures.falseStopRate).toBe(falseStops / figures.tasksDoneWithoutBrakes);
    // The population figures count them by the same rule (not by outcome: runs that "complete" without
    // their task, or stopped after it was done, would differ).
    expect([outcome.falseStops, outcome.falseStopRate]).toEqual([figures.falseStops, figures.falseStopRate]);
    const byOutcome = braked.filter((run, i) => free[i]!.stopReason === 'completed' && isBrakeStop(run.stopReason)).length;
    expect(byOutcome).not.toBe(falseStops);
  });

  it('a repeater caught after its task was done is a catch, not a false stop (folder reorganised)', () => {
    const scenario = { ...loadScenarioFile('scenarios/folder-reorganised.yaml'), model: 'mini', provider: undefined };
    const { figures } = calibrated(scenario, 20, { ...NO_BRAKES, maxRepeat: 3 });
    expect(figures.caughtStuck).toBe(20);
    expect(figures.tasksDoneWithoutBrakes).toBe(20);
    expect(figures.falseStops).toBe(0);
    // Stopped at step 1, before the task is done at step 2: a false stop, every run.
    expect(calibrated(scenario, 20, { ...NO_BRAKES, maxSteps: 1 }).figures).toMatchObject({ falseStops: 20, falseStopRate: 1 });
  });
});

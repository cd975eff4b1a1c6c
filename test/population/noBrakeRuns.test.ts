/**
 * The header's "completed" two ways note reads the synthetic runs with no brakes under the grid's first
 * configuration. A sweep visits every run with its baseline (that run with no brakes), so SweepTallier counts
 * them on its own pass (`noBrakesOf`, noBrakeRuns.ts) rather than the note running every synthetic run again
 * (~25% of a 2,000-run sweep's CPU). These counts are the pass's: under a configuration whose runs the
 * recordings sweep and one run closed loop (skip), another context, scenario files' own settings, shares
 * added up, a rollback.
 */
import { describe, expect, it } from 'vitest';
import { CompletionMeanings } from '../../src/population/completionMeanings.js';
import { gridConfigurations, parseGrid } from '../../src/population/grid.js';
import { addNoBrakeRuns, completionCountsOf, sameNoBrakeRuns } from '../../src/population/noBrakeRuns.js';
import { configurationBaselines, type PopulationConfig, type ScenarioPopulation } from '../../src/population/run.js';
import { SweepPopulation, SweepTallier } from '../../src/population/sweep.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { loadScenarioFile } from '../../src/scenario/load.js';

const prices = loadPriceTable({});
const mix = loadScenarioFile('scenarios/production-mix.yaml');
const keeps = loadScenarioFile('scenarios/keeps-asking.yaml');
const configs = gridConfigurations(parseGrid(['context=full,window:3', 'repeat-action=stop,skip', 'max-repeat=2,5']), { brakeFlags: {}, contextFlags: {} }).map((c) => c.config);

/** The note's counts as its own pass took them (sweepCompletion.ts firstCounts). */
function passCounts(scenarios: ScenarioPopulation[], config: PopulationConfig) {
  const meanings = new CompletionMeanings();
  for (const baseline of configurationBaselines({ scenarios }, config, prices)) meanings.add(baseline.stopReason, baseline.truth);
  return meanings.counts();
}

/** The counts a tallier of `configs` took under configuration `of` over `scenarios`. */
function tallied(scenarios: ScenarioPopulation[], of: number, on: readonly PopulationConfig[] = configs) {
  const tallier = new SweepTallier(on, prices, new Map(), { noBrakesOf: of });
  tallier.add(new SweepPopulation([], scenarios));
  return completionCountsOf(tallier.noBrakeRuns()!);
}

describe('the synthetic runs with no brakes, counted on the sweep pass', () => {
  const scenarios: ScenarioPopulation[] = [{ scenario: mix, runs: 80, seed: 3 }, { scenario: keeps, runs: 20, seed: 1 }];

  it('equal the pass of their own under every configuration: recordings swept, closed loop (skip), another context', () => {
    const expected = passCounts(scenarios, configs[0]!);
    // production-mix parts the two meanings (runs that answer without doing the task, runs that do it but end trace_end).
    expect(expected.completedNotDone + expected.doneNotCompleted.length).toBeGreaterThan(0);
    configs.forEach((config, c) => expect(tallied(scenarios, c)).toEqual(passCounts(scenarios, config)));
    // The skip configurations run their agents closed loop, yet their baselines are the same runs.
    expect(configs.filter((config) => sameNoBrakeRuns(config, configs[0]!, 2)).length).toBe(4);
    expect(sameNoBrakeRuns(configs[4]!, configs[0]!, 2)).toBe(false);
  });

  it('scenario files under their own settings (perScenario), and shares added up as threads add theirs', () => {
    const own = configs.map((config) => ({ ...config, perScenario: [{ brakes: { ...config.brakes, maxSteps: 30 }, strategy: config.strategy }, undefined] }));
    expect(tallied(scenarios, 1, own)).toEqual(passCounts(scenarios, own[1]!));
    const shares = [{ firstRun: 0, runs: 30 }, { firstRun: 30, runs: 50 }].map((share) => {
      const tallier = new SweepTallier(configs, prices, new Map(), { noBrakesOf: 0 });
      tallier.add(new SweepPopulation([], [{ scenario: mix, seed: 3, ...share }]));
      return tallier.noBrakeRuns();
    });
    expect(completionCountsOf(addNoBrakeRuns([undefined, ...shares])!)).toEqual(passCounts([scenarios[0]!], configs[0]!));
    expect(addNoBrakeRuns([undefined])).toBeUndefined();
  });

  it('rolled back with the tally; none counted without noBrakesOf', () => {
    const tallier = new SweepTallier(configs, prices, new Map(), { noBrakesOf: 2 });
    tallier.add(new SweepPopulation([], [{ scenario: keeps, runs: 10, seed: 1 }]));
    const mark = tallier.mark();
    tallier.add(new SweepPopulation([], [{ scenario: mix, runs: 20, seed: 1 }]));
    expect(completionCountsOf(tallier.noBrakeRuns()!).runs).toBe(30);
    tallier.rollback(mark);
    expect(completionCountsOf(tallier.noBrakeRuns()!)).toEqual(passCounts([{ scenario: keeps, runs: 10, seed: 1 }], configs[2]!));
    expect(new SweepTallier(configs, prices).add(new SweepPopulation([], [{ scenario: keeps, runs: 5, seed: 1 }])).noBrakeRuns()).toBeUndefined();
  });
});

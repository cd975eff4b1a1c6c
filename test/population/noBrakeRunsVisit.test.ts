/**
 * SweepTallier counts the no-brake runs on the visits it makes anyway (no visitor wrapped around its own per
 * visit): only the synthetic runs' baselines under configuration `noBrakesOf`, never the recorded runs swept in
 * the same add, whether they come first or alone.
 */
import { describe, expect, it } from 'vitest';
import { CompletionMeanings } from '../../src/population/completionMeanings.js';
import { gridConfigurations, parseGrid } from '../../src/population/grid.js';
import { completionCountsOf } from '../../src/population/noBrakeRuns.js';
import { configurationBaselines, type ScenarioPopulation } from '../../src/population/run.js';
import { SweepPopulation, SweepTallier } from '../../src/population/sweep.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { generateTraces } from '../../src/scenario/generate.js';
import { loadScenarioFile } from '../../src/scenario/load.js';

const prices = loadPriceTable({});
const keeps = loadScenarioFile('scenarios/keeps-asking.yaml');
const mix = loadScenarioFile('scenarios/production-mix.yaml');
const configs = gridConfigurations(parseGrid(['context=full,window:3', 'max-repeat=2,5']), { brakeFlags: {}, contextFlags: {} }).map((c) => c.config);
/** Generated runs (ground truth in their headers), swept as recorded runs. */
const recorded = [...generateTraces({ ...mix, runs: 12 }, { prices })];

describe('no-brake runs counted on the visits the sweep makes', () => {
  it('the synthetic runs alone, with recorded runs (ground truth and all) swept beside them', () => {
    const scenarios: ScenarioPopulation[] = [{ scenario: keeps, runs: 15, seed: 2 }];
    for (const of of [0, 3]) {
      const meanings = new CompletionMeanings();
      for (const baseline of configurationBaselines({ scenarios }, configs[of]!, prices)) meanings.add(baseline.stopReason, baseline.truth);
      const tallier = new SweepTallier(configs, prices, new Map(), { noBrakesOf: of });
      tallier.add(new SweepPopulation(recorded, scenarios));
      expect(completionCountsOf(tallier.noBrakeRuns()!)).toEqual(meanings.counts());
      // Recorded runs alone: none counted.
      const alone = new SweepTallier(configs, prices, new Map(), { noBrakesOf: of }).add(new SweepPopulation(recorded, []));
      expect(completionCountsOf(alone.noBrakeRuns()!).runs).toBe(0);
    }
  });
});

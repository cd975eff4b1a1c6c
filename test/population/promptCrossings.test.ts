/**
 * Where prompts pass a price tier or the context window (src/population/project.ts PromptCrossings),
 * added run by run as `project` makes them: by hand on a few rows, and over recorded and synthetic runs
 * against each run replayed (or run) again on its own with its steps kept, as `project` once did.
 */
import { describe, expect, it } from 'vitest';
import { REFERENCE_PRESET } from '../../src/brakes/config.js';
import { collectInputs } from '../../src/io/collectInputs.js';
import { loadTraceFiles } from '../../src/import/index.js';
import { PromptCrossings } from '../../src/population/project.js';
import { populationRuns, type PopulationConfig } from '../../src/population/run.js';
import type { ModelPricing } from '../../src/pricing/types.js';
import { replayTrace, resolveTracePricing } from '../../src/replay/replay.js';
import { loadScenarioFile } from '../../src/scenario/load.js';
import { prepareScenario, runSynthetic } from '../../src/scenario/run.js';
import { collectAsync, handPriced, handTable, MINI } from '../helpers.js';

const rows = (...inputs: number[]) => inputs.map((inputTokens, i) => ({ step: i + 1, inputTokens }));

describe('PromptCrossings', () => {
  const tiered: ModelPricing = { ...handPriced('tiered', { input: 1, output: 2 }, 1000), tiers: [{ aboveInputTokens: 500, prices: { input: 2_000_000, output: 4_000_000 } }] };
  const dearerDay: ModelPricing = { ...tiered, base: { input: 3_000_000, output: 6_000_000 } };

  it('per model, each tier then the context window less max_tokens: runs, runs crossing (a prompt above it, not at it), the first and median step (a step-0 row counts as step 1)', () => {
    // max_tokens 100: a prompt past 900 tokens of tiered's 1,000-token window is refused (step 4's 1,000).
    const crossings = new PromptCrossings({ maxOutputTokens: 100 });
    crossings.add(tiered, rows(100, 500, 600, 1000, 1200));
    crossings.add(MINI, rows(1000));
    crossings.add(tiered, rows(50, 80));
    crossings.add(dearerDay, [{ step: 0, inputTokens: 700 }]);
    // Sorted by model (not the order the runs came in).
    expect(crossings.crossings()).toEqual([
      { model: 'mini', kind: 'context_window', aboveInputTokens: 127_900, contextWindowTokens: 128_000, maxOutputTokens: 100, runs: 1, runsCrossing: 0, firstStep: null, medianStep: null },
      { model: 'tiered', kind: 'price_tier', aboveInputTokens: 500, runs: 3, runsCrossing: 2, firstStep: 1, medianStep: 1 },
      { model: 'tiered', kind: 'context_window', aboveInputTokens: 900, contextWindowTokens: 1000, maxOutputTokens: 100, runs: 3, runsCrossing: 1, firstStep: 4, medianStep: 4 },
    ]);
    // Every pricing a run came with (the worst case is taken over them all), not one per model.
    expect(crossings.pricings).toEqual([tiered, MINI, dearerDay]);
  });

  it('over recorded and synthetic runs in one pass = each run made again on its own with its steps kept', async () => {
    // A small model with a tier, so that prompts do pass its thresholds.
    const small: ModelPricing = { ...handPriced('small', { input: 1, output: 2 }, 9000), tiers: [{ aboveInputTokens: 3000, prices: { input: 2_000_000, output: 4_000_000 } }] };
    const prices = handTable(small);
    const traces = await collectAsync(loadTraceFiles(collectInputs(['test/fixtures/mini-swe-agent'])));
    const scenario = loadScenarioFile('scenarios/production-mix.yaml');
    const config: PopulationConfig = { brakes: REFERENCE_PRESET, strategy: { kind: 'window', windowSteps: 6 }, model: 'small' };
    const onePass = new PromptCrossings();
    const observe = (result: { rows: { step: number; inputTokens: number }[] }, pricing: ModelPricing) => onePass.add(pricing, result.rows);
    populationRuns({ traces }, config, prices, observe);
    populationRuns({ scenarios: [{ scenario, runs: 300, seed: 5 }] }, config, prices, observe);

    const apart = new PromptCrossings();
    for (const trace of traces) {
      const pricing = resolveTracePricing(trace, { prices, model: 'small' });
      apart.add(pricing, replayTrace(trace, { brakes: config.brakes, strategy: config.strategy, prices, pricing, keepSteps: true }).rows);
    }
    const prepared = prepareScenario(scenario, { prices, runs: 300, seed: 5, brakes: config.brakes, strategy: config.strategy, model: 'small', keepSteps: true });
    for (let run = 0; run < 300; run++) apart.add(prepared.pricing, runSynthetic(prepared, run).result.rows);

    expect(onePass.crossings()).toEqual(apart.crossings());
    // Something to compare: every run counted, and some (not all) runs pass each threshold.
    for (const crossing of onePass.crossings()) {
      expect(crossing.runs).toBe(traces.length + 300);
      expect(crossing.runsCrossing).toBeGreaterThan(0);
      expect(crossing.runsCrossing).toBeLessThan(crossing.runs);
    }
  });
});

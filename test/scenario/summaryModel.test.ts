/**
 * `summary:…,model=X` in a synthetic run: the summary calls are priced as X, the agent's calls as its own
 * model, and the agents behave the same whatever X costs (no brake reads the price here). Recorded runs
 * had this already (src/replay/replay.ts summaryPricingOf); synthetic runs priced X's calls as the
 * run's model until 2026-12-04.
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { parseContextSpec } from '../../src/context/strategy.js';
import { callCostPico } from '../../src/kernel/cost.js';
import { flattenPrices } from '../../src/kernel/prices.js';
import { runScenario } from '../../src/scenario/run.js';
import { handPriced, handTable, MINI, userErrorOf } from '../helpers.js';
import { entry, scenarioOf } from '../synthetic/helpers.js';

/** Ten times mini's prices, so a summary call priced as the wrong model cannot match. */
const BIG = handPriced('big', { input: 1.5, output: 6, cached: 0.75 }, 128_000);
const PRICES = handTable(MINI, BIG);
const SUMMARY = 'summary:trigger=6000,keep=2,tokens=400';
const scenario = scenarioOf({ population: [entry('forgetful', { steps: 14, observationTokens: 2500 })] });

function runsUnder(spec: string) {
  return runScenario(scenario, { prices: PRICES, runs: 3, seed: 7, brakes: NO_BRAKES, strategy: parseContextSpec(spec), keepSteps: true });
}

const costAs = (prices: typeof MINI, row: { inputTokens: number; cachedInputTokens: number; cacheWriteTokens: number; outputTokens: number }) =>
  callCostPico(flattenPrices(prices).rows, 0, row.inputTokens, row.cachedInputTokens, row.cacheWriteTokens, 0, row.outputTokens, 0);

describe('summary calls of synthetic runs under summary:…,model=X', () => {
  it('are priced as X; the agent calls as the run model; the runs take the same steps', () => {
    const own = runsUnder(SUMMARY);
    const big = runsUnder(`${SUMMARY},model=big`);
    expect(own.reduce((n, run) => n + (run.summaryCalls ?? 0), 0)).toBeGreaterThan(0);
    for (const [i, run] of big.entries()) {
      expect(run.steps).toBe(own[i]!.steps);
      expect(run.rows.map((row) => [row.summary === true, row.inputTokens, row.outputTokens])).toEqual(own[i]!.rows.map((row) => [row.summary === true, row.inputTokens, row.outputTokens]));
      for (const row of run.rows) expect(row.costPico).toBe(costAs(row.summary ? BIG : MINI, row));
      const summaryRows = run.rows.filter((row) => row.summary);
      expect(run.summaryCostPico ?? 0).toBe(summaryRows.reduce((sum, row) => sum + costAs(BIG, row), 0));
      expect(run.costPico).toBe(run.rows.reduce((sum, row) => sum + row.costPico, 0));
    }
    for (const run of own) for (const row of run.rows) expect(row.costPico).toBe(costAs(MINI, row));
  });

  it('with the cache on, a summary on X reads nothing from the run model\'s cache; on the run model it reads the unchanged prefix', () => {
    const cached = (spec: string) => {
      const runs = runScenario(scenario, { prices: PRICES, runs: 3, seed: 7, brakes: NO_BRAKES, strategy: { ...parseContextSpec(spec), cache: 'on' }, keepSteps: true });
      return runs.flatMap((run) => run.rows.filter((row) => row.summary).map((row) => row.cachedInputTokens));
    };
    const own = cached(SUMMARY);
    expect(own.length).toBeGreaterThan(0);
    expect(own.every((tokens) => tokens > 0)).toBe(true);
    expect(cached(`${SUMMARY},model=big`)).toEqual(own.map(() => 0));
  });

  it("an unknown X in the scenario file's context is named in that file", () => {
    const file = scenarioOf({ context: { context: `${SUMMARY},model=nope` }, population: [entry('forgetful', { steps: 4, observationTokens: 500 })] }, 'agents.yaml');
    const error = userErrorOf(() => runScenario(file, { prices: PRICES, runs: 1, seed: 1, brakes: NO_BRAKES }));
    expect(error.issues[0]).toMatchObject({ file: 'agents.yaml', field: 'context.context', code: 'unknown_model' });
  });
});

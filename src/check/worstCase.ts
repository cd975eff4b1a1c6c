/**
 * The worst case per run a scenario's brakes allow, as `loopcost project` computes it
 * (population/worstCase.ts worstCaseRun): over the prices of the models its runs were priced at (each
 * trace's own, the population's file's, or `--model`), with the summary calls its context makes
 * (summaryCallsOf) and the calls its runs make that the step cap does not count (uncountedCallsOf).
 * Under `check --tree` the brakes bind each tree's totals, as under `project --tree`: the same bound, of a
 * tree. A baseline holds it (figures.worstCasePerRunUsd) so a loosened brake fails the gate even when no
 * run at hand reached it (worstCaseDrift.ts). Pure: no node:*, no clock.
 */
import { summaryCallsOf, uncountedCallsOf, worstCaseRun, type WorstCase } from '../population/worstCase.js';
import type { PriceTable } from '../pricing/types.js';
import { tracePricing } from '../replay/tracePricing.js';
import type { Scenario } from '../scenario/load.js';
import { scenarioPricing } from '../scenario/scenarioPlaces.js';
import type { Trace } from '../trace/types.js';
import type { CheckInput } from './inputs.js';

/** The worst case per run of one scenario's runs (`traces`: the recorded ones) under its settings, priced by `prices` (as `model`, when given). */
export function scenarioWorstCase(input: CheckInput, traces: readonly Trace[], priced: { prices: PriceTable; model?: string }): WorstCase {
  const { scenario, settings } = input;
  const { prices, model } = priced;
  const scenarios = scenario.population === undefined || settings.runs === 0 ? [] : [{ scenario: scenario as Scenario, runs: settings.runs, seed: settings.seed }];
  // The pricing each run came with: a trace's (population/run.ts tracePricings), the population's (prepareScenario).
  const pricings = [...traces.map((trace) => tracePricing(trace, { prices, ...(model === undefined ? {} : { model }) })), ...scenarios.map((s) => scenarioPricing(s.scenario, prices, { model }))];
  return worstCaseRun(settings.brakes, pricings, { uncounted: uncountedCallsOf({ traces, scenarios }), ...summaryCallsOf(settings.strategy, prices) });
}

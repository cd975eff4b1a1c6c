/**
 * One scenario checked: its runs (the recorded traces it names, then its synthetic population) under its
 * settings, each paired with its no-brakes baseline by the population runner (src/population/run.ts),
 * the population figures (src/metrics/population.ts) and every expectation held against them.
 */
import { populationMetrics, type PopulationMetrics } from '../metrics/population.js';
import { populationRuns, type PopulationRun } from '../population/run.js';
import { defaultCacheMode } from '../replay/replay.js';
import { strategyTotals, type StrategyTotals } from '../population/sweep.js';
import type { PriceTable } from '../pricing/types.js';
import { reportSettings, type ReportSettings } from '../report/settings.js';
import type { Scenario } from '../scenario/load.js';
import type { Trace } from '../trace/types.js';
import { evaluateExpectations, type CheckedRun, type ExpectationResult } from './evaluate.js';
import type { CheckInput } from './inputs.js';
import { ResolvedPrices } from './modelPrices.js';

export interface ScenarioCheck {
  /** The scenario file. */
  source: string;
  /** Its `name`, else the file. */
  name: string;
  settings: ReportSettings;
  recordedRuns: number;
  syntheticRuns: number;
  /** The seed of the synthetic runs (present when there are any). */
  seed?: number;
  /** The models the runs were priced at (each run's own, or `--model`), sorted. */
  models: string[];
  metrics: PopulationMetrics;
  /** Summary calls and cost, cache hits lost to the strategy, skipped actions: present when one is not 0. */
  strategy?: StrategyTotals;
  results: ExpectationResult[];
}

function checkedRun(run: PopulationRun): CheckedRun {
  const behaviour = run.truth === undefined ? undefined : (run.truth.name ?? run.truth.behaviour);
  return { source: run.source, ...(behaviour === undefined ? {} : { behaviour }), stopReason: run.run.stopReason, steps: run.run.steps, costPico: run.run.costPico };
}

/** The scenario's runs under its settings (`model`: every run re-priced as it), paired with their baselines. */
export function checkRuns(input: CheckInput, traces: readonly Trace[], prices: PriceTable, model?: string): PopulationRun[] {
  const { scenario, settings } = input;
  const common = { brakes: settings.brakes, strategyPlace: input.strategyPlace, ...(settings.latency === undefined ? {} : { latency: settings.latency }), ...(model === undefined ? {} : { model }) };
  const runs = traces.length === 0 ? [] : populationRuns({ traces }, { ...common, strategy: input.traceStrategy }, prices);
  if (scenario.population !== undefined) {
    const population = { scenario: scenario as Scenario, runs: settings.runs, seed: settings.seed };
    runs.push(...populationRuns({ scenarios: [population] }, { ...common, strategy: settings.strategy }, prices));
  }
  return runs;
}

export function checkScenario(input: CheckInput, traces: readonly Trace[], prices: PriceTable, model?: string): ScenarioCheck {
  const priced = new ResolvedPrices(prices);
  const runs = checkRuns(input, traces, priced, model);
  const metrics = populationMetrics(runs);
  const { scenario, settings } = input;
  const recordedRuns = runs.filter((run) => run.truth === undefined).length;
  const strategy = strategyTotals(runs.map((run) => run.run));
  return {
    source: scenario.source,
    name: scenario.name ?? scenario.source,
    settings: reportSettings({
      brakes: settings.brakes,
      strategy: scenario.population === undefined ? input.traceStrategy : settings.strategy,
      ...(settings.latency === undefined ? {} : { latency: settings.latency }),
      ...(model === undefined ? {} : { model }),
      // What the runs took of the cache and latency no flag gave: the traces' own (defaultCacheMode), the population's its file's.
      took: { recordedCaches: traces.map(defaultCacheMode), scenarios: scenario.population === undefined ? [] : [settings] },
    }),
    recordedRuns,
    syntheticRuns: runs.length - recordedRuns,
    ...(runs.length > recordedRuns ? { seed: settings.seed } : {}),
    models: [...new Set(priced.rows().map((row) => row.model))].sort(),
    metrics,
    ...(Object.keys(strategy).length > 0 ? { strategy } : {}),
    results: evaluateExpectations(scenario.expect ?? {}, runs.map(checkedRun), metrics),
  };
}

/**
 * Synthetic runs in a sweep, shared across brake settings. A closed-loop agent under brakes that only stop
 * it (step cap, budget, timeout, token cap, context window, repeat and same-error stops) makes exactly the
 * calls it makes under none, up to the stop: its policy sees the prompt the context strategy built, which
 * such brakes do not change (test/population/syntheticSweep.test.ts holds it on every bundled scenario). So
 * each run is made once per context, cache, model and latency (baselineKey) with no brakes, written down
 * as `generate` writes it (syntheticTrace), and the recordings go through the compiled sweep as recorded
 * runs do, a batch at a time: every brake setting of the group read off the same passes, the baselines
 * cells of the same sweep.
 *
 * Run closed loop per configuration as before (populationRuns): configurations whose brakes change what
 * the agent sees (repeat-action skip) or whose strategy rewrites history (mask, summary, hybrid: a summary
 * call waits on the brakes) — hasStrategyFigures — and cache-on runs of a scenario whose provider serves
 * part of the prefix (its agent writes the cached tokens, metered as recorded).
 * Pure: no node:*, no clock.
 */
import { NO_BRAKES } from '../brakes/config.js';
import type { PriceTable } from '../pricing/types.js';
import { syntheticTrace } from '../scenario/generate.js';
import { runSynthetic } from '../scenario/run.js';
import type { Trace } from '../trace/types.js';
import type { CellVisitor, RunVisitor } from './sweepCells.js';
import { baselineKey, populationRuns, preparedOf, type PopulationConfig, type PopulationInputs, type ScenarioPopulation } from './run.js';
import { hasStrategyFigures, recordedRuns, SWEEP_SLICE_TRACES, type SweepResults } from './sweepRecorded.js';

/** Whether a configuration's synthetic runs of these scenarios are the stops of one unbraked run each. */
export function sweptByRecording(config: PopulationConfig, scenarios: readonly ScenarioPopulation[]): boolean {
  if (hasStrategyFigures(config)) return false;
  return config.strategy.cache !== 'on' || scenarios.every(({ scenario }) => (scenario.cacheHitShare ?? 1) >= 1);
}

/** Runs recorded and swept at a time (the memory of one batch's traces, compiled traces and cells). */
const RECORDED_BATCH_RUNS = SWEEP_SLICE_TRACES;

/**
 * Every run of the scenarios made once with no brakes under the configuration's context, cache, model and
 * latency, as traces, in batches of at most `batchRuns` (in run order).
 */
export function* recordedSyntheticRuns(scenarios: readonly ScenarioPopulation[], config: PopulationConfig, prices: PriceTable, batchRuns = RECORDED_BATCH_RUNS): Generator<Trace[]> {
  for (const population of scenarios) {
    const prepared = preparedOf(population, config, prices);
    const unbraked = { ...prepared, brakes: NO_BRAKES, keepSteps: prepared.latency !== undefined };
    const of = { scenario: population.scenario, hardCapSteps: prepared.hardCapSteps, ...(prepared.latency === undefined ? {} : { latency: prepared.latency }) };
    const first = population.firstRun ?? 0;
    for (let from = 0; from < population.runs; from += batchRuns) {
      const to = Math.min(population.runs, from + batchRuns);
      yield Array.from({ length: to - from }, (_, k) => syntheticTrace(runSynthetic(unbraked, first + from + k, true), of));
    }
  }
}

/**
 * Each configuration's synthetic runs handed to the visitors (as populationRuns would give them, in run
 * order): by recording where sweptByRecording, one compiled sweep per baselineKey (its sweep reused from
 * add to add in `sweeps`), else closed loop.
 */
export function syntheticRuns(inputs: PopulationInputs, configs: readonly PopulationConfig[], prices: PriceTable, visitors: { visit: RunVisitor; visitCell: CellVisitor }, sweeps: Map<string, SweepResults>): void {
  const scenarios = inputs.scenarios ?? [];
  if (scenarios.length === 0) return;
  const groups = new Map<string, number[]>();
  configs.forEach((config, c) => {
    if (!sweptByRecording(config, scenarios)) {
      for (const pair of populationRuns(inputs, config, prices)) visitors.visit(c, pair.run, pair.baseline);
      return;
    }
    const key = baselineKey(config);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [c]);
    else group.push(c);
  });
  for (const [key, cells] of groups) {
    let results = sweeps.get(key);
    if (results === undefined) sweeps.set(key, (results = new Map()));
    const group = cells.map((c) => configs[c]!);
    const visit: RunVisitor = (k, run, baseline) => visitors.visit(cells[k]!, run, baseline);
    const visitCell: CellVisitor = (k, f, baseline) => visitors.visitCell(cells[k]!, f, baseline);
    for (const traces of recordedSyntheticRuns(scenarios, group[0]!, prices)) recordedRuns({ traces, recorded: { traces } }, group, prices, { visit, visitCell }, results);
  }
}

/**
 * Synthetic runs recorded once and replayed under many brake settings. A closed-loop agent under brakes
 * that only stop it (step cap, budget, timeout, token cap, context window, repeat and same-error stops)
 * makes exactly the calls it makes under none, up to the stop: its policy sees the prompt the context
 * strategy built, which such brakes do not change (test/population/syntheticSweep.test.ts holds it on
 * every bundled scenario). So a run made once with no brakes per context, cache, model and latency
 * (baselineKey), written down as `generate` writes it (syntheticTrace), replays under such brakes to what
 * the closed loop gives. A sweep (syntheticSweep.ts) sweeps the recordings compiled, every brake setting
 * read off shared passes; the population runner (one configuration at a time: check, project, calibrate)
 * stays closed loop, where a recording and its replays cost more than the two runs it saves.
 *
 * Not recorded (closed loop per configuration): brakes that change what the agent sees (repeat-action
 * skip), strategies that rewrite history (mask, summary, hybrid: a summary call waits on the brakes) —
 * hasStrategyFigures — and cache-on runs of a scenario whose provider serves part of the prefix (its agent
 * writes the cached tokens, metered as recorded).
 * Pure: no node:*, no clock.
 */
import { NO_BRAKES } from '../brakes/config.js';
import { rewritesHistory } from '../context/strategy.js';
import type { PriceTable } from '../pricing/types.js';
import { syntheticTrace } from '../scenario/generate.js';
import { prepareScenario, runSynthetic, type PreparedScenario } from '../scenario/run.js';
import type { Trace } from '../trace/types.js';
import type { PopulationConfig, ScenarioPopulation } from './run.js';

/**
 * A configuration whose runs may have strategy figures: replayed run by run (as the compiled sweep does
 * for them anyway), which gives those figures — from the runs' calls, not only their compiled traces.
 */
export function hasStrategyFigures(config: PopulationConfig): boolean {
  return rewritesHistory(config.strategy) || config.brakes.repeatAction === 'skip';
}

/** Whether a configuration's synthetic runs of these scenarios are the stops of one unbraked run each. */
export function sweptByRecording(config: PopulationConfig, scenarios: readonly ScenarioPopulation[]): boolean {
  if (hasStrategyFigures(config)) return false;
  return config.strategy.cache !== 'on' || scenarios.every(({ scenario }) => (scenario.cacheHitShare ?? 1) >= 1);
}

/** A scenario population prepared under a configuration (its brakes, context, latency and model). */
export function preparedOf(population: ScenarioPopulation, config: PopulationConfig, prices: PriceTable): PreparedScenario {
  return prepareScenario(population.scenario, {
    prices,
    runs: population.runs,
    seed: population.seed,
    brakes: config.brakes,
    strategy: config.strategy,
    ...(config.strategyPlace === undefined ? {} : { strategyPlace: config.strategyPlace }),
    ...(config.latency === undefined ? {} : { latency: config.latency }),
    ...(config.model === undefined ? {} : { model: config.model }),
  });
}

/**
 * Every run of the scenarios made once with no brakes under the configuration's context, cache, model and
 * latency, as traces, in batches of at most `batchRuns` (in run order).
 */
export function* recordedSyntheticRuns(scenarios: readonly ScenarioPopulation[], config: PopulationConfig, prices: PriceTable, batchRuns = Infinity): Generator<Trace[]> {
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

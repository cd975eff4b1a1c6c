/**
 * Synthetic runs recorded once and replayed under many brake settings. A closed-loop agent under brakes
 * that only stop it (step cap, budget, timeout, token cap, context window, repeat and same-error stops)
 * makes exactly the calls it makes under none, up to the stop: its policy sees the prompt the context
 * strategy built, which such brakes do not change (test/population/syntheticSweep.test.ts holds it on
 * every bundled scenario). So a run made once with no brakes per context, cache, model and latency
 * (baselineKey), written down as `generate` writes it (unbrakedTraces), replays under such brakes to what
 * the closed loop gives. A sweep (syntheticSweep.ts) sweeps the recordings compiled, every brake setting
 * read off shared passes (as `calibrate` does); the population runner (one configuration at a time:
 * check, project) stays closed loop, where a recording and its replays cost more than the two runs it
 * saves.
 *
 * Not recorded (closed loop per configuration): brakes that change what the agent sees (repeat-action
 * skip), strategies that rewrite history (mask, summary, hybrid: a summary call waits on the brakes) —
 * hasStrategyFigures — and cache-on runs of a scenario whose provider serves part of the prefix (its agent
 * writes the cached tokens, metered as recorded).
 * Pure: no node:*, no clock.
 */
import type { PriceTable } from '../pricing/types.js';
import { unbrakedTraces } from '../scenario/generate.js';
import type { Trace } from '../trace/types.js';
import { preparedOf, type PopulationConfig, type ScenarioPopulation } from './run.js';
import { hasStrategyFigures } from './sweepRecorded.js';

/** Whether a configuration's synthetic runs of these scenarios are the stops of one unbraked run each. */
export function sweptByRecording(config: PopulationConfig, scenarios: readonly ScenarioPopulation[]): boolean {
  if (hasStrategyFigures(config)) return false;
  return config.strategy.cache !== 'on' || scenarios.every(({ scenario }) => (scenario.cacheHitShare ?? 1) >= 1);
}

/** The most a batch of recordings holds: runs, and calls (a stuck agent's run may go on to a hard cap of thousands of steps). */
export interface RecordingBatch {
  runs: number;
  calls: number;
}

/**
 * Every run of the scenarios made once with no brakes under the configuration's context, cache, model and
 * latency, as traces, in batches (in run order; a batch ends at its most runs or once it holds its most
 * calls, and never spans two scenarios).
 */
export function* recordedSyntheticRuns(scenarios: readonly ScenarioPopulation[], config: PopulationConfig, prices: PriceTable, most: RecordingBatch = { runs: Infinity, calls: Infinity }): Generator<Trace[]> {
  for (const population of scenarios) {
    const prepared = preparedOf(population, config, prices);
    let batch: Trace[] = [];
    let calls = 0;
    for (const trace of unbrakedTraces(prepared, population.firstRun ?? 0, population.runs)) {
      batch.push(trace);
      calls += trace.calls.length;
      if (batch.length >= most.runs || calls >= most.calls) {
        yield batch;
        batch = [];
        calls = 0;
      }
    }
    if (batch.length > 0) yield batch;
  }
}

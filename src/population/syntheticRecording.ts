/**
 * Synthetic runs recorded once and replayed under many brake settings. A closed-loop agent under brakes
 * that only stop it (step cap, budget, timeout, token cap, context window, repeat and same-error stops)
 * makes exactly the calls it makes under none, up to the stop: its policy sees the prompt the context
 * strategy built, which such brakes do not change (test/population/syntheticSweep.test.ts holds it on
 * every bundled scenario). So a run made once with no brakes per context, cache, model, latency and
 * max_tokens sent (syntheticBaselineKey), written down as `generate` writes it (unbrakedTraces), replays
 * under such brakes to what the closed loop gives. The max_tokens is not a brake but what each request
 * carries, and the agent's provider refuses prompt + max_tokens past the model's window: recorded under
 * 4096, a run ends where one under `--max-output-tokens 100` goes on (and the other way round), so
 * configurations that send different max_tokens never share a recording
 * (test/synthetic/maxTokensWindowSweep.test.ts). A sweep (syntheticSweep.ts) sweeps the recordings
 * compiled, every brake setting read off shared passes (as `calibrate` does); the population runner (one
 * configuration at a time: check, project) stays closed loop, where a recording and its replays cost more
 * than the two runs it saves.
 *
 * A recording's replays read it only up to where the group's largest step cap stops them (a step cap
 * stops a run before its next call, ahead of a recording's end: beforeCall's order), and its no-brake
 * replay is the recorded run itself: so the sweep is given each run's own figures as its baseline
 * (`baselines`), and each recording is written down only up to the step that cap allows (`throughStep`)
 * — a stuck agent's run goes on to a hard cap of 1,440 steps, a sweep's caps are rarely past a few dozen.
 *
 * Not recorded (closed loop per configuration): brakes that change what the agent sees (repeat-action
 * skip) and strategies that rewrite history (mask, summary, hybrid: a summary call waits on the brakes) —
 * hasStrategyFigures. Cache-on runs of a scenario whose provider serves part of the prefix (its agent writes
 * the cached tokens, metered as recorded: every fitted profile's cacheHitShare under 1) are recorded with
 * the cache they billed and replayed with the cache as recorded (Recordings.cacheAsRecorded), as they ran.
 * Pure: no node:*, no clock.
 */
import { stopCodeOf } from '../kernel/stopCodes.js';
import type { PriceTable } from '../pricing/types.js';
import { unbrakedRecordings } from '../scenario/generate.js';
import type { Trace } from '../trace/types.js';
import { preparedOf, type PopulationConfig, type ScenarioPopulation } from './run.js';
import type { CellBaseline } from './sweepCells.js';
import { hasStrategyFigures } from './sweepRecorded.js';

/** Whether a configuration's synthetic runs are the stops of one unbraked run each. */
export function sweptByRecording(config: PopulationConfig): boolean {
  return !hasStrategyFigures(config);
}

/** Whether a scenario's runs under the configuration meter the cached tokens their agent writes (cache on, a provider serving part of the prefix). */
function cacheWrittenByAgent(config: PopulationConfig, population: ScenarioPopulation): boolean {
  return config.strategy.cache === 'on' && (population.scenario.cacheHitShare ?? 1) < 1;
}

/** The most a batch of recordings holds: runs, and calls (a stuck agent's run may go on to a hard cap of thousands of steps). */
export interface RecordingBatch {
  runs: number;
  calls: number;
}

/**
 * A batch of recordings, and each one's baseline: the unbraked run's own figures (stops as codes) and its
 * ground truth. `cacheAsRecorded`: the runs metered the cached tokens their agent wrote (cacheWrittenByAgent),
 * which their calls carry: replayed with the cache as recorded (the closed loop's cache mode), not on.
 */
export interface Recordings {
  traces: Trace[];
  baselines: CellBaseline[];
  cacheAsRecorded: boolean;
}

/**
 * Every run of the scenarios made once with no brakes under the configuration's context, cache, model,
 * latency and max_tokens sent, as traces, in batches (in run order; a batch ends at its most runs or once
 * it holds its most calls, and never spans two scenarios).
 */
export function* recordedSyntheticRuns(scenarios: readonly ScenarioPopulation[], config: PopulationConfig, prices: PriceTable, options: { batch?: RecordingBatch; throughStep?: number } = {}): Generator<Recordings> {
  const most = options.batch ?? { runs: Infinity, calls: Infinity };
  for (const population of scenarios) {
    const prepared = preparedOf(population, config, prices);
    const cacheAsRecorded = cacheWrittenByAgent(config, population);
    let batch: Recordings = { traces: [], baselines: [], cacheAsRecorded };
    let calls = 0;
    // Under the configuration's latency model no latency is written down: the sweep replays each recording
    // under that model (baselineKey), which gives them again. A scenario's own model is written down.
    const latencies = config.latency === undefined;
    const throughStep = options.throughStep === undefined ? {} : { throughStep: options.throughStep };
    // A run its provider refused is written down ending at the refused call (failed.contextLengthExceeded):
    // replayed, it stops there, provider_refused, as the run did.
    for (const { trace, result } of unbrakedRecordings(prepared, { first: population.firstRun ?? 0, count: population.runs, latencies, cacheUsage: cacheAsRecorded, ...throughStep })) {
      batch.traces.push(trace);
      batch.baselines.push({ stop: stopCodeOf(result.stopReason), steps: result.steps, costPico: result.costPico, truth: { doneAtStep: trace.header.synthetic?.doneAtStep, stuckFromStep: trace.header.synthetic?.stuckFromStep } });
      calls += trace.calls.length;
      if (batch.traces.length >= most.runs || calls >= most.calls) {
        yield batch;
        batch = { traces: [], baselines: [], cacheAsRecorded };
        calls = 0;
      }
    }
    if (batch.traces.length > 0) yield batch;
  }
}

/** The largest step cap of the configurations, or undefined when one has none (its replays may read a recording to its end). */
export function largestStepCap(configs: readonly PopulationConfig[]): number | undefined {
  let largest = 0;
  for (const config of configs) {
    const cap = config.brakes.maxSteps;
    if (cap === undefined) return undefined;
    largest = Math.max(largest, cap);
  }
  return largest;
}

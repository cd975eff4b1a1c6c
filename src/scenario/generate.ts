/**
 * Synthetic runs written down as native traces: each run as it unfolds under the scenario's context
 * strategy with no brake, up to the hard cap (named in the header) or the provider's refusal of a prompt +
 * the max_tokens sent past the model's window (a failed call, 400, recorded as that refusal:
 * failed.contextLengthExceeded, so its replay ends there too, provider_refused). The calls carry the latencies the
 * latency model gave them and, with the cache on, the cached and cache-write tokens the provider billed
 * (the ones the loop metered, or, when the provider serves part of the prefix, the ones the agent wrote):
 * replayed with the cache as recorded (no --cache), under the scenario's context and no brakes, a
 * recording costs what its run did, to the picodollar. The header carries the ground truth.
 */
import type { LatencyModel } from '../loop/latency.js';
import { countsAsStep } from '../kernel/brakes.js';
import { callLatencyMs, toolLatencyMs } from '../kernel/latency.js';
import type { PriceTable } from '../pricing/types.js';
import type { RunResult } from '../replay/replay.js';
import type { StepRow } from '../loop/types.js';
import { TRACE_SCHEMA, type CallRecord, type Trace, type TraceEnd } from '../trace/types.js';
import type { Scenario } from './load.js';
import { prepareScenario, runSynthetic, strategyPlaceOf, unbrakedSending, type PreparedScenario, type SyntheticRun } from './run.js';
import { asOverridesGiven, type OverridesPlace } from './overrides.js';
import { COMMAND_LINE_CONTEXT } from '../context/strategy.js';
import { optionPlace } from '../options/given.js';
import { scenarioSettings, type ScenarioOverrides } from './settings.js';
import { copyWith } from '../copyWith.js';
import { maxOutputTokensSent } from '../brakes/config.js';
import { requireGenerateArguments } from '../options/entryArguments.js';
import { madeValid } from '../options/traceValues.js';

/** How the run ended; a prompt refused names the max_tokens its calls sent (the provider refuses prompt + max_tokens past the window). */
function endOf(run: SyntheticRun, { hardCapSteps, brakes }: PreparedScenario): TraceEnd {
  if (run.result.stopReason === 'completed') return { type: 'end', outcome: 'completed' };
  if (run.ending === 'provider_error') return { type: 'end', outcome: 'error', status: 'provider error (synthetic)' };
  if (run.ending === 'cut_off') return { type: 'end', outcome: 'unknown', status: 'cut off (synthetic)' };
  if (run.ending === 'context_window') return { type: 'end', outcome: 'error', status: `prompt + max_tokens ${maxOutputTokensSent(brakes)} past the model's context window (synthetic)` };
  return { type: 'end', outcome: 'limit', status: `hard cap of ${hardCapSteps} steps (synthetic, no brakes)` };
}

/** The loop's rows of the calls the agent answered, in call order (a summary call is the loop's own: not written down). */
function agentRows(run: SyntheticRun): StepRow[] {
  return run.result.rows.filter((row) => row.summary !== true);
}

function withLatencies(calls: CallRecord[], rows: readonly StepRow[], latency: LatencyModel | undefined): CallRecord[] {
  if (!latency) return calls;
  return calls.map((call, i) => {
    const row = rows[i]!;
    const toolCalls = call.toolCalls?.map((tool) => copyWith(tool, { latencyMs: toolLatencyMs(NaN, latency) }));
    return copyWith(call, { latencyMs: callLatencyMs(NaN, latency, row.inputTokens, row.outputTokens), ...(toolCalls ? { toolCalls } : {}) });
  });
}

/**
 * A run metered with the cache on: each call with the cached and cache-write tokens the loop metered for it
 * (the provider's minimum prefix applied; writes on a model that bills them, all for five minutes), as a
 * provider's usage records them. A run metered as recorded (a partial hit share) carries the agent's own.
 */
function withCacheUsage(calls: CallRecord[], rows: readonly StepRow[]): CallRecord[] {
  return calls.map((call, i) => {
    const row = rows[i];
    if (row === undefined || (row.cachedInputTokens === 0 && row.cacheWriteTokens === 0)) return call;
    const { cachedInputTokens, cacheWriteTokens } = row;
    return copyWith(call, { ...(cachedInputTokens > 0 ? { cachedInputTokens } : {}), ...(cacheWriteTokens > 0 ? { cacheWriteTokens } : {}) });
  });
}

/** What generateTraces takes: `overrides` shaped as `loopcost generate`'s flags, on top of the file's settings. */
export interface GenerateOptions {
  prices: PriceTable;
  overrides?: ScenarioOverrides;
}

/**
 * The scenario's runs as native traces, under its settings with `options.overrides` on top; a bad override,
 * or a strategy or max_tokens it gave that is refused, named as this function's option
 * (`<generateTraces options>` field `overrides.brakeFlags.maxOutputTokens`), never as a flag.
 */
export function generateTraces(scenario: Scenario, options: GenerateOptions): Generator<Trace> {
  // Checked as it is called, not when its first run is asked for (a generator's body waits for that).
  requireGenerateArguments(scenario, options);
  return generated(scenario, options, (field) => optionPlace('generateTraces', field));
}

/** generateTraces as `loopcost generate` runs it: the overrides are its flags, named as such (`--max-output-tokens`). */
export function* generateTracesAsCommand(scenario: Scenario, options: GenerateOptions): Generator<Trace> {
  yield* generated(scenario, options);
}

/** `at`: where a library caller gave the overrides (none: the command line). generate takes no model: a refusal names only the file's `model:`. */
function* generated(scenario: Scenario, options: GenerateOptions, at?: OverridesPlace): Generator<Trace> {
  const overrides = options.overrides ?? {};
  const settings = at === undefined ? scenarioSettings(scenario, overrides) : asOverridesGiven(at, () => scenarioSettings(scenario, overrides));
  const prepared = prepareScenario(scenario, {
    prices: options.prices,
    runs: settings.runs,
    seed: settings.seed,
    brakes: unbrakedSending(settings.brakes),
    strategy: settings.strategy,
    strategyPlace: strategyPlaceOf(scenario, overrides, at === undefined ? COMMAND_LINE_CONTEXT : at('overrides.contextFlags.context')),
    modelPlace: null,
    ...(at === undefined ? {} : { maxOutputTokensPlace: at('overrides.brakeFlags.maxOutputTokens') }),
    ...(settings.latency === undefined ? {} : { latency: settings.latency }),
  });
  yield* unbrakedTraces(prepared, prepared.firstRun, prepared.runs);
}

/**
 * Runs first .. first+count−1 of a prepared scenario, each made with no brakes up to the hard cap or the
 * window's refusal (its steps kept for the latencies when there is a latency model, and for the cache it
 * billed when it is on) and written down as a native trace: its calls with their latencies and cache usage,
 * the ground truth in the header, how it ended. What `generate` writes; a sweep replays synthetic runs from
 * the same recordings (unbrakedRecordings, src/population/syntheticRecording.ts).
 */
export function* unbrakedTraces(prepared: PreparedScenario, first: number, count: number): Generator<Trace> {
  for (const recording of unbrakedRecordings(prepared, { first, count, latencies: true, cacheUsage: true })) yield recording.trace;
}

/** A run made with no brakes written down as a trace, and the run's own result (what replaying the trace with no brakes gives). */
export interface UnbrakedRecording {
  trace: Trace;
  result: RunResult;
}

/** Which runs are recorded, and how much of each is written down. */
export interface RecordingOptions {
  /** Runs `first` .. `first + count − 1`. */
  first: number;
  count: number;
  /**
   * The calls carry the latencies the latency model gave them (as `generate` writes them). Without, they
   * carry none, and a replay under the same latency model, context and cache gives each call the same
   * latency again (from the same tokens as billed): a sweep's recordings, spared a copy of every call.
   */
  latencies: boolean;
  /** Only the calls up to the one that makes this step are written down (callsThroughStep); the result is the whole run's. */
  throughStep?: number;
  /**
   * Runs made with the cache on carry the cached and cache-write tokens it billed (withCacheUsage), so the
   * recording replayed with the cache as recorded costs what the run did (as `generate` writes them). Without,
   * a sweep replays its recordings with the configuration's cache, spared keeping every run's rows.
   */
  cacheUsage?: boolean;
}

/** Runs made with no brakes (their calls sending the max_tokens `prepared.brakes` sends: unbrakedSending), each with its result. */
export function* unbrakedRecordings(prepared: PreparedScenario, options: RecordingOptions): Generator<UnbrakedRecording> {
  const latencies = options.latencies && prepared.latency !== undefined;
  const cacheUsage = options.cacheUsage === true && prepared.strategy.cache === 'on';
  // Rows for the latencies and the cache of the calls written down, no more.
  const unbraked: PreparedScenario = { ...prepared, brakes: unbrakedSending(prepared.brakes), keepSteps: latencies || cacheUsage, ...(options.throughStep === undefined ? {} : { keepStepsThrough: options.throughStep }) };
  for (let k = 0; k < options.count; k++) {
    const run = runSynthetic(unbraked, options.first + k, true);
    let calls = options.throughStep === undefined ? run.calls : callsThroughStep(run.calls, options.throughStep);
    const rows = unbraked.keepSteps ? agentRows(run) : [];
    if (cacheUsage && run.cache === 'on') calls = withCacheUsage(calls, rows);
    if (latencies) calls = withLatencies(calls, rows, prepared.latency);
    yield { trace: syntheticTrace(run, prepared, calls), result: run.result };
  }
}

/** The calls up to the one that makes the `steps`-th step (a backtrack or a compaction is no step); the same array when there are no more. */
export function callsThroughStep(calls: CallRecord[], steps: number): CallRecord[] {
  let made = 0;
  for (let i = 0; i < calls.length; i++) {
    if (!countsAsStep(calls[i]!)) continue;
    made += 1;
    if (made === steps) return i + 1 === calls.length ? calls : calls.slice(0, i + 1);
  }
  return calls;
}

function syntheticTrace(run: SyntheticRun, prepared: PreparedScenario, calls: CallRecord[]): Trace {
  const { scenario, hardCapSteps } = prepared;
  const truth = run.truth;
  // Made by the generator, valid by construction: an entry point given it does not check its values again.
  return madeValid({
    source: run.result.source,
    header: {
      type: 'header',
      schema: TRACE_SCHEMA,
      model: scenario.model,
      ...(scenario.provider === undefined ? {} : { provider: scenario.provider }),
      systemTokens: run.systemTokens,
      goalTokens: run.goalTokens,
      origin: 'synthetic',
      task: run.result.task!,
      synthetic: {
        behaviour: truth.behaviour,
        ...(truth.name === undefined ? {} : { name: truth.name }),
        scenario: scenario.source,
        seed: truth.seed,
        run: truth.run,
        taskDone: truth.taskDone,
        ...(truth.doneAtStep === undefined ? {} : { doneAtStep: truth.doneAtStep }),
        ...(truth.stuckFromStep === undefined ? {} : { stuckFromStep: truth.stuckFromStep }),
        hardCapSteps,
      },
    },
    calls,
    end: endOf(run, prepared),
  });
}

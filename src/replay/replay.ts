/**
 * Replays runs and turns the outcomes into report records. A run is replayed by the compiled kernel
 * (src/fast: the trace compiled once, every rule a kernel function); with per-step rows (charts,
 * --per-step) or `engine: 'readable'` by the readable loop (src/loop), which applies the same kernel
 * call by call. Money stays in integer picodollars until a report is rendered.
 */
import type { GroundTruth } from '../synthetic/agent.js';
import { filledBrakeConfig, type BrakeConfig, type BrakeSettings } from '../brakes/config.js';
import type { StopReason } from '../brakes/stopReasons.js';
import { type CacheMode, type ContextStrategy, type StrategyPlace } from '../context/strategy.js';
import type { CompileScratch } from '../fast/compile.js';
import { replayCompiled } from '../fast/replayFast.js';
import { runOutcomeOf } from '../fast/runState.js';
import { runSettings } from '../fast/settings.js';
import { withSummaryPrices } from '../fast/strategySteps.js';
import { boundsInOptions } from '../kernel/cost.js';
import { brakeLimits } from '../kernel/limits.js';
import { flattenPrices } from '../kernel/prices.js';
import { runLoop } from '../loop/run.js';
import { ReplaySource } from '../loop/replaySource.js';
import type { LatencyModel } from '../loop/latency.js';
import type { RunOutcome, RunTotals, StepRow } from '../loop/types.js';
import { usdToPico } from '../money.js';
import { validateReplayOptions } from '../options/entryPoints.js';
import { optionPlace, requireTrace, type NamedPlace } from '../options/given.js';
import { cacheRuleOf, withCacheRule } from '../pricing/cacheRules.js';
import type { ModelPricing, PriceTable } from '../pricing/types.js';
import type { Trace } from '../trace/types.js';
import { compiledForOneReplay, compiledOf, handedOverCompiled } from './compiledRuns.js';
import { freezeTrace } from '../trace/freezeTrace.js';
import { inRunContext } from './runContext.js';
import { checkSummaryTrigger, summaryPricingOf } from './summaryPricing.js';
export { checkSummaryTrigger, resolveSummaryModel, summaryPricingOf } from './summaryPricing.js';
import { meteredCacheOf, recordedStrategyOf, recordingUnder, replayAsRan } from './recordedStrategy.js';
import { recordedEndDetail } from '../trace/endDetail.js';
import { hasRecordedCache, hasRecordedInput, recordedCallCount, recordedCallsCostPico } from './runFacts.js';
import { tracePricing } from './tracePricing.js';

export interface ReplayOptions {
  brakes: BrakeConfig;
  strategy: ContextStrategy;
  /** Where `strategy` was written, to name it in a complaint (default: replayTrace's `strategy` option; the CLI passes `--context`). */
  strategyPlace?: StrategyPlace;
  prices: PriceTable;
  /** Re-price every run as if made on this model. */
  model?: string;
  keepSteps?: boolean;
  /** The model's prices when the caller already resolved them (see resolveTracePricing); metered by their provider's cache rule when they state none (kernel/prices.ts flattenPrices). */
  pricing?: ModelPricing;
  /** Time for calls and tool calls whose trace records none. */
  latency?: LatencyModel;
  /**
   * `compiled` (default, unless keepSteps): the compiled kernel; `readable`: the loop call by call
   * (what keepSteps uses; tests hold the two equal).
   */
  engine?: 'compiled' | 'readable';
  /**
   * Memory to compile the run into when the caller replays each run once and keeps nothing of its
   * compiled trace (see CompileScratch); without it the compiled trace is kept with the Trace.
   */
  scratch?: CompileScratch;
}

export interface RunResult extends Omit<RunTotals, 'calls'> {
  source: string;
  /** The model the trace was recorded on. */
  recordedModel: string;
  /** The model it was priced as (differs under --model). */
  model: string;
  task?: string;
  cache: CacheMode;
  stopReason: StopReason;
  stopDetail: string;
  /** The predictive budget bound refused the call the run stopped at (Stop.byPredictiveBound): present only then. */
  stopByPredictiveBound?: true;
  /** Every model call made, backtracks and failed calls included. */
  modelCalls: number;
  /** Calls the trace holds (what an unbraked replay would make). */
  recordedCalls: number;
  recordedOutcome: string;
  recordedStatus?: string;
  /** Cost the source recorded for the whole run (or Σ of per-call costs). */
  recordedCostPico?: number;
  /** Σ of recorded per-call costs of the calls this replay made. */
  recordedCallCostPico?: number;
  recordedInputTokens?: number;
  /** Recorded prompt tokens minus the growth model's (overhead the model does not see). */
  inputTokenDelta?: number;
  /** What the importer said about how it rebuilt the run (tokenizer, scaling, skipped traffic). */
  importNotes?: string[];
  /** With --cache on: why caching saved less than the unchanged prefix suggests (no cached price, the provider's minimum prefix). */
  cacheNotes?: string[];
  /** Ground truth of a synthetic run (scenario inputs): was the task done, from which step was it stuck. */
  synthetic?: GroundTruth;
  rows: StepRow[];
}

/**
 * `recorded` for traces that carry recorded usage, unless the user chose; a synthetic one (`generate`'s) bills
 * the cache its calls carry, as recorded, and is `off` when they carry none (the same cost, and the fast paths).
 */
export function defaultCacheMode(trace: Trace): CacheMode {
  if (trace.header.origin === 'synthetic') return hasRecordedCache(trace) ? 'recorded' : 'off';
  if (trace.header.origin === 'recorded') return 'recorded';
  return hasRecordedInput(trace) ? 'recorded' : 'off';
}

function recordedRunCost(trace: Trace): number | undefined {
  if (trace.end.recordedCostUsd !== undefined) return usdToPico(trace.end.recordedCostUsd);
  return recordedCallsCostPico(trace);
}

/**
 * The model's pricing for a trace (with `model`, that model's), its provider's cache rule filled in: a library
 * result shows the rule its runs meter by (the kernel takes the same rule anyway: kernel/prices.ts
 * flattenPrices, so no figure depends on the fill, and loopcost's own callers take tracePricing, unfilled). An
 * unknown `model` is named at `modelPlace` (default: this function's own `model` option; replayTrace and the
 * tree replays name theirs, the CLI's commands `--model`, COMMAND_LINE_MODEL).
 */
export function resolveTracePricing(trace: Trace, options: Pick<ReplayOptions, 'prices' | 'model'> & { modelPlace?: NamedPlace }): ModelPricing {
  return withCacheRule(tracePricing(trace, options));
}

/**
 * A run's outcome (a live run's recording that states its strategy: under full context or that strategy as its
 * loop ran it, under another its full history rebuilt first; recordedStrategy.ts).
 */
function replayOutcome(recording: Trace, options: ReplayOptions, pricing: ModelPricing, asked: CacheMode): RunOutcome {
  const ran = recordedStrategyOf(recording, options.strategy);
  if (ran !== undefined) return replayAsRan(recording, ran, { ...options, pricing, cache: asked });
  const trace = recordingUnder(recording, options.strategy);
  const cache = meteredCacheOf(trace, asked); // (a rebuilt recording's cache: the provider's rule, not its shaped prompts' reads)
  const summaryPricing = summaryPricingOf(options.strategy, options.prices, trace.header.recordedAt, options.strategyPlace);
  checkSummaryTrigger({ strategy: options.strategy, brakes: options.brakes, pricing, ...(summaryPricing === undefined ? {} : { summaryPricing }) }, options.strategyPlace);
  if (options.keepSteps === true || options.engine === 'readable') {
    return runLoop(new ReplaySource(trace), {
      brakes: options.brakes,
      strategy: options.strategy,
      cache,
      pricing,
      systemTokens: trace.header.systemTokens,
      goalTokens: trace.header.goalTokens,
      keepSteps: options.keepSteps ?? false,
      ...(options.latency === undefined ? {} : { latency: options.latency }),
      ...(summaryPricing === undefined ? {} : { summaryPricing }),
    });
  }
  const prices = flattenPrices(pricing);
  const compiled = options.scratch === undefined ? compiledOf(trace) : compiledForOneReplay(trace, options.scratch);
  const limits = brakeLimits(options.brakes, prices.contextWindow);
  const settings = runSettings(options.strategy, cache, options.latency);
  if (summaryPricing !== undefined) withSummaryPrices(settings, flattenPrices(summaryPricing));
  const state = replayCompiled(compiled, settings, limits, prices);
  return runOutcomeOf(compiled, state, limits, { endDetail: recordedEndDetail(trace.end), recorded: trace.calls, prices });
}

/** With --cache on, what makes caching save less than the unchanged prefix suggests, one line each (the same line for every run it applies to). */
export function cacheNotesOf(pricing: ModelPricing, ruleLostTokens: number): string[] {
  const notes: string[] = [];
  if (!flattenPrices(pricing).cacheSaves) notes.push(`${pricing.model} has no cached-input price below its input price: --cache on saves nothing`);
  const rule = cacheRuleOf(pricing);
  if (rule !== undefined && ruleLostTokens > 0) {
    notes.push(`${pricing.model}: unchanged prompt tokens not served from cache under the provider's minimum cacheable prefix (${rule.source})`);
  }
  return notes;
}

/** A loop's outcome as a report's run, whatever the step source (recorded trace or synthetic agent). */
export function runResultOf(
  outcome: RunOutcome,
  run: Pick<RunResult, 'source' | 'recordedModel' | 'model' | 'cache' | 'recordedCalls' | 'recordedOutcome'>,
): RunResult {
  // The six fields named one by one, not spread (`...run`): the spread made this ~40% of a synthetic
  // run's time (V8 cloned the literal through a slow path); same keys, same order.
  return {
    source: run.source,
    recordedModel: run.recordedModel,
    model: run.model,
    cache: run.cache,
    recordedCalls: run.recordedCalls,
    recordedOutcome: run.recordedOutcome,
    stopReason: outcome.stop.reason,
    stopDetail: outcome.stop.detail,
    steps: outcome.steps,
    modelCalls: outcome.calls,
    backtracks: outcome.backtracks,
    failedCalls: outcome.failedCalls,
    toolCalls: outcome.toolCalls,
    inputTokens: outcome.inputTokens,
    cachedInputTokens: outcome.cachedInputTokens,
    cacheWriteTokens: outcome.cacheWriteTokens,
    outputTokens: outcome.outputTokens,
    reasoningTokens: outcome.reasoningTokens,
    costPico: outcome.costPico,
    overshootPico: outcome.overshootPico,
    elapsedMs: outcome.elapsedMs,
    cacheRuleLostTokens: outcome.cacheRuleLostTokens,
    ...(outcome.summaryCalls === undefined ? {} : { summaryCalls: outcome.summaryCalls, summaryCostPico: outcome.summaryCostPico ?? 0 }),
    ...(outcome.strategyCacheLostTokens === undefined ? {} : { strategyCacheLostTokens: outcome.strategyCacheLostTokens }),
    ...(outcome.skippedActions === undefined ? {} : { skippedActions: outcome.skippedActions }),
    ...(outcome.stop.byPredictiveBound === true ? { stopByPredictiveBound: true as const } : {}),
    rows: outcome.rows,
  };
}

/** ReplayOptions as a library caller writes them: any brake settings (`{ maxSteps: 5 }` is `--max-steps 5`). */
export type ReplayInput = Omit<ReplayOptions, 'brakes'> & { brakes: BrakeSettings };

/**
 * `work`'s refusal of a run past exact picodollars in replayTrace's words (its `brakes` option), unless the
 * caller said where its settings were written (`strategyPlace`: the CLI its flags, another entry point its own).
 */
function ownWords<T>(input: ReplayInput, work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw input.strategyPlace === undefined ? boundsInOptions(error, 'brakes', "replayTrace's options") : error;
  }
}

export function replayTrace(trace: Trace, input: ReplayInput): RunResult {
  requireTrace('replayTrace', trace);
  validateReplayOptions(input);
  // What is kept of a run replayed (its compiled form, its check) stays its own: frozen, unless the caller keeps nothing (scratch).
  if (input.scratch === undefined && handedOverCompiled(trace) === undefined) freezeTrace(trace);
  // A complaint names this entry point's options unless the caller says where they were written (the CLI: its flags).
  const options: ReplayOptions = { ...input, brakes: filledBrakeConfig(input.brakes), strategyPlace: input.strategyPlace ?? optionPlace('replayTrace', 'strategy') };
  const pricing = options.pricing ?? tracePricing(trace, { ...options, modelPlace: optionPlace('replayTrace', 'model') });
  const cache = options.strategy.cache ?? defaultCacheMode(trace);
  const outcome = ownWords(input, () => inRunContext(trace, () => replayOutcome(trace, options, pricing, cache)));
  const result = runResultOf(outcome, {
    source: trace.source,
    recordedModel: trace.header.model,
    model: pricing.model,
    cache,
    recordedCalls: recordedCallCount(trace),
    recordedOutcome: trace.end.outcome,
  });

  if (trace.header.task !== undefined) result.task = trace.header.task;
  if (trace.header.importedFrom?.notes?.length) result.importNotes = trace.header.importedFrom.notes;
  if (trace.end.status !== undefined) result.recordedStatus = trace.end.status;
  const recordedCost = recordedRunCost(trace);
  if (recordedCost !== undefined) result.recordedCostPico = recordedCost;
  if (outcome.recordedCallCostPico !== undefined) result.recordedCallCostPico = outcome.recordedCallCostPico;
  const cacheNotes = cache === 'on' ? cacheNotesOf(pricing, outcome.cacheRuleLostTokens) : [];
  if (cacheNotes.length > 0) result.cacheNotes = cacheNotes;
  if (outcome.recordedInputTokens !== undefined) {
    result.recordedInputTokens = outcome.recordedInputTokens;
    result.inputTokenDelta = outcome.recordedInputDelta!;
  }
  return result;
}

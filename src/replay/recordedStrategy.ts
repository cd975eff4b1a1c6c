/**
 * A live run's recording replayed as its loop ran it, or rebuilt to full history. The runAgentLoop recorder
 * states the context strategy the run ran under (header `context`, agent/headerRecord.ts) when it is not full
 * history: its prompts were sent as that strategy shaped them, and its compaction calls are that strategy's
 * summary calls. Replayed with full context (`--preset recorded`, the recording's own figures, no --context)
 * or under that same strategy, the run is driven as the loop drove it: the session under the recorded
 * strategy, each call billed as recorded (usage as sent), the brakes estimating the next prompt from the
 * strategy's view as the loop did, and a summary call, when the strategy makes it due, is the recording's
 * compaction call, bounded and sized as the loop's (loop/summary.ts recordedSummary) — all of it what the
 * live loop knew. Under another strategy its prompts, already shaped, are not shaped twice: a recording
 * under a window, masking or a tool-result cap is rebuilt to full history first (rebuiltHistory.ts: what the
 * strategy left out of each prompt put back) and replayed under the other one, as a full-history recording
 * is; a summary strategy's recording cannot be rebuilt and is refused (recordingUnder). A recording that
 * states no strategy replays as it stands.
 */
import { contextSpecOf, isIdentity, parseContextSpec, type CacheMode, type ContextStrategy, type StrategyPlace } from '../context/strategy.js';
import type { BrakeConfig } from '../brakes/config.js';
import { UserError } from '../errors.js';
import { runLoop } from '../loop/run.js';
import { ReplaySource } from '../loop/replaySource.js';
import type { LatencyModel } from '../loop/latency.js';
import type { LoopOptions, RunOutcome } from '../loop/types.js';
import type { ModelPricing, PriceTable } from '../pricing/types.js';
import { sameContext } from '../context/sameContext.js';
import type { Trace } from '../trace/types.js';
import { fullHistoryOf, rebuildable } from './rebuiltHistory.js';
// (How a rebuilt recording's cache is metered, for every engine that reads recordingUnder's trace.)
export { meteredCacheOf } from './rebuiltHistory.js';
import { summaryPricingOf } from './summaryPricing.js';

/**
 * The strategy `trace`'s loop ran under, when a replay under `strategy` replays it as it ran: its header states
 * one and `strategy` is full history (no strategy on top of the recording) or that same one (its context and
 * tool-result cap); else undefined (rebuilt or refused under another: recordingUnder; none stated: as it stands).
 */
export function recordedStrategyOf(trace: Trace, strategy: ContextStrategy): ContextStrategy | undefined {
  const recorded = statedStrategyOf(trace);
  return recorded !== undefined && (isIdentity(strategy) || sameContext(recorded, strategy)) ? recorded : undefined;
}

/** Whether a replay under `strategy` rebuilds `trace`'s full history (or refuses it): its header states a strategy it does not replay it as it ran under (recordingUnder). */
export function rebuiltUnder(trace: Trace, strategy: ContextStrategy): boolean {
  return trace.header.context !== undefined && recordedStrategyOf(trace, strategy) === undefined;
}

/** The strategy `trace`'s header states its loop ran under (header `context`, its cap with it); undefined when it states none. */
export function statedStrategyOf(trace: Trace): ContextStrategy | undefined {
  const context = trace.header.context;
  if (context === undefined) return undefined;
  const recorded = parseContextSpec(context.spec, recordedContextPlace(trace));
  return context.toolResultCap === undefined ? recorded : { ...recorded, toolResultCap: context.toolResultCap };
}

/**
 * The recording a replay under `strategy` reads, when it does not replay `trace` as it ran (recordedStrategyOf):
 * `trace` itself when it states no strategy; else its full history rebuilt (rebuiltHistory.ts), which `strategy`
 * then shapes once. A summary strategy's recording is refused (naming its header's `context.spec` and what to do):
 * its summaries replaced the steps they dropped, so no full history can be rebuilt from it.
 */
export function recordingUnder(trace: Trace, strategy: ContextStrategy): Trace {
  const recorded = statedStrategyOf(trace);
  if (recorded === undefined) return trace;
  if (rebuildable(recorded)) return fullHistoryOf(trace, recorded);
  const spec = trace.header.context!.spec;
  const under = `${contextSpecOf(strategy)}${strategy.toolResultCap === undefined ? '' : ` with a tool-result cap of ${strategy.toolResultCap}`}`;
  throw new UserError({
    ...recordedContextPlace(trace),
    code: 'bad_combination',
    message: `the run was recorded under ${spec}, whose summaries replaced the steps they dropped: its full history cannot be rebuilt, so it cannot be replayed under ${under}`,
    hint: `set the context to full (the run as its loop ran it) or to ${spec}, wherever this command sets it (--context, a --grid context= value, a scenario file's context:); to compare strategies, replay its scenario file closed loop, or record the run under full history`,
  });
}

/** Where a recording states its strategy, to name it in a complaint (a spec that does not parse, a summary model the price table lacks). */
export function recordedContextPlace(trace: Trace): StrategyPlace {
  return { file: trace.source, ...(trace.headerLine === undefined ? {} : { line: trace.headerLine }), field: 'header.context.spec' };
}

/**
 * What a replay of a recording as its loop ran it takes beside the trace (asRanLoopOptions): its brakes, whether it
 * keeps per-step rows, the latency of calls that record none, the run's prices, the cache mode, and the table the
 * summary model's prices (`summary:…,model=X`) are read from (summaryPricingOf, named at header.context.spec);
 * without one (a library `fitScenario` given the run's prices alone) the summary calls are priced as the run's model.
 */
export interface AsRanReplay {
  brakes: BrakeConfig;
  keepSteps?: boolean | undefined;
  latency?: LatencyModel | undefined;
  pricing: ModelPricing;
  cache: CacheMode;
  prices?: PriceTable | undefined;
}

/**
 * The loop options of `trace` replayed under `strategy`, the one its loop ran under, as the loop ran it: the one
 * builder of them, for `replay` (replayAsRan: the cache `--cache` gives, else defaultCacheMode) and for `fit`
 * (scenario/fitReplay.ts: the same options — the default cache, as fit takes no --cache, and the summary model's
 * prices from its table — with a watcher on the source's calls).
 */
export function asRanLoopOptions(trace: Trace, strategy: ContextStrategy, run: AsRanReplay): LoopOptions {
  const summaryPricing = run.prices === undefined ? undefined : summaryPricingOf(strategy, run.prices, trace.header.recordedAt, recordedContextPlace(trace));
  return {
    brakes: run.brakes,
    strategy,
    cache: run.cache,
    pricing: run.pricing,
    systemTokens: trace.header.systemTokens,
    goalTokens: trace.header.goalTokens,
    keepSteps: run.keepSteps ?? false,
    usageAsSent: true,
    ...(run.latency === undefined ? {} : { latency: run.latency }),
    ...(summaryPricing === undefined ? {} : { summaryPricing }),
  };
}

/** The step source of `trace` replayed as its loop ran it: its compaction calls are the strategy's summary calls. */
export function asRanSource(trace: Trace): ReplaySource {
  return new ReplaySource(trace, { summariesRecorded: true });
}

/** `trace` replayed under `strategy`, the one its loop ran under, as the loop ran it: the readable session, the recorded compaction calls as its summary calls. */
export function replayAsRan(trace: Trace, strategy: ContextStrategy, run: AsRanReplay): RunOutcome {
  return runLoop(asRanSource(trace), asRanLoopOptions(trace, strategy, run));
}

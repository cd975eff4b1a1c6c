/**
 * A live run's recording replayed as its loop ran it. The runAgentLoop recorder states the context strategy
 * the run ran under (header `context`, agent/headerRecord.ts) when it is not full history: its prompts were
 * sent as that strategy shaped them, and its compaction calls are that strategy's summary calls. Replayed with
 * full context (`--preset recorded`, the recording's own figures), the run is driven as the loop drove it: the
 * session under the recorded strategy, each call billed as recorded (usage as sent), the brakes estimating the
 * next prompt from the strategy's view as the loop did, and a summary call, when the strategy makes it due, is
 * the recording's compaction call, bounded and sized as the loop's (loop/summary.ts recordedSummary) — all of
 * it what the live loop knew. A recording without the field, or replayed under another strategy, replays as before.
 */
import { isIdentity, parseContextSpec, type CacheMode, type ContextStrategy, type StrategyPlace } from '../context/strategy.js';
import { runLoop } from '../loop/run.js';
import { ReplaySource } from '../loop/replaySource.js';
import type { LoopOptions, RunOutcome } from '../loop/types.js';
import type { ModelPricing } from '../pricing/types.js';
import type { Trace } from '../trace/types.js';
import type { ReplayOptions } from './replay.js';

/** The strategy `trace`'s loop ran under, when it is to be replayed so (its header states one, the replay's `strategy` is full history); else undefined. */
export function recordedStrategyOf(trace: Trace, strategy: ContextStrategy): ContextStrategy | undefined {
  const context = trace.header.context;
  if (context === undefined || !isIdentity(strategy)) return undefined;
  const recorded = parseContextSpec(context.spec, recordedContextPlace(trace));
  return context.toolResultCap === undefined ? recorded : { ...recorded, toolResultCap: context.toolResultCap };
}

/** Where a recording states its strategy, to name it in a complaint (a spec that does not parse, a summary model the price table lacks). */
export function recordedContextPlace(trace: Trace): StrategyPlace {
  return { file: trace.source, ...(trace.headerLine === undefined ? {} : { line: trace.headerLine }), field: 'header.context.spec' };
}

/** What replayAsRan needs beside the trace: the replay's options, its prices, cache mode, and the summary model's prices (`summary:…,model=X`). */
export interface AsRanReplay {
  options: ReplayOptions;
  pricing: ModelPricing;
  cache: CacheMode;
  summaryPricing: ModelPricing | undefined;
}

/** `trace` replayed under `strategy`, the one its loop ran under, as the loop ran it: the readable session, the recorded compaction calls as its summary calls. */
export function replayAsRan(trace: Trace, strategy: ContextStrategy, run: AsRanReplay): RunOutcome {
  const { options } = run;
  const loop: LoopOptions = {
    brakes: options.brakes,
    strategy,
    cache: run.cache,
    pricing: run.pricing,
    systemTokens: trace.header.systemTokens,
    goalTokens: trace.header.goalTokens,
    keepSteps: options.keepSteps ?? false,
    usageAsSent: true,
    ...(options.latency === undefined ? {} : { latency: options.latency }),
    ...(run.summaryPricing === undefined ? {} : { summaryPricing: run.summaryPricing }),
  };
  return runLoop(new ReplaySource(trace, { summariesRecorded: true }), loop);
}

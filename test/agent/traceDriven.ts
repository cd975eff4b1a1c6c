/** Runs a trace through the real loop with a trace-driven model, and puts its figures beside replay's. */
import type { BrakeConfig } from '../../src/brakes/config.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import { VirtualClock } from '../../src/agent/clock.js';
import { agentLoop } from '../../src/agent/loop.js';
import { traceModel } from '../../src/agent/traceModel.js';
import type { AgentRunResult, Model, TraceRecorder } from '../../src/agent/types.js';
import type { ModelPricing } from '../../src/pricing/types.js';
import { defaultCacheMode, replayTrace, type RunResult } from '../../src/replay/replay.js';
import type { Trace } from '../../src/trace/types.js';
import { handTable } from '../helpers.js';

export interface Settings {
  brakes: BrakeConfig;
  strategy: ContextStrategy;
  pricing: ModelPricing;
}

/** Retries without waiting, as often as the trace failed: the trace decides when calls fail. */
export const TRACE_RETRY = { maxRetries: Infinity, backoffMs: () => 0 };

export async function runTraceDriven(trace: Trace, settings: Settings, extra: { model?: (model: Model) => Model; recorder?: TraceRecorder } = {}): Promise<AgentRunResult> {
  const clock = new VirtualClock();
  // The loop that made the run says how long its cache writes last, as the replay's cache leaves them (traceModel's cacheWrites);
  // its summary calls go to the run's model, whose window refuses one past it as replay's simulated provider does.
  const driven = traceModel(trace, clock, { cache: settings.strategy.cache ?? defaultCacheMode(trace), summaryWindowTokens: settings.pricing.contextWindow });
  return agentLoop({
    model: extra.model ? extra.model(driven.model) : driven.model,
    tools: driven.tools,
    brakes: settings.brakes,
    context: { ...driven.context, strategy: settings.strategy },
    pricing: settings.pricing,
    clock,
    retry: TRACE_RETRY,
    countTokens: driven.context.countTokens!,
    // A recording of a run its AbortSignal stopped is stopped where it was (traceModel's signal).
    signal: driven.signal,
    cacheWrites: driven.cacheWrites,
    // Whether the recorded run's reasoning entered its later prompts (traceModel's reasoningInPrompt, from its header).
    reasoningInPrompt: driven.reasoningInPrompt,
    ...(extra.recorder ? { recorder: extra.recorder } : {}),
  });
}

/** The figures parity compares, from either side. */
export function figures(run: AgentRunResult | RunResult) {
  return {
    stopReason: 'stop' in run ? run.stop.reason : run.stopReason,
    stopDetail: 'stop' in run ? run.stop.detail : run.stopDetail,
    steps: run.steps,
    calls: 'calls' in run ? run.calls : run.modelCalls,
    toolCalls: run.toolCalls,
    inputTokens: run.inputTokens,
    cachedInputTokens: run.cachedInputTokens,
    outputTokens: run.outputTokens,
    costPico: run.costPico,
    overshootPico: run.overshootPico,
    elapsedMs: run.elapsedMs,
    summaryCalls: run.summaryCalls ?? 0,
    summaryCostPico: run.summaryCostPico ?? 0,
  };
}

export function replayFigures(trace: Trace, settings: Settings) {
  return figures(replayTrace(trace, { brakes: settings.brakes, strategy: settings.strategy, prices: handTable(settings.pricing), pricing: settings.pricing }));
}

/** Whether a run's stop detail says the deadline cut a call (kernel/cutWords.ts: a replay of its recording says it too). */
export const cutIn = (detail: string): boolean => / in flight was cut off at the deadline/.test(detail);


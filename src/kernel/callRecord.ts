/**
 * One model call's figures as numbers at named offsets, the layout the meter reads: the session fills
 * one record per response, a compiled trace holds one record per call (with more fields after these,
 * see src/fast/compile.ts), so both meter from the same layout.
 */
import type { CallRecord } from '../trace/types.js';

export const enum CallField {
  Output,
  /** Reasoning tokens, at most the output. */
  Reasoning,
  /** Recorded prompt tokens; meaningful only with CallFlag.RecordedInput. */
  RecordedInput,
  RecordedCached,
  RecordedCacheWrite,
  RecordedCacheWrite1h,
  /** Recorded latency, NaN when none. */
  LatencyMs,
  Flags,
  /** Web searches the provider ran inside the call (CallRecord.webSearchRequests), each billed a fee on top of the tokens (cost.ts requestFeesPico). */
  WebSearches,
  Size,
}

export const enum CallFlag {
  Final = 1,
  Backtrack = 2,
  Unparseable = 4,
  Failed = 8,
  Compaction = 16,
  RecordedInput = 32,
  /** No tool calls and parseable: a normal call with this flag completes the run. */
  Answer = 64,
}

/** Calls whose tool calls do not run. */
export const TOOLS_DO_NOT_RUN = CallFlag.Backtrack | CallFlag.Failed | CallFlag.Compaction;

export function callFlags(call: CallRecord): number {
  let flags = 0;
  if (call.final) flags |= CallFlag.Final;
  if (call.backtrack) flags |= CallFlag.Backtrack;
  if (call.unparseable) flags |= CallFlag.Unparseable;
  if (call.failed) flags |= CallFlag.Failed;
  if (call.compaction) flags |= CallFlag.Compaction;
  if (call.inputTokens !== undefined) flags |= CallFlag.RecordedInput;
  if ((call.toolCalls?.length ?? 0) === 0 && !call.unparseable) flags |= CallFlag.Answer;
  return flags;
}

/** Writes a call's figures at `at` of `into`. */
export function writeCallRecord(into: Float64Array, at: number, call: CallRecord): void {
  into[at + CallField.Output] = call.outputTokens;
  into[at + CallField.Reasoning] = Math.min(call.reasoningTokens ?? 0, call.outputTokens);
  into[at + CallField.RecordedInput] = call.inputTokens ?? 0;
  into[at + CallField.RecordedCached] = call.cachedInputTokens ?? 0;
  into[at + CallField.RecordedCacheWrite] = call.cacheWriteTokens ?? 0;
  into[at + CallField.RecordedCacheWrite1h] = call.cacheWrite1hTokens ?? 0;
  into[at + CallField.LatencyMs] = call.latencyMs ?? NaN;
  into[at + CallField.Flags] = callFlags(call);
  into[at + CallField.WebSearches] = call.webSearchRequests ?? 0;
}

/**
 * The largest prompt among a run's calls as a replay bills them: a call's recorded prompt size, else — a call
 * that records none and did not fail — the engines' estimate, the context the kernel's tracker holds before it
 * under the strategy the run replays as (the growth model of full history, or the strategy its recording states:
 * replay/recordedStrategy.ts), which both engines bill such a call at (kernel/meter.ts billedInput: the view)
 * and a live loop estimates it by; project reads the same prompts off its replays' rows. A failed call that
 * records none is billed none. Calls are passed as precompute.ts and windowLost.ts pass them (every tool
 * result joining its step at once: brakes only cut a run short). The tracker's pass is made only where an
 * estimate could pass `above` (the smallest prompt a window counted allows): the context of a strategy that
 * keeps or cuts steps never holds more than system + goal + every output and tool result before the call.
 * (A recording that states a summary strategy and records no size for some calls: its compaction calls clear
 * the context here, as the growth model's do, where its replay keeps the last steps beside the summary.)
 * Pure: no node:*, no clock.
 */
import { rewritesHistory, type ContextStrategy } from '../context/strategy.js';
import { enterWholeCall } from '../kernel/callContext.js';
import { CallField, CallFlag } from '../kernel/callRecord.js';
import { ContextTracker } from '../kernel/context.js';
import { CompiledField, type CompiledTrace } from '../fast/layout.js';
import type { Trace } from '../trace/types.js';
import { compiledOf, handedOverCompiled } from './compiledRuns.js';

/** What one look at a run's calls finds: its largest recorded prompt, whether a call is billed an estimate, and a bound on any estimate. */
interface RecordedPrompts {
  largest: number;
  estimated: boolean;
  /** System + goal + every output and tool result of the calls looked at (each at least 0). */
  growthBound: number;
}

const tracker = new ContextTracker();

/**
 * The largest prompt among `trace`'s first `callsMade` calls (all by default) as a replay under `strategy` (the
 * one it replays the run as; none: the recording as it stands) bills them; exact wherever it passes `above`.
 */
export function largestBilledPrompt(trace: Trace, read: { callsMade?: number; strategy?: ContextStrategy; above: number }): number {
  const callsMade = read.callsMade ?? Infinity;
  const compiled = handedOverCompiled(trace);
  const seen = compiled === undefined ? recordedPromptsOf(trace, callsMade) : compiledPromptsOf(compiled, callsMade);
  if (!seen.estimated) return seen.largest;
  const rewrites = read.strategy !== undefined && rewritesHistory(read.strategy);
  if (!rewrites && seen.growthBound <= read.above) return seen.largest;
  return Math.max(seen.largest, largestEstimate(compiled ?? compiledOf(trace), { callsMade, strategy: read.strategy }));
}

/** RecordedPrompts of a trace that holds its calls. */
function recordedPromptsOf(trace: Trace, callsMade: number): RecordedPrompts {
  const seen: RecordedPrompts = { largest: 0, estimated: false, growthBound: trace.header.systemTokens + trace.header.goalTokens };
  const calls = trace.calls;
  for (let i = 0; i < Math.min(callsMade, calls.length); i++) {
    const call = calls[i]!;
    if (call.inputTokens !== undefined) seen.largest = Math.max(seen.largest, call.inputTokens);
    else if (call.failed === undefined) seen.estimated = true;
    seen.growthBound += Math.max(0, call.outputTokens);
    for (const tool of call.toolCalls ?? []) seen.growthBound += Math.max(0, tool.resultTokens);
  }
  return seen;
}

/** RecordedPrompts of a compiled trace (its calls let go). */
function compiledPromptsOf(c: CompiledTrace, callsMade: number): RecordedPrompts {
  const seen: RecordedPrompts = { largest: 0, estimated: false, growthBound: c.fixedTokens };
  const records = c.records;
  for (let i = 0; i < Math.min(callsMade, c.calls); i++) {
    const at = i * CompiledField.Stride;
    const flags = records[at + CallField.Flags]! | 0;
    if ((flags & CallFlag.RecordedInput) !== 0) seen.largest = Math.max(seen.largest, records[at + CallField.RecordedInput]!);
    else if ((flags & CallFlag.Failed) === 0) seen.estimated = true;
    seen.growthBound += Math.max(0, records[at + CallField.Output]!);
    for (let j = c.toolStart[i]!; j < c.toolStart[i + 1]!; j++) seen.growthBound += Math.max(0, c.resultTokens[j]!);
  }
  return seen;
}

/** The largest of the engines' estimates of the calls that record no prompt size and did not fail, among the first `callsMade`. */
function largestEstimate(c: CompiledTrace, read: { callsMade: number; strategy: ContextStrategy | undefined }): number {
  const ctx = tracker;
  ctx.reset(c.fixedTokens, read.strategy);
  ctx.reserve(c.calls + 1);
  const records = c.records;
  let largest = 0;
  for (let i = 0; i < Math.min(read.callsMade, c.calls); i++) {
    const at = i * CompiledField.Stride;
    const flags = records[at + CallField.Flags]! | 0;
    if ((flags & (CallFlag.RecordedInput | CallFlag.Failed)) === 0) largest = Math.max(largest, ctx.promptTokens());
    ctx.markSent();
    enterWholeCall(ctx, flags, records[at + CompiledField.ContextOutput]!, c.resultTokens, c.toolStart[i]!, c.toolStart[i + 1]!);
  }
  return largest;
}

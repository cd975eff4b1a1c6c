/**
 * A summary call's checks, in their one order, and the calls a replayed recording has left: written once for
 * every engine (the readable replay, loop/session.ts beforeSummary; the session-tree replay through it; the
 * compiled replay, fast/strategySteps.ts; the real loop, agent/liveSummary.ts through session.beforeSummary; the
 * real loop driven by a recording, agent/traceModel.ts, and `serve`'s recorded sessions, serve/recorded.ts, for
 * the calls left). Pure; summaryCallChecks allocates nothing (the compiled replay calls it at every summary call due).
 *
 * A summary call is made only before a call the run is about to make. A real loop (agent/loop.ts drive)
 * summarises right before it sends its next call, once its brakes let that call through; it makes no summary
 * call after its last call. Replaying a recording, the call the run is about to make is the recording's next
 * one; once none is left (the recording ran out without a final answer: its run stopped by its own brakes,
 * cut off, ended after an answered call), the summary call due there would be the first request past the
 * recording's end, so the run ends there as the recording does (trace_end, or completed), no summary call
 * made or billed (the real loop driven by a recording: agent/traceModel.ts answers that summary request as
 * any request past the end, ModelExhausted).
 */
import type { SummaryCallSize } from './cost.js';
import type { BrakeLimits } from './limits.js';
import { summaryCallStop } from './providerWindow.js';
import { StopCode } from './stopCodes.js';

/**
 * summaryCallChecks' answer when no call is left for the run to make after the summary call: the run ends there
 * as its recording does (its source's end: trace_end, or completed), no summary call billed. No StopCode.
 */
export const RUN_ENDS_AT_SUMMARY = -2;

/** What a summary call's checks make of it: StopCode.None (it is made, then billed), the stop its window makes (ContextOverflow, ProviderRefused), or RUN_ENDS_AT_SUMMARY. */
export type SummaryCallStop = StopCode | typeof RUN_ENDS_AT_SUMMARY;

/** What summaryCallChecks is told of a summary call the brakes that gate it let through (one object a hot caller may reuse). */
export interface SummaryCallAt {
  /** The call: the prompt it replaces, as a live loop estimates it, S tokens asked for, the summary model's prices. */
  call: SummaryCallSize;
  /** Calls left for the run to make after it (callsLeft); Infinity for a source that answers whenever asked (a model, a synthetic agent). */
  callsLeft: number;
  /** No provider answers it (a replay, a synthetic run): the simulated provider refuses it by the window rule. False for a real loop, whose provider says so itself. */
  simulated: boolean;
}

/**
 * What a summary call whose trigger is passed comes to, its checks in their one order: (1) the brakes that gate
 * it (kernel/brakes.ts summaryMayRun; in a tree, the tree's too), the caller's to make before it asks here (a
 * call they hold is not made now: the brakes before the next call decide); (2) its window's brake
 * (`--context-window model`), which a live loop checks before sending, so it wins over the recording's end:
 * StopCode.ContextOverflow; (3) whether any call is left for the run to make after it (endsAtSummary: a call never
 * sent is refused by no provider): RUN_ENDS_AT_SUMMARY; (4) `simulated`, the provider's refusal:
 * StopCode.ProviderRefused (a failed call, paid nothing); else StopCode.None, it is made. (2) and (4) are the window
 * rules of kernel/providerWindow.ts summaryCallStop.
 */
export function summaryCallChecks(limits: BrakeLimits, at: SummaryCallAt): SummaryCallStop {
  const code = summaryCallStop(limits, at.call, at.simulated);
  if (code === StopCode.ContextOverflow) return code;
  return endsAtSummary(at.callsLeft) ? RUN_ENDS_AT_SUMMARY : code;
}

/**
 * Whether the run ends at a summary call due now instead of making it: `callsLeft` calls are left for the
 * run to make after it (a recording's calls not yet replayed, a call its provider refused among them).
 */
export function endsAtSummary(callsLeft: number): boolean {
  return callsLeft <= 0;
}

/**
 * The calls a run replaying a recording has left to make, once it has been given `givenCalls` of them: the
 * recording's `recordedCalls` not yet given, a call its provider refused (failed.contextLengthExceeded, the
 * recording's last) among them — the run makes that call, and it is refused. A count that holds its recorded
 * summary calls counts them given as they are. Never below 0.
 */
export function callsLeft(recordedCalls: number, givenCalls: number): number {
  return recordedCalls > givenCalls ? recordedCalls - givenCalls : 0;
}

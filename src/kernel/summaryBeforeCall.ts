/**
 * A summary call's checks, in their one order, and the calls a replayed recording has left: written once for
 * every engine (the readable replay, loop/session.ts summarizeIfDue and beforeSummary; the session-tree replay
 * through it; the compiled replay, fast/strategySteps.ts; the real loop, agent/liveSummary.ts through
 * session.beforeSummary; the real loop driven by a recording, agent/traceModel.ts, and `serve`'s recorded
 * sessions, serve/recorded.ts, for the calls left). Pure; summaryCallOutcome allocates nothing (the compiled
 * replay calls it at every summary call due). The first check, the brakes that gate the call (`mayRun`), is the
 * caller's to make: the compiled replay passes it; loop/session.ts makes it where it finds the call due
 * (summaryDue, with a tree's own check) and so passes `mayRun: true` once it holds — the same order.
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

/** What a summary call whose trigger is passed comes to (summaryCallOutcome), in the order its checks are made. */
export const enum SummaryOutcome {
  /** The brakes that gate it hold it (kernel/brakes.ts summaryMayRun; in a tree, the tree's too): none made now, the brakes before the next call decide. */
  NotNow = 0,
  /** Its window's brake (`--context-window model`) stops the run before it: StopCode.ContextOverflow. */
  WindowBraked = 1,
  /** No call is left for the run to make after it: the run ends there as its recording does (trace_end, or completed), no summary call billed. */
  RunEnds = 2,
  /** The simulated provider refuses it for its length: StopCode.ProviderRefused (a failed call, paid nothing). */
  Refused = 3,
  /** It is made and billed. */
  Made = 4,
}

/** What summaryCallOutcome is told of a summary call whose trigger is passed (one object a hot caller may reuse). */
export interface SummaryCallAt {
  /** The call: the prompt it replaces, as a live loop estimates it, S tokens asked for, the summary model's prices. */
  call: SummaryCallSize;
  /** The brakes that gate it let it through (summaryMayRun, and in a tree the tree's check). */
  mayRun: boolean;
  /** Calls left for the run to make after it (callsLeft); Infinity for a source that answers whenever asked (a model, a synthetic agent). */
  callsLeft: number;
  /** No provider answers it (a replay, a synthetic run): the simulated provider refuses it by the window rule. False for a real loop, whose provider says so itself. */
  simulated: boolean;
}

/**
 * What a summary call whose trigger is passed comes to, its checks in their one order: (1) the brakes that
 * gate it; (2) its window's brake (kernel/providerWindow.ts summaryCallStop, `--context-window model`), which
 * a live loop checks before sending, so it wins over the recording's end; (3) whether any call is left for the
 * run to make after it (endsAtSummary: a call never sent is refused by no provider); (4) the simulated
 * provider's refusal; else it is made (then billed).
 */
export function summaryCallOutcome(limits: BrakeLimits, at: SummaryCallAt): SummaryOutcome {
  if (!at.mayRun) return SummaryOutcome.NotNow;
  if (summaryCallStop(limits, at.call, false) !== StopCode.None) return SummaryOutcome.WindowBraked;
  if (endsAtSummary(at.callsLeft)) return SummaryOutcome.RunEnds;
  return at.simulated && summaryCallStop(limits, at.call, true) === StopCode.ProviderRefused ? SummaryOutcome.Refused : SummaryOutcome.Made;
}

/** The stop a summary call's outcome makes when it is one of the window's (WindowBraked, Refused); StopCode.None otherwise. */
export function summaryOutcomeStop(outcome: SummaryOutcome): StopCode {
  if (outcome === SummaryOutcome.WindowBraked) return StopCode.ContextOverflow;
  return outcome === SummaryOutcome.Refused ? StopCode.ProviderRefused : StopCode.None;
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

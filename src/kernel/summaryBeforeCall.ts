/**
 * A summary call is made only before a call the run is about to make: written once for every engine.
 *
 * A real loop (agent/loop.ts drive) summarises right before it sends its next call, once its brakes let that
 * call through; it makes no summary call after its last call. Replaying a recording, the call the run is
 * about to make is the recording's next one; once none is left (the recording ran out without a final
 * answer: its run stopped by its own brakes, cut off, ended after an answered call), the summary call due
 * there would be the first request past the recording's end, so the run ends there as the recording does
 * (trace_end, or completed), no summary call made or billed — in the readable replay (loop/session.ts
 * summarizeIfDue, told by its StepSource's `callLeft`), the session-tree replay, the compiled replay
 * (fast/strategySteps.ts) and the real loop driven by a recording (agent/traceModel.ts answers that summary
 * request as any request past the end: ModelExhausted).
 *
 * Its place among the summary call's checks: after the brakes that gate it (summaryMayRun) and its
 * window's brake (`--context-window model`: kernel/providerWindow.ts summaryCallStop, which a live loop
 * checks before sending, session.beforeSummary), before the simulated provider's refusal (a call the run
 * never sends is refused by no provider) and before it is billed. Pure.
 */

/**
 * Whether the run ends at a summary call due now instead of making it: `callsLeft` calls are left for the
 * run to make after it (a recording's calls not yet replayed, a call its provider refused among them).
 */
export function endsAtSummary(callsLeft: number): boolean {
  return callsLeft <= 0;
}

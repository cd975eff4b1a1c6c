/**
 * How a recorded call that was made moves the context, written once for every engine: the readable
 * session (src/loop/session.ts), the compiled replay's per-step loop and stepwise strategies
 * (src/fast/steps.ts, strategySteps.ts), and the passes a compiled trace makes with the kernel's
 * tracker (src/fast/precompute.ts: the growth model; windowLost.ts: a window's lost cache hits).
 *
 * A backtrack drops the last step (call and results); a failed call leaves the context as it was; a
 * compaction replaces the history with its output (compaction.ts); any other call's output opens a
 * step, which its tool results join (ContextTracker.addToolResult, between tool brakes in a live loop)
 * before the step is closed. The call's flags are callRecord.ts's. What of its output enters (the step's, or the
 * compaction's summary) is the run's rule, stepTokens.ts outputEnteringContext: its callers pass that.
 */
import { CallFlag, TOOLS_DO_NOT_RUN } from './callRecord.js';
import { compactContext, compacts } from './compaction.js';
import type { ContextTracker } from './context.js';

/**
 * The call with these `flags` was made (its prompt sent: ContextTracker.markSent), `outputTokens` of its
 * output entering the context (stepTokens.ts outputEnteringContext, as the run's reasoning re-enters or not):
 * moves `ctx`. A call whose tools run opens its step. Returns the overhead the next prompt's estimate
 * adds: `overheadTokens` as the caller had it, or after a compaction the conversation's `framingTokens`.
 */
export function enterCall(ctx: ContextTracker, flags: number, outputTokens: number, overheadTokens: number, framingTokens: number): number {
  if ((flags & CallFlag.Backtrack) !== 0) ctx.dropLastStep();
  else if (compacts(flags)) return compactContext(ctx, outputTokens, framingTokens);
  else if ((flags & TOOLS_DO_NOT_RUN) === 0) ctx.addStep(outputTokens);
  return overheadTokens;
}

/**
 * enterCall for a call whose tool results all join its step at once (no brake between them, none
 * cut): resultTokens[from..to−1], then the step closed. For passes over a whole trace.
 */
export function enterWholeCall(ctx: ContextTracker, flags: number, outputTokens: number, resultTokens: ArrayLike<number>, from: number, to: number): void {
  enterCall(ctx, flags, outputTokens, 0, NaN);
  if ((flags & TOOLS_DO_NOT_RUN) !== 0) return;
  for (let j = from; j < to; j++) ctx.addToolResult(resultTokens[j]!);
  ctx.closeStep();
}

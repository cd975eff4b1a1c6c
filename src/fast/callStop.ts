/**
 * What ends a run inside a call that was made and paid, in the session's order (src/loop/session.ts:
 * recordResponse, checkTool, recordToolResult, endStep): a backtrack past the cap; an answer without
 * tool calls; for each tool call the repeat brake before it runs and the same-error brake after it; a
 * final answer after its tools. The compiled replay's per-step loop and its run tables both ask this.
 */
import { backtrackStop, repeatStop, sameErrorStop } from '../kernel/brakes.js';
import { CallFlag } from '../kernel/callRecord.js';
import { Limit, RepeatModeCode, type BrakeLimits } from '../kernel/limits.js';
import { StopCode } from '../kernel/stopCodes.js';
import type { CompiledTrace } from './layout.js';

/** The precomputed counts the tool brakes compare with their limits, for these limits' modes. */
export function seenCounts(t: CompiledTrace, limits: BrakeLimits): Int32Array {
  const mode = limits[Limit.RepeatMode]! | 0;
  return mode === RepeatModeCode.Total ? t.seenTotal : mode === RepeatModeCode.Consecutive ? t.seenConsecutive : t.seenCycle;
}

export function errorCounts(t: CompiledTrace, limits: BrakeLimits): Int32Array {
  return limits[Limit.SameErrorTotal] === 1 ? t.errorTotal : t.errorConsecutive;
}

/** The tool call a tool brake stopped at (−1 when none); set by callStop. */
export const stoppedAt = { tool: -1 };

/**
 * The stop inside call `call` (flags `flags`), or StopCode.None; for a repeat or same-error stop the tool
 * call is stoppedAt.tool. `toolsMayStop`: whether a tool brake can fire in this call (else its tool
 * calls are not looked at).
 */
export function callStop(t: CompiledTrace, call: number, flags: number, limits: BrakeLimits, seen: Int32Array, errorCount: Int32Array, toolsMayStop: boolean): StopCode {
  stoppedAt.tool = -1;
  if ((flags & CallFlag.Backtrack) !== 0) return backtrackStop(limits, t.backtracksBefore[call + 1]!);
  if ((flags & (CallFlag.Failed | CallFlag.Compaction)) !== 0) return StopCode.None;
  if ((flags & CallFlag.Answer) !== 0) return StopCode.Completed;
  if (toolsMayStop) {
    const error = t.error;
    for (let j = t.toolStart[call]!, end = t.toolStart[call + 1]!; j < end; j++) {
      let code = repeatStop(limits, seen[j]!);
      if (code === StopCode.None && error[j]! >= 0) code = sameErrorStop(limits, errorCount[j]!);
      if (code !== StopCode.None) {
        stoppedAt.tool = j;
        return code;
      }
    }
  }
  return (flags & CallFlag.Final) !== 0 ? StopCode.Completed : StopCode.None;
}

/** Tool calls of `call` that ran (their results joined the context, their time passed) when `code` stopped it there. */
export function toolsRunUntil(t: CompiledTrace, call: number, code: StopCode, tool: number): number {
  if (code === StopCode.Repeat) return tool;
  if (code === StopCode.ErrorLimit) return tool + 1;
  // A backtrack's tool calls do not run.
  if (code === StopCode.BacktrackLimit) return t.toolStart[call]!;
  return t.toolStart[call + 1]!;
}

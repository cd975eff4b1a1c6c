/**
 * What compiling a trace precomputes because no brake, strategy, cache mode or price can change it:
 *
 * - The repeated-action and same-error state. Which tool calls run does not depend on any setting (a
 *   call's tools run unless it is a backtrack, a failed call or a compaction; a brake only cuts the run
 *   short), so the kernel's state machine (ToolBrakeState) runs once over every tool call that runs and
 *   records what each check would compare with its limit; running maxima over calls let a replay find
 *   the first call where such a brake fires with one binary search.
 * - Running totals over calls: output, reasoning, tool calls, non-steps, backtracks, failed calls,
 *   recorded prompt sizes and costs, and the closed form's sums (closedForm.ts).
 * - The growth model's full-history prompt before each call (a kernel ContextTracker with no strategy,
 *   which a compaction shrinks), so the recorded − growth-model delta of the calls a run made is a
 *   difference of running totals; and the conversation's framing (the overhead after a compaction).
 */
import { CallField, CallFlag, TOOLS_DO_NOT_RUN } from '../kernel/callRecord.js';
import { enterWholeCall } from '../kernel/callContext.js';
import { framingAfterCall } from '../kernel/compaction.js';
import { ContextTracker } from '../kernel/context.js';
import { RepeatModeCode } from '../kernel/limits.js';
import { ToolBrakeState } from '../kernel/toolBrakeState.js';
import { usdToPico } from '../money.js';
import { ClosedAt, CompiledField, SLOW_FLAGS, type CompiledTrace } from './layout.js';
import { recordedSums } from './recordedSums.js';
import { addStepSums } from './stretch.js';

import { EXACT } from './exactSums.js';

/** `recordedCostUsd[i]`: call i's recorded cost, NaN where it recorded none (entries past the calls are not read). */
export function precompute(c: CompiledTrace, recordedCostUsd: ArrayLike<number>): void {
  runningTotals(c, recordedCostUsd);
  closedFormSums(c);
  c.recordedSums = recordedSums(c);
  toolBrakes(c);
}

function runningTotals(c: CompiledTrace, recordedCostUsd: ArrayLike<number>): void {
  const full = new ContextTracker(c.fixedTokens, 0);
  const r = c.records;
  for (let i = 0; i < c.calls; i++) {
    const at = i * CompiledField.Stride;
    const flags = r[at + CallField.Flags]! | 0;
    const runs = (flags & TOOLS_DO_NOT_RUN) === 0;
    const failed = (flags & CallFlag.Failed) !== 0;
    const recorded = (flags & CallFlag.RecordedInput) !== 0;
    c.outputBefore[i + 1] = c.outputBefore[i]! + r[at + CallField.Output]!;
    c.reasoningBefore[i + 1] = c.reasoningBefore[i]! + r[at + CallField.Reasoning]!;
    c.toolsBefore[i + 1] = c.toolsBefore[i]! + (runs ? r[at + CompiledField.Tools]! : 0);
    c.nonStepsBefore[i + 1] = c.nonStepsBefore[i]! + ((flags & (CallFlag.Backtrack | CallFlag.Compaction)) !== 0 ? 1 : 0);
    c.backtracksBefore[i + 1] = c.backtracksBefore[i]! + ((flags & CallFlag.Backtrack) !== 0 ? 1 : 0);
    c.failedBefore[i + 1] = c.failedBefore[i]! + (failed ? 1 : 0);
    c.recordedInputBefore[i + 1] = c.recordedInputBefore[i]! + (recorded ? 1 : 0);
    c.recordedInputSumBefore[i + 1] = c.recordedInputSumBefore[i]! + (recorded ? r[at + CallField.RecordedInput]! : 0);
    c.recordedDeltaBefore[i + 1] = c.recordedDeltaBefore[i]! + (recorded && !failed ? r[at + CallField.RecordedInput]! - full.fullTokens() : 0);
    const cost = recordedCostUsd[i]!;
    c.recordedCostBefore[i + 1] = c.recordedCostBefore[i]! + (cost === cost ? usdToPico(cost) : 0);
    c.recordedCostCallsBefore[i + 1] = c.recordedCostCallsBefore[i]! + (cost === cost ? 1 : 0);
    if (recorded) c.hasRecordedInput = true;
    if ((flags & CallFlag.Backtrack) !== 0) c.lastBacktrack = i;
    // What the call was billed beyond the context (the kernel meter's billed − view: recorded − growth model, else 0).
    if (!failed) c.framingTokens = framingAfterCall(c.framingTokens, recorded ? r[at + CallField.RecordedInput]! - full.fullTokens() : 0);
    // The growth model's history after the call.
    full.markSent();
    enterWholeCall(full, flags, r[at + CompiledField.ContextOutput]!, c.resultTokens, c.toolStart[i]!, c.toolStart[i + 1]!);
  }
}

function closedFormSums(c: CompiledTrace): void {
  const r = c.records;
  const n = c.calls;
  for (let i = 0; i < n; i++) {
    const at = i * CompiledField.Stride;
    const output = r[at + CallField.Output]!;
    const reasoning = r[at + CallField.Reasoning]!;
    const stepTokens = r[at + CompiledField.StepTokens]!;
    const stepLatency = r[at + CompiledField.StepLatency]!;
    addStepSums(c.stepTokensBefore, c.stepTokensBeforeSum, i, stepTokens);
    c.plainOutputBefore[i + 1] = c.plainOutputBefore[i]! + Math.max(0, output - reasoning);
    c.stepLatencyBefore[i + 1] = c.stepLatencyBefore[i]! + (stepLatency === stepLatency ? stepLatency : 0);
    c.latencyMissingBefore[i + 1] = c.latencyMissingBefore[i]! + (stepLatency === stepLatency ? 0 : 1);
    if (stepTokens > c.maxStepTokens) c.maxStepTokens = stepTokens;
    // A call's web search fees are not in the stretch sums: such a trace's calls are metered one by one.
    if (output < 0 || reasoning < 0 || r[at + CallField.WebSearches]! > 0) c.closedForm = false;
  }
  if (!(c.stepTokensBeforeSum[n]! < EXACT && c.outputBefore[n]! < EXACT && c.stepLatencyBefore[n]! < EXACT)) c.closedForm = false;
  c.nextNotPlain[n] = n;
  for (let i = n - 1; i >= 0; i--) {
    c.nextNotPlain[i] = ((r[i * CompiledField.Stride + CallField.Flags]! | 0) & SLOW_FLAGS) !== 0 ? i : c.nextNotPlain[i + 1]!;
  }
  interleave(c);
}

/** The closed form's running totals side by side (ClosedAt), copied from their arrays. */
function interleave(c: CompiledTrace): void {
  const block = c.closedSums;
  for (let i = 0, at = 0; i <= c.calls; i++, at += ClosedAt.Stride) {
    block[at + ClosedAt.StepTokens] = c.stepTokensBefore[i]!;
    block[at + ClosedAt.StepTokensSum] = c.stepTokensBeforeSum[i]!;
    block[at + ClosedAt.PlainOutput] = c.plainOutputBefore[i]!;
    block[at + ClosedAt.Reasoning] = c.reasoningBefore[i]!;
    block[at + ClosedAt.Output] = c.outputBefore[i]!;
    block[at + ClosedAt.StepLatency] = c.stepLatencyBefore[i]!;
    block[at + ClosedAt.LatencyMissing] = c.latencyMissingBefore[i]!;
    block[at + ClosedAt.RecordedInputs] = c.recordedInputBefore[i]!;
    block[at + ClosedAt.NextNotPlain] = c.nextNotPlain[i]!;
    block[at + ClosedAt.NonSteps] = c.nonStepsBefore[i]!;
  }
}

/** The kernel's repeat and same-error state over every tool call that runs, as each check sees it. */
function toolBrakes(c: CompiledTrace): void {
  const state = new ToolBrakeState(c.actionIds, c.errorIds);
  let reachTotal = -1, reachConsecutive = -1, reachCycle = -1, reachErrorTotal = -1, reachErrorConsecutive = -1;
  for (let i = 0; i < c.calls; i++) {
    const runs = ((c.records[i * CompiledField.Stride + CallField.Flags]! | 0) & TOOLS_DO_NOT_RUN) === 0;
    for (let j = c.toolStart[i]!; j < c.toolStart[i + 1]!; j++) {
      if (!runs) {
        c.seenTotal[j] = c.seenConsecutive[j] = c.seenCycle[j] = c.errorTotal[j] = c.errorConsecutive[j] = -1;
        continue;
      }
      const action = c.action[j]!;
      c.seenTotal[j] = state.seen(action, RepeatModeCode.Total);
      c.seenConsecutive[j] = state.seen(action, RepeatModeCode.Consecutive);
      c.seenCycle[j] = state.seen(action, RepeatModeCode.Cycle);
      reachTotal = Math.max(reachTotal, c.seenTotal[j]!);
      reachConsecutive = Math.max(reachConsecutive, c.seenConsecutive[j]!);
      reachCycle = Math.max(reachCycle, c.seenCycle[j]!);
      state.recordAction(action);
      const error = c.error[j]!;
      state.recordOutcome(error);
      c.errorTotal[j] = error < 0 ? -1 : state.errorCount(error, true);
      c.errorConsecutive[j] = error < 0 ? -1 : state.errorCount(error, false);
      reachErrorTotal = Math.max(reachErrorTotal, c.errorTotal[j]!);
      reachErrorConsecutive = Math.max(reachErrorConsecutive, c.errorConsecutive[j]!);
    }
    c.repeatReachTotal[i] = reachTotal;
    c.repeatReachConsecutive[i] = reachConsecutive;
    c.repeatReachCycle[i] = reachCycle;
    c.errorReachTotal[i] = reachErrorTotal;
    c.errorReachConsecutive[i] = reachErrorConsecutive;
  }
  c.repeatMaxTotal = reachTotal;
  c.repeatMaxConsecutive = reachConsecutive;
  c.repeatMaxCycle = reachCycle;
  c.errorMaxTotal = reachErrorTotal;
  c.errorMaxConsecutive = reachErrorConsecutive;
}

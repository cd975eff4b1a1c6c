/**
 * Compiles traces into flat typed arrays for the fast replay path: one entry per call and per tool call,
 * fingerprints interned to integer ids. Compile once, replay under many brake settings.
 *
 * Besides the trace's own figures, compiling precomputes what no brake, strategy, cache mode or price
 * can change, so replay does not redo it per run:
 *
 * - The repeated-action and same-error state. Which tool calls run does not depend on any setting (a
 *   call's tools run unless it is a backtrack, a failed call or a compaction; a brake only cuts the run
 *   short), so "how often was this action already seen" and "how often did this error happen" are fixed
 *   per tool call, in every mode. Replay compares them with the limits; running maxima over calls tell
 *   it, with one binary search per run, the first call where such a brake can fire.
 * - Per-call sums of the tool calls (result tokens, recorded latency), running totals over calls (the
 *   closed form's sums, closedForm.ts), and where the next call is that needs more than the plain path.
 *
 * That is about five times the memory of the trace's own figures (≈ 200 bytes per call): the price of
 * replay work that no longer grows with the trace's length.
 */
import { actionFingerprint, errorFingerprint, Interner } from '../brakes/fingerprint.js';
import type { Trace } from '../trace/types.js';

export const FLAG_FINAL = 1;
export const FLAG_BACKTRACK = 2;
export const FLAG_UNPARSEABLE = 4;
export const FLAG_FAILED = 8;
export const FLAG_COMPACTION = 16;
export const FLAG_RECORDED_INPUT = 32;
/** No tool calls and parseable: a normal call with this flag completes the run. */
export const FLAG_ANSWER = 64;

export interface CompiledTrace {
  calls: number;
  systemTokens: number;
  goalTokens: number;
  exhaustedCompleted: boolean;
  output: Int32Array;
  /** Recorded prompt tokens (valid when FLAG_RECORDED_INPUT is set). */
  recordedInput: Int32Array;
  cached: Int32Array;
  cacheWrite: Int32Array;
  cacheWrite1h: Int32Array;
  reasoning: Int32Array;
  /** Recorded latency, NaN where the trace has none. */
  latencyMs: Float64Array;
  flags: Uint8Array;
  /** Tool calls of call i are toolStart[i] .. toolStart[i + 1] − 1. */
  toolStart: Int32Array;
  action: Int32Array;
  resultTokens: Int32Array;
  /** Interned (tool, error) id, −1 when the tool succeeded. */
  error: Int32Array;
  toolLatencyMs: Float64Array;
  /** Interned ids are < these bounds. */
  actionIds: number;
  errorIds: number;

  // ── Precomputed per call ──
  /**
   * One record of CALL_STRIDE numbers per call, the figures a plain call needs (see CALL_* offsets):
   * one array, so the hot loop checks one array per step instead of one per figure.
   */
  callData: Float64Array;
  /** Running totals before call i (length calls + 1): output, reasoning, tool calls that run. */
  outputBefore: Float64Array;
  reasoningBefore: Float64Array;
  toolsBefore: Int32Array;
  /**
   * For the closed form over plain calls (closedForm.ts), running totals before call i (length
   * calls + 1): step tokens (output + results); those totals summed (Σ_{k<i} stepTokensBefore[k]);
   * output − reasoning; step latency (calls whose latency is not all recorded count 0) and the number
   * of such calls.
   */
  stepTokensBefore: Float64Array;
  stepTokensBeforeSum: Float64Array;
  plainOutputBefore: Float64Array;
  stepLatencyBefore: Float64Array;
  latencyMissingBefore: Int32Array;
  /** Calls with a recorded prompt size before call i (the closed form stops at them). */
  recordedInputBefore: Int32Array;
  /** Token counts are non-negative and the running totals above are exact (below 2^52). */
  closedForm: boolean;
  /** The largest step (output + results) of any call. */
  maxStepTokens: number;
  /** The last backtrack call, −1 when none: only a backtrack reads back a full-history context's prefix sums. */
  lastBacktrack: number;
  /**
   * The first call ≥ i (length calls + 1, n when none) that the fast loop leaves to the general step:
   * final, backtrack, failed, compaction or an answer without tool calls.
   */
  nextNotPlain: Int32Array;
  /**
   * Running maximum over calls 0..i of the largest "already seen" count among a call's tool calls, per
   * repeat mode, and of the largest error count, per same-error mode; −1 while no call ran a tool call
   * (or none failed). Non-decreasing, so the first call where a limit is reached is a binary search.
   */
  repeatReachTotal: Int32Array;
  repeatReachConsecutive: Int32Array;
  repeatReachCycle: Int32Array;
  errorReachTotal: Int32Array;
  errorReachConsecutive: Int32Array;

  // ── Precomputed per tool call (index = tool call); meaningful for tool calls that run ──
  /** Times the action was already seen before this tool call: total, in a row, in an A/B cycle. */
  seenTotal: Int32Array;
  seenConsecutive: Int32Array;
  seenCycle: Int32Array;
  /** For a failed tool call, its error's count after it (total) and its run of identical errors; −1 on success. */
  errorTotal: Int32Array;
  errorConsecutive: Int32Array;

  /** Some call has a recorded prompt size (FLAG_RECORDED_INPUT). */
  hasRecordedInput: boolean;
  /** Every recorded latency is a non-negative integer below 2^31 (so sums of them are exact in any order). */
  latencyIntegral: boolean;
}

/** Offsets in a callData record. */
export const CALL_STRIDE = 8;
export const CALL_OUTPUT = 0;
export const CALL_REASONING = 1;
/** The call's and its tool calls' recorded latencies summed; NaN when one is not recorded. */
export const CALL_STEP_LATENCY = 2;
/** Output + result tokens: what the call adds to the context when nothing is capped. */
export const CALL_STEP_TOKENS = 3;
/** Recorded latency, NaN when none. */
export const CALL_LATENCY = 4;
/** Σ recorded latency of the tool calls; NaN when one is not recorded. */
export const CALL_TOOL_LATENCY = 5;
/** The largest result of the call's tool calls, −1 without tool calls. */
export const CALL_MAX_RESULT = 6;
/** Number of tool calls. */
export const CALL_TOOLS = 7;

/** Flags of calls the fast loop leaves to the general step. */
export const SLOW_FLAGS = FLAG_FINAL | FLAG_BACKTRACK | FLAG_FAILED | FLAG_COMPACTION | FLAG_ANSWER;

const TOOLS_DO_NOT_RUN = FLAG_BACKTRACK | FLAG_FAILED | FLAG_COMPACTION;
const INTEGRAL_LATENCY_LIMIT = 2 ** 31;

function integralLatency(ms: number): boolean {
  return ms !== ms || (Number.isInteger(ms) && ms >= 0 && ms < INTEGRAL_LATENCY_LIMIT);
}

export function compileTrace(trace: Trace, actions = new Interner(), errors = new Interner()): CompiledTrace {
  const n = trace.calls.length;
  const toolCount = trace.calls.reduce((sum, call) => sum + (call.toolCalls?.length ?? 0), 0);
  const c: CompiledTrace = {
    calls: n,
    systemTokens: trace.header.systemTokens,
    goalTokens: trace.header.goalTokens,
    exhaustedCompleted: trace.end.outcome === 'completed',
    output: new Int32Array(n),
    recordedInput: new Int32Array(n),
    cached: new Int32Array(n),
    cacheWrite: new Int32Array(n),
    cacheWrite1h: new Int32Array(n),
    reasoning: new Int32Array(n),
    latencyMs: new Float64Array(n),
    flags: new Uint8Array(n),
    toolStart: new Int32Array(n + 1),
    action: new Int32Array(toolCount),
    resultTokens: new Int32Array(toolCount),
    error: new Int32Array(toolCount),
    toolLatencyMs: new Float64Array(toolCount),
    actionIds: 0,
    errorIds: 0,
    callData: new Float64Array(n * CALL_STRIDE),
    outputBefore: new Float64Array(n + 1),
    reasoningBefore: new Float64Array(n + 1),
    toolsBefore: new Int32Array(n + 1),
    stepTokensBefore: new Float64Array(n + 1),
    stepTokensBeforeSum: new Float64Array(n + 1),
    plainOutputBefore: new Float64Array(n + 1),
    stepLatencyBefore: new Float64Array(n + 1),
    latencyMissingBefore: new Int32Array(n + 1),
    recordedInputBefore: new Int32Array(n + 1),
    closedForm: true,
    lastBacktrack: -1,
    maxStepTokens: 0,
    nextNotPlain: new Int32Array(n + 1),
    repeatReachTotal: new Int32Array(n),
    repeatReachConsecutive: new Int32Array(n),
    repeatReachCycle: new Int32Array(n),
    errorReachTotal: new Int32Array(n),
    errorReachConsecutive: new Int32Array(n),
    seenTotal: new Int32Array(toolCount),
    seenConsecutive: new Int32Array(toolCount),
    seenCycle: new Int32Array(toolCount),
    errorTotal: new Int32Array(toolCount),
    errorConsecutive: new Int32Array(toolCount),
    latencyIntegral: true,
    hasRecordedInput: false,
  };
  let t = 0;
  let latencyIntegral = true;
  trace.calls.forEach((call, i) => {
    c.output[i] = call.outputTokens;
    c.reasoning[i] = Math.min(call.reasoningTokens ?? 0, call.outputTokens);
    c.cached[i] = call.cachedInputTokens ?? 0;
    c.cacheWrite[i] = call.cacheWriteTokens ?? 0;
    c.cacheWrite1h[i] = call.cacheWrite1hTokens ?? 0;
    c.latencyMs[i] = call.latencyMs ?? NaN; // NaN: not recorded, the latency model decides
    latencyIntegral &&= integralLatency(c.latencyMs[i]!);
    const tools = call.toolCalls ?? [];
    let flags = 0;
    if (call.final) flags |= FLAG_FINAL;
    if (call.backtrack) {
      flags |= FLAG_BACKTRACK;
      c.lastBacktrack = i;
    }
    if (call.unparseable) flags |= FLAG_UNPARSEABLE;
    if (call.failed) flags |= FLAG_FAILED;
    if (call.compaction) flags |= FLAG_COMPACTION;
    if (call.inputTokens !== undefined) {
      flags |= FLAG_RECORDED_INPUT;
      c.recordedInput[i] = call.inputTokens;
      c.hasRecordedInput = true;
    }
    if (tools.length === 0 && !call.unparseable) flags |= FLAG_ANSWER;
    c.flags[i] = flags;
    c.toolStart[i] = t;
    let resultSum = 0;
    let maxResult = -1;
    let minResult = 0;
    let latencySum = 0;
    let latencyMissing = 0;
    for (const tool of tools) {
      c.action[t] = actions.id(actionFingerprint(tool.name, tool.arguments));
      c.resultTokens[t] = tool.resultTokens;
      c.error[t] = tool.error ? errors.id(errorFingerprint(tool.name, tool.error)) : -1;
      c.toolLatencyMs[t] = tool.latencyMs ?? NaN;
      latencyIntegral &&= integralLatency(c.toolLatencyMs[t]!);
      resultSum += c.resultTokens[t]!;
      if (c.resultTokens[t]! > maxResult) maxResult = c.resultTokens[t]!;
      if (c.resultTokens[t]! < minResult) minResult = c.resultTokens[t]!;
      if (c.toolLatencyMs[t]! !== c.toolLatencyMs[t]!) latencyMissing++;
      else latencySum += c.toolLatencyMs[t]!;
      t++;
    }
    const toolLatency = latencyMissing > 0 ? NaN : latencySum;
    const stepLatency = c.latencyMs[i]! + toolLatency;
    const stepTokens = c.output[i]! + resultSum;
    const r = i * CALL_STRIDE;
    c.callData[r + CALL_OUTPUT] = c.output[i]!;
    c.callData[r + CALL_REASONING] = c.reasoning[i]!;
    c.callData[r + CALL_STEP_LATENCY] = stepLatency;
    c.callData[r + CALL_STEP_TOKENS] = stepTokens;
    c.callData[r + CALL_LATENCY] = c.latencyMs[i]!;
    c.callData[r + CALL_TOOL_LATENCY] = toolLatency;
    c.callData[r + CALL_MAX_RESULT] = maxResult;
    c.callData[r + CALL_TOOLS] = tools.length;
    c.outputBefore[i + 1] = c.outputBefore[i]! + c.output[i]!;
    c.reasoningBefore[i + 1] = c.reasoningBefore[i]! + c.reasoning[i]!;
    c.toolsBefore[i + 1] = c.toolsBefore[i]! + ((flags & TOOLS_DO_NOT_RUN) === 0 ? tools.length : 0);
    c.stepTokensBefore[i + 1] = c.stepTokensBefore[i]! + stepTokens;
    if (stepTokens > c.maxStepTokens) c.maxStepTokens = stepTokens;
    c.stepTokensBeforeSum[i + 1] = c.stepTokensBeforeSum[i]! + c.stepTokensBefore[i]!;
    c.plainOutputBefore[i + 1] = c.plainOutputBefore[i]! + Math.max(0, c.output[i]! - c.reasoning[i]!);
    c.stepLatencyBefore[i + 1] = c.stepLatencyBefore[i]! + (stepLatency === stepLatency ? stepLatency : 0);
    c.latencyMissingBefore[i + 1] = c.latencyMissingBefore[i]! + (stepLatency === stepLatency ? 0 : 1);
    c.recordedInputBefore[i + 1] = c.recordedInputBefore[i]! + ((flags & FLAG_RECORDED_INPUT) !== 0 ? 1 : 0);
    if (c.output[i]! < 0 || c.reasoning[i]! < 0 || resultSum < 0 || minResult < 0) c.closedForm = false;
  });
  c.toolStart[n] = t;
  c.actionIds = actions.size;
  c.errorIds = errors.size;
  c.latencyIntegral = latencyIntegral;
  if (!(c.stepTokensBeforeSum[n]! < 2 ** 52 && c.outputBefore[n]! < 2 ** 52 && c.stepLatencyBefore[n]! < 2 ** 52)) c.closedForm = false;
  c.nextNotPlain[n] = n;
  for (let i = n - 1; i >= 0; i--) c.nextNotPlain[i] = (c.flags[i]! & SLOW_FLAGS) !== 0 ? i : c.nextNotPlain[i + 1]!;
  precomputeToolBrakes(c);
  return c;
}

/**
 * Replays the repeated-action and same-error state of src/brakes/brakes.ts (recordAction,
 * recordToolOutcome) over every tool call that runs, recording what each check would compare with
 * its limit.
 */
function precomputeToolBrakes(c: CompiledTrace): void {
  const actionCounts = new Int32Array(c.actionIds);
  const errorCounts = new Int32Array(c.errorIds);
  let lastAction = -1, secondLastAction = -1, actionRun = 0, alternation = 0;
  let lastError = -1, errorRun = 0;
  for (let i = 0; i < c.calls; i++) {
    let maxTotal = -1, maxConsecutive = -1, maxCycle = -1, maxErrorTotal = -1, maxErrorConsecutive = -1;
    const runs = (c.flags[i]! & TOOLS_DO_NOT_RUN) === 0;
    for (let j = c.toolStart[i]!; j < c.toolStart[i + 1]!; j++) {
      if (!runs) {
        c.seenTotal[j] = c.seenConsecutive[j] = c.seenCycle[j] = c.errorTotal[j] = c.errorConsecutive[j] = -1;
        continue;
      }
      const a = c.action[j]!;
      let nextAlternation: number;
      if (lastAction < 0 || a === lastAction) nextAlternation = 1;
      else if (alternation >= 2 && a === secondLastAction) nextAlternation = alternation + 1;
      else nextAlternation = 2;
      const seenTotal = actionCounts[a]!;
      const seenConsecutive = a === lastAction ? actionRun : 0;
      // In an alternation of length L ending with this action, it stood at every other place before.
      const seenCycle = nextAlternation >= 3 ? Math.ceil(nextAlternation / 2) - 1 : 0;
      c.seenTotal[j] = seenTotal;
      c.seenConsecutive[j] = seenConsecutive;
      c.seenCycle[j] = seenCycle;
      if (seenTotal > maxTotal) maxTotal = seenTotal;
      if (seenConsecutive > maxConsecutive) maxConsecutive = seenConsecutive;
      if (seenCycle > maxCycle) maxCycle = seenCycle;
      actionCounts[a]!++;
      alternation = nextAlternation;
      actionRun = a === lastAction ? actionRun + 1 : 1;
      secondLastAction = lastAction;
      lastAction = a;

      const e = c.error[j]!;
      if (e < 0) {
        errorRun = 0;
        lastError = -1;
        c.errorTotal[j] = c.errorConsecutive[j] = -1;
      } else {
        errorCounts[e]!++;
        errorRun = e === lastError ? errorRun + 1 : 1;
        lastError = e;
        c.errorTotal[j] = errorCounts[e]!;
        c.errorConsecutive[j] = errorRun;
        if (errorCounts[e]! > maxErrorTotal) maxErrorTotal = errorCounts[e]!;
        if (errorRun > maxErrorConsecutive) maxErrorConsecutive = errorRun;
      }
    }
    c.repeatReachTotal[i] = Math.max(maxTotal, i > 0 ? c.repeatReachTotal[i - 1]! : -1);
    c.repeatReachConsecutive[i] = Math.max(maxConsecutive, i > 0 ? c.repeatReachConsecutive[i - 1]! : -1);
    c.repeatReachCycle[i] = Math.max(maxCycle, i > 0 ? c.repeatReachCycle[i - 1]! : -1);
    c.errorReachTotal[i] = Math.max(maxErrorTotal, i > 0 ? c.errorReachTotal[i - 1]! : -1);
    c.errorReachConsecutive[i] = Math.max(maxErrorConsecutive, i > 0 ? c.errorReachConsecutive[i - 1]! : -1);
  }
}

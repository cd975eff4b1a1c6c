/**
 * A compiled trace: one run's figures in flat typed arrays, fingerprints interned, and what no setting
 * can change precomputed (compile.ts, precompute.ts). Compile once, replay under many settings.
 */
import { CallField, CallFlag } from '../kernel/callRecord.js';
import type { StopCode } from '../kernel/stopCodes.js';
import type { CacheWrites } from '../kernel/cacheWrites.js';
import type { RecordedSums } from './recordedSums.js';

/** Calls that are not plain (a step whose tool calls all run): the per-step loop and closed form leave them to the general step. */
export const SLOW_FLAGS = CallFlag.Final | CallFlag.Backtrack | CallFlag.Failed | CallFlag.Compaction | CallFlag.Answer;

/**
 * One record per call in `records`: the kernel's call layout (CallField, what the meter reads) and,
 * after it, figures the fast paths add.
 */
export const enum CompiledField {
  /** The output's tokens that enter the context (ContextOutput) + result tokens: what the call adds to the context when nothing is capped. */
  StepTokens = CallField.Size,
  /** Σ recorded latency of the tool calls; NaN when one is not recorded. */
  ToolLatency,
  /** The call's and its tool calls' recorded latencies summed; NaN when one is not recorded. */
  StepLatency,
  /** The largest result of the call's tool calls, −1 without tool calls. */
  MaxResult,
  /** Number of tool calls. */
  Tools,
  /** The output's tokens that enter the run's later prompts: all, or less the reasoning in a run whose reasoning does not re-enter (kernel/stepTokens.ts outputEnteringContext). */
  ContextOutput,
  Stride,
}

/**
 * The running totals the closed form reads at a call, side by side (CompiledTrace.closedSums, one record
 * of ClosedAt.Stride numbers per call 0..calls): a look at call k touches one or two cache lines instead
 * of one in each of ten arrays. Copies of the arrays of the same names (which sweeps and results read).
 */
export const enum ClosedAt {
  /** stepTokensBefore (K) and stepTokensBeforeSum (S): their own layout's first two fields (StepSums.pairs). */
  StepTokens,
  StepTokensSum,
  PlainOutput,
  Reasoning,
  Output,
  StepLatency,
  LatencyMissing,
  RecordedInputs,
  /** nextNotPlain (at call n: n) and nonStepsBefore: where a replay's stretch ends, and its step cap in calls. */
  NextNotPlain,
  NonSteps,
  Stride,
}

export interface CompiledTrace {
  calls: number;
  /** System + goal tokens. */
  fixedTokens: number;
  /** How the run stops when its calls run out: completed, trace_end, or provider_refused (the trace's next call was refused: refusal.ts). */
  exhaustedCode: StopCode;
  /** The refused call's latency and numbers (refusal.ts Refused; NaN: not recorded); empty when no call was refused. */
  refusal: number[];
  /** The recorded run asked for no call after its last (its model gave up, or it was aborted: kernel/gaveUp.ts): a replay that reaches the end stops there, before the brakes. */
  endsAfterLastCall: boolean;
  /** How long the run's cache writes may last (kernel/cacheWrites.ts): the write price the predictive bound takes. */
  cacheWrites: CacheWrites;
  /** calls × CompiledField.Stride numbers. */
  records: Float64Array;

  // ── Tool calls (index = tool call); those of call i are toolStart[i] .. toolStart[i + 1] − 1 ──
  toolStart: Int32Array;
  action: Int32Array;
  resultTokens: Float64Array;
  /** Interned (tool, error) id, −1 when the tool succeeded. */
  error: Int32Array;
  /** Recorded latency, NaN when none. */
  toolLatencyMs: Float64Array;
  /** Index into toolNames (stop details name the tool). */
  toolName: Int32Array;
  toolNames: string[];
  /** Interned ids are below these bounds. */
  actionIds: number;
  errorIds: number;

  // ── Repeat and same-error state, per tool call that runs (−1 for one that does not) ──
  /** Times the action already ran before this tool call: in the run, in a row, in an A/B cycle. */
  seenTotal: Int32Array;
  seenConsecutive: Int32Array;
  seenCycle: Int32Array;
  /** For a failed tool call, its error's count after it (total) and its run of identical errors; −1 on success. */
  errorTotal: Int32Array;
  errorConsecutive: Int32Array;
  /**
   * Running maxima over calls 0..i of those counts (per mode), −1 while none: non-decreasing, so the
   * first call where a limit is reached is a binary search.
   */
  repeatReachTotal: Int32Array;
  repeatReachConsecutive: Int32Array;
  repeatReachCycle: Int32Array;
  errorReachTotal: Int32Array;
  errorReachConsecutive: Int32Array;

  // ── Running totals before call i (length calls + 1), which no setting changes ──
  outputBefore: Float64Array;
  reasoningBefore: Float64Array;
  /** Tool calls that ran. */
  toolsBefore: Int32Array;
  /** Backtracks and compactions (calls that are not steps). */
  nonStepsBefore: Int32Array;
  backtracksBefore: Int32Array;
  failedBefore: Int32Array;
  /** Σ recorded prompt tokens, Σ (recorded − growth model), calls with a recorded prompt size. */
  recordedInputSumBefore: Float64Array;
  recordedDeltaBefore: Float64Array;
  recordedInputBefore: Int32Array;
  /** Σ recorded per-call cost (pico) and the calls that have one. */
  recordedCostBefore: Float64Array;
  recordedCostCallsBefore: Int32Array;

  // ── For the closed form (closedForm.ts) ──
  /** Step tokens (output + results) before call i, and those totals summed (Σ_{k<i} stepTokensBefore[k]). */
  stepTokensBefore: Float64Array;
  stepTokensBeforeSum: Float64Array;
  /** Σ (output − reasoning). */
  plainOutputBefore: Float64Array;
  /** Step latency (calls whose latency is not all recorded count 0) and the number of such calls. */
  stepLatencyBefore: Float64Array;
  latencyMissingBefore: Int32Array;
  /** The closed form's running totals before each call, interleaved (ClosedAt): (calls + 1) × ClosedAt.Stride. */
  closedSums: Float64Array;
  /** Token counts are non-negative, the running totals above are exact (below 2^52) and no call ran web searches (whose fees the stretch sums leave out). */
  closedForm: boolean;
  /**
   * The largest count a repeat brake (total, consecutive, cycle) or a same-error brake (total,
   * consecutive) compares with its limit in the whole trace: the last of the reach arrays above, −1
   * when none. Below a limit, no such brake fires and the reach arrays are not read.
   */
  repeatMaxTotal: number;
  repeatMaxConsecutive: number;
  repeatMaxCycle: number;
  errorMaxTotal: number;
  errorMaxConsecutive: number;
  /** The largest step (output + results) of any call. */
  maxStepTokens: number;
  /** The last backtrack call, −1 when none: only a backtrack reads back a full-history context's prefix sums. */
  lastBacktrack: number;
  /**
   * The conversation's framing (kernel/compaction.ts): what the first call that did not fail was billed
   * beyond the context (its recorded prompt − system + goal, 0 when not recorded; NaN when none): the
   * overhead after a compaction. No setting changes it: before that call no step entered the context.
   */
  framingTokens: number;
  /** The first call ≥ i (n when none) that is not plain: final, backtrack, failed, compaction, an answer. */
  nextNotPlain: Int32Array;
  /** Some call has a recorded prompt size. */
  hasRecordedInput: boolean;
  /** Sums over calls with a recorded prompt size for the recorded closed form (recordedSums.ts); null without. */
  recordedSums: RecordedSums | null;
  /** Every recorded latency is a whole number in [0, 2^31), so sums of them are exact in any order. */
  latencyIntegral: boolean;
}

/**
 * Compiles a trace into a CompiledTrace (layout.ts): the kernel's call records plus tool-call arrays,
 * fingerprints interned; then precompute.ts adds what no setting can change. That is about five times
 * the memory of the trace's own figures (≈ 330 bytes per call, ≈ 430 with recorded prompt sizes, the
 * interleaved records included: layout.ts ClosedAt, recordedSums.ts RecordedAt): the price of replay work that no
 * longer grows with the trace's length.
 */
import { actionFingerprint, errorFingerprint, Interner } from '../brakes/fingerprint.js';
import { CallField, CallFlag, writeCallRecord } from '../kernel/callRecord.js';
import { StopCode, stopCodeOf } from '../kernel/stopCodes.js';
import { endsAfterLastCall, exhaustedStop } from '../kernel/gaveUp.js';
import { cacheWritesOf } from '../kernel/cacheWrites.js';
import { outputEnteringContext, reasoningReentersOf } from '../kernel/stepTokens.js';
import { reachedToolCalls } from '../trace/toolsRun.js';
import { replayedCalls } from '../trace/replayedCalls.js';
import type { CallRecord, Trace } from '../trace/types.js';
import { requireTrace } from '../options/given.js';
import { ClosedAt, CompiledField, type CompiledTrace } from './layout.js';
import { CompileArena, CompileScratch, Slab } from './compileMemory.js';
import { precompute } from './precompute.js';
import { refusalNumbers, refusedAt } from './refusal.js';

export { CompileArena, CompileScratch } from './compileMemory.js';

const INTEGRAL_LATENCY_LIMIT = 2 ** 31;

function integralLatency(ms: number): boolean {
  return ms !== ms || (Number.isInteger(ms) && ms >= 0 && ms < INTEGRAL_LATENCY_LIMIT);
}

/** Float64 numbers in a compiled trace of n calls and `tools` tool calls: records, 2 tool arrays, 9 running totals, closedSums. */
function f64Count(n: number, tools: number): number {
  return n * CompiledField.Stride + 2 * tools + 9 * (n + 1) + (n + 1) * ClosedAt.Stride;
}

/** Int32 numbers: toolStart, 8 tool arrays, 5 reach arrays, 8 counts before each call. */
function i32Count(n: number, tools: number): number {
  return n + 1 + 8 * tools + 5 * n + 8 * (n + 1);
}

/** The Float64 views of a compiled trace of n calls and `tools` tool calls, carved first (aligned): call records, tool results and latencies, closed sums, the running totals before each call. */
function float64Views(slab: Slab, n: number, tools: number) {
  const before = () => slab.f64(n + 1);
  // Carved in the order written (property values are evaluated in order): the slab's layout.
  return {
    records: slab.f64(n * CompiledField.Stride), resultTokens: slab.f64(tools), toolLatencyMs: slab.f64(tools), closedSums: slab.f64((n + 1) * ClosedAt.Stride),
    outputBefore: before(), reasoningBefore: before(), recordedInputSumBefore: before(), recordedDeltaBefore: before(), recordedCostBefore: before(),
    stepTokensBefore: before(), stepTokensBeforeSum: before(), plainOutputBefore: before(), stepLatencyBefore: before(),
  };
}

/** The Int32 views, carved after the Float64 ones: where each call's tool calls start, their ids, the repeat and same-error counts, each call's reach, the counts before each call. */
function int32Views(slab: Slab, n: number, tools: number) {
  const perTool = () => slab.i32(tools);
  const perCall = () => slab.i32(n);
  const countsBefore = () => slab.i32(n + 1);
  return {
    toolStart: countsBefore(), action: perTool(), error: perTool(), toolName: perTool(),
    seenTotal: perTool(), seenConsecutive: perTool(), seenCycle: perTool(), errorTotal: perTool(), errorConsecutive: perTool(),
    repeatReachTotal: perCall(), repeatReachConsecutive: perCall(), repeatReachCycle: perCall(), errorReachTotal: perCall(), errorReachConsecutive: perCall(),
    toolsBefore: countsBefore(), nonStepsBefore: countsBefore(), backtracksBefore: countsBefore(), failedBefore: countsBefore(),
    recordedInputBefore: countsBefore(), recordedCostCallsBefore: countsBefore(), latencyMissingBefore: countsBefore(), nextNotPlain: countsBefore(),
  };
}

/**
 * A compiled trace of `trace`'s first n calls and `tools` tool calls: the run's own figures, its arrays carved out
 * of one slab (zeroed), nothing else computed yet. One object literal of every field in layout.ts's order: one
 * shape (for V8) for every compiled trace, fresh or filled from the cache (compiledCache.ts).
 */
function emptyCompiled(trace: Trace, n: number, tools: number, memory?: CompileScratch | CompileArena): CompiledTrace {
  const slab = new Slab(f64Count(n, tools), i32Count(n, tools), memory);
  const f = float64Views(slab, n, tools);
  const i = int32Views(slab, n, tools);
  slab.done();
  return {
    calls: n,
    fixedTokens: trace.header.systemTokens + trace.header.goalTokens,
    exhaustedCode: n < trace.calls.length ? StopCode.ProviderRefused : stopCodeOf(exhaustedStop(trace.end)),
    refusal: refusalNumbers(trace.calls[n]),
    endsAfterLastCall: endsAfterLastCall(trace),
    cacheWrites: cacheWritesOf(trace),
    // The calls' records and their tool calls' arrays, fingerprints and names interned (compileTrace).
    records: f.records, toolStart: i.toolStart, action: i.action, resultTokens: f.resultTokens, error: i.error, toolLatencyMs: f.toolLatencyMs,
    toolName: i.toolName, toolNames: [], actionIds: 0, errorIds: 0,
    // The repeat and same-error brakes' counts and reach (precompute.ts).
    seenTotal: i.seenTotal, seenConsecutive: i.seenConsecutive, seenCycle: i.seenCycle, errorTotal: i.errorTotal, errorConsecutive: i.errorConsecutive,
    repeatReachTotal: i.repeatReachTotal, repeatReachConsecutive: i.repeatReachConsecutive, repeatReachCycle: i.repeatReachCycle,
    errorReachTotal: i.errorReachTotal, errorReachConsecutive: i.errorReachConsecutive,
    // Running totals before each call, and the closed form's sums.
    outputBefore: f.outputBefore, reasoningBefore: f.reasoningBefore, toolsBefore: i.toolsBefore, nonStepsBefore: i.nonStepsBefore,
    backtracksBefore: i.backtracksBefore, failedBefore: i.failedBefore, recordedInputSumBefore: f.recordedInputSumBefore,
    recordedDeltaBefore: f.recordedDeltaBefore, recordedInputBefore: i.recordedInputBefore, recordedCostBefore: f.recordedCostBefore,
    recordedCostCallsBefore: i.recordedCostCallsBefore, stepTokensBefore: f.stepTokensBefore, stepTokensBeforeSum: f.stepTokensBeforeSum,
    plainOutputBefore: f.plainOutputBefore, stepLatencyBefore: f.stepLatencyBefore, latencyMissingBefore: i.latencyMissingBefore, closedSums: f.closedSums,
    // What precompute.ts works out.
    closedForm: true, repeatMaxTotal: -1, repeatMaxConsecutive: -1, repeatMaxCycle: -1, errorMaxTotal: -1, errorMaxConsecutive: -1,
    maxStepTokens: 0, lastBacktrack: -1, framingTokens: NaN, nextNotPlain: i.nextNotPlain, hasRecordedInput: false, recordedSums: null, latencyIntegral: true,
  };
}

/** Recorded costs while a trace is compiled without a scratch (read by precompute only, not kept). */
const costsWhileCompiling = new CompileScratch();

/**
 * Compiles `trace`; with a CompileScratch, into memory it lends (then valid only until its next use);
 * with a CompileArena, into a part of one of its buffers. A call its provider refused (and any after it)
 * is not compiled: the run stops there, provider_refused, with the refusal's numbers (refusal.ts).
 */
export function compileTrace(trace: Trace, memory?: CompileScratch | CompileArena): CompiledTrace {
  // A library caller's missing run (`const [trace] = await loadTraceFile(empty)`) is a UserError, not a TypeError below.
  requireTrace('compileTrace', trace);
  // Up to the call its provider refused, if one was (refusal.ts): the run ends there.
  const n = refusedAt(trace.calls);
  // As every replay plays them: no final mark on a last call its run was aborted after (trace/replayedCalls.ts).
  const played = replayedCalls(trace);
  const calls = n === played.length ? played : played.slice(0, n);
  // A tool call the run never reached (and any after it) is not compiled: no replay plays it (trace/rules.ts reachedToolCalls).
  const toolCount = calls.reduce((sum, call) => sum + reachedToolCalls(call), 0);
  const c = emptyCompiled(trace, n, toolCount, memory);
  const interned: Interned = { actions: new Interner(), errors: new Interner(), names: new Interner() };
  const recordedCostUsd = (memory instanceof CompileScratch ? memory : costsWhileCompiling).recordedCosts(n);
  const reasoningReenters = reasoningReentersOf(trace);
  let t = 0;
  calls.forEach((call, i) => {
    const at = i * CompiledField.Stride;
    const records = c.records;
    writeCallRecord(records, at, call);
    // What of its output enters the later prompts (the run's rule, once per call): every engine's context reads it.
    records[at + CompiledField.ContextOutput] = outputEnteringContext(records[at + CallField.Output]!, records[at + CallField.Reasoning]!, reasoningReenters);
    const reached = reachedToolCalls(call);
    // A step the run stopped inside never ended: its final mark completes nothing (as session.endStep).
    if (reached < (call.toolCalls?.length ?? 0)) records[at + CallField.Flags] = records[at + CallField.Flags]! & ~CallFlag.Final;
    recordedCostUsd[i] = call.recordedCostUsd ?? NaN;
    c.latencyIntegral &&= integralLatency(records[at + CallField.LatencyMs]!);
    c.toolStart[i] = t;
    t = compileToolCalls(c, { call, at, reached, first: t }, interned);
  });
  c.toolStart[n] = t;
  c.actionIds = interned.actions.size;
  c.errorIds = interned.errors.size;
  c.toolNames = interned.names.keys;
  precompute(c, recordedCostUsd);
  return c;
}

/** A compiled trace's interned action and error fingerprints and tool names. */
interface Interned {
  actions: Interner;
  errors: Interner;
  names: Interner;
}

/**
 * The first `reached` tool calls of `call` (record at `at`) into the tool arrays from index `first`, and
 * the step's sums into its record; returns the index after them. A negative result size leaves the
 * closed form.
 */
function compileToolCalls(c: CompiledTrace, of: { call: CallRecord; at: number; reached: number; first: number }, interned: Interned): number {
  const { call, at, reached } = of;
  let t = of.first;
  let resultSum = 0;
  let maxResult = -1;
  let latencySum = 0;
  let latencyMissing = false;
  for (let j = 0; j < reached; j++, t++) {
    const tool = call.toolCalls![j]!;
    c.action[t] = interned.actions.id(actionFingerprint(tool.name, tool.arguments));
    c.resultTokens[t] = tool.resultTokens;
    c.error[t] = tool.error ? interned.errors.id(errorFingerprint(tool.name, tool.error)) : -1;
    c.toolName[t] = interned.names.id(tool.name);
    const latency = tool.latencyMs ?? NaN;
    c.toolLatencyMs[t] = latency;
    c.latencyIntegral &&= integralLatency(latency);
    resultSum += tool.resultTokens;
    if (tool.resultTokens > maxResult) maxResult = tool.resultTokens;
    if (tool.resultTokens < 0) c.closedForm = false;
    if (latency !== latency) latencyMissing = true;
    else latencySum += latency;
  }
  const records = c.records;
  const toolLatency = latencyMissing ? NaN : latencySum;
  records[at + CompiledField.StepTokens] = records[at + CompiledField.ContextOutput]! + resultSum;
  records[at + CompiledField.ToolLatency] = toolLatency;
  records[at + CompiledField.StepLatency] = records[at + CallField.LatencyMs]! + toolLatency;
  records[at + CompiledField.MaxResult] = maxResult;
  records[at + CompiledField.Tools] = reached;
  return t;
}

const compiled = new WeakMap<Trace, CompiledTrace>();

/**
 * The trace compiled, once per Trace object: replays, what-ifs and sweeps of the same trace share it. The
 * library's compiledTrace (libraryCompiled.ts) and replayTrace freeze the trace too (trace/freezeTrace.ts),
 * so that a caller's change throws instead of leaving this one stale; the CLI's own runs are not frozen (a
 * streamed sweep lets their calls go once compiled).
 */
export function compiledTrace(trace: Trace): CompiledTrace {
  let c = compiled.get(trace);
  if (c === undefined) {
    c = compileTrace(trace);
    compiled.set(trace, c);
  }
  return c;
}

/**
 * compiledTrace, a trace not compiled yet compiled into `arena` (a batch of traces made and dropped together):
 * the CLI's streamed sweep, which lets each run's calls go once compiled (never handed to a library caller), so
 * not frozen.
 */
export function compiledTraceIn(trace: Trace, arena: CompileArena): CompiledTrace {
  let c = compiled.get(trace);
  if (c === undefined) {
    c = compileTrace(trace, arena);
    compiled.set(trace, c);
  }
  return c;
}

/**
 * The trace compiled for one replay that keeps nothing of it: the compiled trace every replay shares if
 * one was made (compiledTrace), else compiled into `scratch`'s memory, not kept (valid until its next use).
 */
export function compiledOnce(trace: Trace, scratch: CompileScratch): CompiledTrace {
  return compiled.get(trace) ?? compileTrace(trace, scratch);
}

const BLANK_RUN = { source: '', header: { systemTokens: 0, goalTokens: 0 }, calls: [], end: { outcome: 'completed' } } as unknown as Trace;
const blankScratch = new CompileScratch();

/**
 * A compiled trace of no calls, its fields made but nothing computed, its arrays views of one shared
 * scratch: the fields and shape (for V8) compileTrace's have, for a cache to fill with a stored trace's.
 */
export function blankCompiled(): CompiledTrace {
  return emptyCompiled(BLANK_RUN, 0, 0, blankScratch);
}

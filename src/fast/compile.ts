/**
 * Compiles a trace into a CompiledTrace (layout.ts): the kernel's call records plus tool-call arrays,
 * fingerprints interned; then precompute.ts adds what no setting can change. That is about five times
 * the memory of the trace's own figures (≈ 330 bytes per call, ≈ 430 with recorded prompt sizes, the
 * interleaved records included: layout.ts ClosedAt, recordedSums.ts RecordedAt): the price of replay work that no
 * longer grows with the trace's length.
 */
import { actionFingerprint, errorFingerprint, Interner } from '../brakes/fingerprint.js';
import { CallField, writeCallRecord } from '../kernel/callRecord.js';
import type { Trace } from '../trace/types.js';
import { ClosedAt, CompiledField, type CompiledTrace } from './layout.js';
import { precompute } from './precompute.js';

const INTEGRAL_LATENCY_LIMIT = 2 ** 31;

function integralLatency(ms: number): boolean {
  return ms !== ms || (Number.isInteger(ms) && ms >= 0 && ms < INTEGRAL_LATENCY_LIMIT);
}

function emptyCompiled(trace: Trace, n: number, tools: number): CompiledTrace {
  const before = () => new Float64Array(n + 1);
  const countsBefore = () => new Int32Array(n + 1);
  return {
    calls: n,
    fixedTokens: trace.header.systemTokens + trace.header.goalTokens,
    exhaustedCompleted: trace.end.outcome === 'completed',
    records: new Float64Array(n * CompiledField.Stride),
    toolStart: new Int32Array(n + 1),
    action: new Int32Array(tools),
    resultTokens: new Float64Array(tools),
    error: new Int32Array(tools),
    toolLatencyMs: new Float64Array(tools),
    toolName: new Int32Array(tools),
    toolNames: [],
    actionIds: 0,
    errorIds: 0,
    seenTotal: new Int32Array(tools),
    seenConsecutive: new Int32Array(tools),
    seenCycle: new Int32Array(tools),
    errorTotal: new Int32Array(tools),
    errorConsecutive: new Int32Array(tools),
    repeatReachTotal: new Int32Array(n),
    repeatReachConsecutive: new Int32Array(n),
    repeatReachCycle: new Int32Array(n),
    errorReachTotal: new Int32Array(n),
    errorReachConsecutive: new Int32Array(n),
    outputBefore: before(),
    reasoningBefore: before(),
    toolsBefore: countsBefore(),
    nonStepsBefore: countsBefore(),
    backtracksBefore: countsBefore(),
    failedBefore: countsBefore(),
    recordedInputSumBefore: before(),
    recordedDeltaBefore: before(),
    recordedInputBefore: countsBefore(),
    recordedCostBefore: before(),
    recordedCostCallsBefore: countsBefore(),
    stepTokensBefore: before(),
    stepTokensBeforeSum: before(),
    plainOutputBefore: before(),
    stepLatencyBefore: before(),
    latencyMissingBefore: countsBefore(),
    closedSums: new Float64Array((n + 1) * ClosedAt.Stride),
    closedForm: true,
    repeatMaxTotal: -1,
    repeatMaxConsecutive: -1,
    repeatMaxCycle: -1,
    errorMaxTotal: -1,
    errorMaxConsecutive: -1,
    maxStepTokens: 0,
    lastBacktrack: -1,
    nextNotPlain: countsBefore(),
    hasRecordedInput: false,
    recordedSums: null,
    latencyIntegral: true,
  };
}

export function compileTrace(trace: Trace, actions = new Interner(), errors = new Interner()): CompiledTrace {
  const n = trace.calls.length;
  const toolCount = trace.calls.reduce((sum, call) => sum + (call.toolCalls?.length ?? 0), 0);
  const c = emptyCompiled(trace, n, toolCount);
  const names = new Interner();
  const recordedCostUsd: number[] = [];
  let t = 0;
  trace.calls.forEach((call, i) => {
    const at = i * CompiledField.Stride;
    const records = c.records;
    writeCallRecord(records, at, call);
    recordedCostUsd.push(call.recordedCostUsd ?? NaN);
    c.latencyIntegral &&= integralLatency(records[at + CallField.LatencyMs]!);
    c.toolStart[i] = t;
    let resultSum = 0;
    let maxResult = -1;
    let latencySum = 0;
    let latencyMissing = false;
    for (const tool of call.toolCalls ?? []) {
      c.action[t] = actions.id(actionFingerprint(tool.name, tool.arguments));
      c.resultTokens[t] = tool.resultTokens;
      c.error[t] = tool.error ? errors.id(errorFingerprint(tool.name, tool.error)) : -1;
      c.toolName[t] = names.id(tool.name);
      const latency = tool.latencyMs ?? NaN;
      c.toolLatencyMs[t] = latency;
      c.latencyIntegral &&= integralLatency(latency);
      resultSum += tool.resultTokens;
      if (tool.resultTokens > maxResult) maxResult = tool.resultTokens;
      if (tool.resultTokens < 0) c.closedForm = false;
      if (latency !== latency) latencyMissing = true;
      else latencySum += latency;
      t++;
    }
    const toolLatency = latencyMissing ? NaN : latencySum;
    records[at + CompiledField.StepTokens] = records[at + CallField.Output]! + resultSum;
    records[at + CompiledField.ToolLatency] = toolLatency;
    records[at + CompiledField.StepLatency] = records[at + CallField.LatencyMs]! + toolLatency;
    records[at + CompiledField.MaxResult] = maxResult;
    records[at + CompiledField.Tools] = call.toolCalls?.length ?? 0;
  });
  c.toolStart[n] = t;
  c.actionIds = actions.size;
  c.errorIds = errors.size;
  c.toolNames = names.keys;
  precompute(c, recordedCostUsd);
  return c;
}

const compiled = new WeakMap<Trace, CompiledTrace>();

/**
 * The trace compiled, once per Trace object (traces are not changed once loaded): replays, what-ifs
 * and sweeps of the same trace share it.
 */
export function compiledTrace(trace: Trace): CompiledTrace {
  let c = compiled.get(trace);
  if (c === undefined) {
    c = compileTrace(trace);
    compiled.set(trace, c);
  }
  return c;
}

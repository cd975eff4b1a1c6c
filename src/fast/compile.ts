/**
 * Compiles traces into flat typed arrays for the fast replay path: one entry per call and per tool call,
 * fingerprints interned to integer ids. Compile once, replay under many brake settings.
 */
import { actionFingerprint, errorFingerprint, Interner } from '../brakes/fingerprint.js';
import type { Trace } from '../trace/types.js';

export const FLAG_FINAL = 1;
export const FLAG_BACKTRACK = 2;
export const FLAG_UNPARSEABLE = 4;
export const FLAG_FAILED = 8;
export const FLAG_COMPACTION = 16;
export const FLAG_RECORDED_INPUT = 32;

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
  };
  let t = 0;
  trace.calls.forEach((call, i) => {
    c.output[i] = call.outputTokens;
    c.reasoning[i] = Math.min(call.reasoningTokens ?? 0, call.outputTokens);
    c.cached[i] = call.cachedInputTokens ?? 0;
    c.cacheWrite[i] = call.cacheWriteTokens ?? 0;
    c.cacheWrite1h[i] = call.cacheWrite1hTokens ?? 0;
    c.latencyMs[i] = call.latencyMs ?? NaN; // NaN: not recorded, the latency model decides
    let flags = 0;
    if (call.final) flags |= FLAG_FINAL;
    if (call.backtrack) flags |= FLAG_BACKTRACK;
    if (call.unparseable) flags |= FLAG_UNPARSEABLE;
    if (call.failed) flags |= FLAG_FAILED;
    if (call.compaction) flags |= FLAG_COMPACTION;
    if (call.inputTokens !== undefined) {
      flags |= FLAG_RECORDED_INPUT;
      c.recordedInput[i] = call.inputTokens;
    }
    c.flags[i] = flags;
    c.toolStart[i] = t;
    for (const tool of call.toolCalls ?? []) {
      c.action[t] = actions.id(actionFingerprint(tool.name, tool.arguments));
      c.resultTokens[t] = tool.resultTokens;
      c.error[t] = tool.error ? errors.id(errorFingerprint(tool.name, tool.error)) : -1;
      c.toolLatencyMs[t] = tool.latencyMs ?? NaN;
      t++;
    }
  });
  c.toolStart[n] = t;
  c.actionIds = actions.size;
  c.errorIds = errors.size;
  return c;
}

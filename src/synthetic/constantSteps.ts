import type { CallRecord, Trace } from '../trace/types.js';
import { TRACE_SCHEMA } from '../trace/types.js';

export interface ConstantStepsSpec {
  model: string;
  systemTokens: number;
  goalTokens?: number;
  /** Output tokens of every call. */
  outputTokens: number;
  /** Tokens of the one tool result every step adds. */
  toolTokens: number;
  steps: number;
  /** Virtual latency of each model call. */
  latencyMs?: number;
}

/**
 * The growth model as a synthetic trace: every step emits `outputTokens` and one tool call whose result
 * adds `toolTokens`; each action is distinct, and the last step answers.
 */
export function constantStepsTrace(spec: ConstantStepsSpec): Trace {
  const calls: CallRecord[] = [];
  for (let i = 1; i <= spec.steps; i++) {
    const call: CallRecord = { type: 'call', outputTokens: spec.outputTokens };
    if (spec.latencyMs !== undefined) call.latencyMs = spec.latencyMs;
    if (i < spec.steps) call.toolCalls = [{ name: 'tool', arguments: { step: i }, resultTokens: spec.toolTokens }];
    else call.final = true;
    calls.push(call);
  }
  return {
    source: 'curve',
    header: {
      type: 'header',
      schema: TRACE_SCHEMA,
      model: spec.model,
      systemTokens: spec.systemTokens,
      goalTokens: spec.goalTokens ?? 0,
      origin: 'synthetic',
    },
    calls,
    end: { type: 'end', outcome: 'completed' },
  };
}


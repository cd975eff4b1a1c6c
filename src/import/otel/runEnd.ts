/** How a run ended: its end record, from its last call and its invoke_agent span. */
import type { CallRecord, TraceEnd } from '../../trace/types.js';
import { ATTR_ERROR_TYPE, stringAttr } from './attributes.js';
import type { OtelSpan } from './span.js';
import { isAgentSpan } from './spanKinds.js';

/**
 * An error when the last call failed or the agent span records an error; completed when the last call
 * asked for no tools (that call is then marked `final`); else unknown. `sorted`: the run's spans by start.
 */
export function runEnd(calls: CallRecord[], sorted: OtelSpan[]): TraceEnd {
  const last = calls[calls.length - 1]!;
  const agentSpan = sorted.find(isAgentSpan);
  if (last.failed) {
    return { type: 'end', outcome: 'error', status: last.failed.status !== undefined ? `HTTP ${last.failed.status}` : last.failed.message };
  }
  if (agentSpan && (agentSpan.statusError || stringAttr(agentSpan, ATTR_ERROR_TYPE) !== undefined)) {
    return { type: 'end', outcome: 'error', status: stringAttr(agentSpan, ATTR_ERROR_TYPE) ?? agentSpan.statusMessage ?? 'error' };
  }
  if (!last.toolCalls || last.toolCalls.length === 0) {
    last.final = true;
    return { type: 'end', outcome: 'completed' };
  }
  return { type: 'end', outcome: 'unknown' };
}

/**
 * Which tool calls of a recorded call run, one rule for every engine (the live loop, the replays, serve,
 * traceModel). Pure: no node:*.
 */
import type { CallRecord } from './types.js';

/** Whether a response's tool calls run: a failed call, a backtrack or a compaction has none that do. */
export const runsTools = (response: CallRecord): boolean => !response.backtrack && !response.failed && !response.compaction;

/** The tool calls of `call` the run reached (its tool calls up to the first `unreached` one): the ones a replay plays. */
export function reachedToolCalls(call: CallRecord): number {
  const tools = call.toolCalls;
  if (tools === undefined) return 0;
  for (let j = 0; j < tools.length; j++) if (tools[j]!.unreached === true) return j;
  return tools.length;
}

/**
 * A live recording's call written twice (the runAgentLoop recorder, agent/recorder.ts): once as its response
 * arrives, before its tools run — the call paid, its tool calls `unreached` (none ran yet), no `final` mark
 * (its step has not ended) — and once more, complete, when its step is over. So a run killed while a tool
 * runs (SIGKILL included) leaves the call it paid on disk, and its file replays with that call's cost: the
 * tool calls never answered are unreached, which no replay plays, and the recording, cut off before its end
 * record, ends as such a recording does (trace/parseNative.ts). The native reader reads the second line in
 * place of the first (the call once, at its complete line) only in a run whose header says its lines are so
 * written (`liveLines: "pending-then-complete"`, LIVE_LINES): a file without the mark is read as before, every
 * call line a call, and a loopcost older than the mark refuses a marked file (an unknown header field) instead
 * of counting a call twice. Pure: no node:*.
 */
import { canonicalJson } from '../brakes/fingerprint.js';
import type { CallRecord, ToolCallRecord, TraceEnd } from './types.js';

/** The header mark of a live recording that writes a call whose tools ran twice (TraceHeader.liveLines). */
export const LIVE_LINES = 'pending-then-complete';

/** The end of a live recording that has none (see TraceHeader.live): no stop was recorded, the run was interrupted (its process killed). */
export const CUT_OFF_RECORDING: TraceEnd = { type: 'end', outcome: 'unknown', status: 'live recording cut off before its end record' };

/** `call` as written before its tools ran: every tool call unreached (resultTokens 0, nothing it gave), no final mark. */
export function pendingCall(call: CallRecord): CallRecord {
  const { final: _notYet, ...pending } = call;
  if (call.toolCalls !== undefined) pending.toolCalls = call.toolCalls.map(unreachedToolCall);
  return pending;
}

function unreachedToolCall(tool: ToolCallRecord): ToolCallRecord {
  return { name: tool.name, arguments: tool.arguments, resultTokens: 0, ...(tool.id === undefined ? {} : { id: tool.id }), unreached: true };
}

/**
 * Whether `call`, read after `before` in a live recording, is `before` written again once its step was over:
 * `before` is the call as written before its tools ran (its first tool call unreached) and is `call`'s
 * pendingCall, field for field. (No other live recording has a call after one with an unreached tool call:
 * the run stopped inside that call.)
 */
export function restatesPending(before: CallRecord | undefined, call: CallRecord): boolean {
  if (before?.toolCalls?.[0]?.unreached !== true || call.toolCalls?.length !== before.toolCalls.length) return false;
  return canonicalJson(before) === canonicalJson(pendingCall(call));
}

/** When `call` (read on `line`) restates the last of `calls` (restatesPending), it takes that one's place, and its line that one's line: true; else nothing changes. */
export function restatedPending(calls: CallRecord[], lines: number[], call: CallRecord, line: number): boolean {
  if (!restatesPending(calls[calls.length - 1], call)) return false;
  calls[calls.length - 1] = call;
  lines[lines.length - 1] = line;
  return true;
}

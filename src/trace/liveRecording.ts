/**
 * A live recording's call written more than once (the runAgentLoop recorder, agent/recorder.ts). Marked
 * `liveLines: "sent-pending-complete"` (LIVE_LINES_SENT), each model call is written first as sent, before
 * the request goes (sentCall: a failed call billed at the loop's prompt estimate, marked `estimated`) —
 * so a run killed during the call (SIGKILL included) leaves on disk the call the provider may bill, read
 * as that — then, if its tools run, as its response arrives, before they run (pendingCall: the call paid,
 * its tool calls `unreached`, no `final` mark), and once more, complete, when its step is over. Each line
 * takes the place of the one before it. The older mark `pending-then-complete` (LIVE_LINES) has no sent
 * line; a file without a mark is read as before, every call line a call, and a loopcost older than a mark
 * refuses a file so marked (an unknown header value) instead of counting a call twice. A sent line followed
 * by the end record is dropped (the run threw inside the call: its figures, and its end, count no such call).
 * The last line of a live recording cut off while it was written (no JSON) is dropped: the run ends as cut
 * off, its end's status saying so, as it says of a sent call never answered. Pure: no node:*.
 */
import { canonicalJson } from '../brakes/fingerprint.js';
import type { CallRecord, ToolCallRecord, TraceEnd, TraceHeader } from './types.js';

/** The header mark of a live recording that writes a call whose tools ran twice (TraceHeader.liveLines), with no sent line: older recordings. */
export const LIVE_LINES = 'pending-then-complete';
/** The header mark of a live recording that also writes each model call as sent before it is made (the recorder's since). */
export const LIVE_LINES_SENT = 'sent-pending-complete';
/** The marks a reader knows (TraceHeader.liveLines). */
export const LIVE_LINES_MARKS = [LIVE_LINES, LIVE_LINES_SENT] as const;

/** What a sent line's `failed.message` says: a call made whose response was never read (what a reader keeps of it, cut off there). */
export const SENT_MESSAGE = 'sent, no response read: the recording was cut off during the call (billed at the loop’s prompt estimate)';

/** The end of a live recording that has none (see TraceHeader.live): no stop was recorded, the run was interrupted (its process killed). */
export const CUT_OFF_RECORDING: TraceEnd = { type: 'end', outcome: 'unknown', status: 'live recording cut off before its end record' };

/** A model call as written before it is made: failed, no response read, its prompt the loop's estimate (`promptTokens`), marked estimated. */
export function sentCall(promptTokens: number): CallRecord {
  return { type: 'call', inputTokens: promptTokens, outputTokens: 0, failed: { message: SENT_MESSAGE, estimated: true } };
}

/** Whether `call` is a sent line (sentCall). */
export function isSentCall(call: CallRecord | undefined): boolean {
  return call?.failed?.estimated === true && call.failed.message === SENT_MESSAGE && call.outputTokens === 0;
}

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

/**
 * When `call` (read on `line`) in a run headed `header` takes the place of the last of `calls` — a sent line
 * (LIVE_LINES_SENT) or a pending one it restates (restatesPending; either mark) — it takes that one's place,
 * and its line that one's line: true; else nothing changes.
 */
export function restatedLive(header: TraceHeader, calls: CallRecord[], lines: number[], call: CallRecord, line: number): boolean {
  const before = calls[calls.length - 1];
  const replaces = header.liveLines === LIVE_LINES_SENT ? isSentCall(before) || restatesPending(before, call) : header.liveLines === LIVE_LINES && restatesPending(before, call);
  if (!replaces) return false;
  calls[calls.length - 1] = call;
  lines[lines.length - 1] = line;
  return true;
}

/** At the end record of a run headed `header`: a sent line last among `calls` (the run threw inside the call) is dropped. */
export function dropThrownSent(header: TraceHeader, calls: CallRecord[], lines: number[]): void {
  if (header.liveLines !== LIVE_LINES_SENT || !isSentCall(calls[calls.length - 1])) return;
  calls.pop();
  lines.pop();
}

/**
 * The end a live recording cut off before its end record reads with (CUT_OFF_RECORDING), its status saying
 * what was left of it: its last call sent and never answered (`calls`' last a sent line: billed at its
 * prompt estimate), its last line written in part (`tornLine`, dropped).
 */
export function cutOffEnd(header: TraceHeader, calls: readonly CallRecord[], tornLine: number | undefined): TraceEnd {
  const sent = calls[calls.length - 1];
  const notes: string[] = [];
  if (header.liveLines === LIVE_LINES_SENT && isSentCall(sent)) notes.push(`its last model call was sent and never answered, billed at the loop's prompt estimate (${sent!.inputTokens} tokens)`);
  if (tornLine !== undefined) notes.push(`its last line (line ${tornLine}) was written in part and is dropped`);
  return notes.length === 0 ? CUT_OFF_RECORDING : { ...CUT_OFF_RECORDING, status: `${CUT_OFF_RECORDING.status}: ${notes.join('; ')}` };
}

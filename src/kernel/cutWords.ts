/**
 * What a timeout's stop detail says of the call just before it: one its deadline cut in flight
 * (agent/deadline.ts), or a tool call that ran on past the deadline. Written once, for the real loop and
 * every replay engine (loop/runStops.ts, fast/runState.ts), which read it off that call's record, so a run
 * and a replay of its recording say the same. A tool call cut that threw an error of its own is recorded as
 * the cut (CUT_TOOL_ERROR: agent/deadline.ts recordToolError), so its record tells it from any failure.
 */
import { timedOut } from './brakes.js';
import { reachedToolCalls, runsTools } from '../trace/toolsRun.js';
import type { CallRecord } from '../trace/types.js';

/** What a cut call's record says (its `failed.message`), and the reason its signal fires with. */
export const CUT_MESSAGE = "timed out: cut off at the run's timeout";

/** What a cut model call is named in the stop's detail: sent, its response never read (the real loop bills it at its prompt estimate: agent/failedCalls.ts). */
export const CUT_MODEL_CALL = 'model call in flight was cut off at the deadline (no response read)';

/** What a cut summary call (agent/liveSummary.ts) is named in the stop's detail, as a cut model call is (billed at its prompt estimate too). */
export const CUT_SUMMARY_CALL = 'summary call in flight was cut off at the deadline (no response read)';

/** The stop's detail once a call was cut (`what`: CUT_MODEL_CALL, CUT_SUMMARY_CALL, or the tool call's words): the brake's own, and what was cut. */
export function cutDetail(detail: string, what: string): string {
  return `${detail}; the ${what}`;
}

/** The stop's detail naming `what` as cut, unless it already does (the session named what the cut call's record shows: timeoutWords). */
export function withCut(detail: string, what: string): string {
  return detail.endsWith(`; the ${what}`) ? detail : cutDetail(detail, what);
}

/** What a cut tool call `name` is named in the stop's detail. */
export function cutToolCall(name: string): string {
  return `tool call ${name} in flight was cut off at the deadline`;
}

/** notRetriedCall's words past the call and its status: what a detail that names a failed call not retried holds (agent/modelCallFailed.ts). */
export const NOT_RETRIED = " was not retried: its retry would start past the timeout (the wait before it counted in the run's time)";

/**
 * What a failed model call (`status`: its HTTP status, when it has one) the run stopped after is named in the
 * timeout's detail: its retry was never made — the loop counts the wait before a retry (the back-off, or the
 * provider's Retry-After) as the failed call's time, and a wait that would end past the timeout is not waited
 * (agent/retryWait.ts pendingRetryWait); a replay stops before the call after it, on the time recorded.
 */
export function notRetriedCall(status: number | undefined): string {
  return `failed model call${status === undefined ? '' : ` (${status})`}${NOT_RETRIED}`;
}

/** What a tool call's record says when it threw its deadline's own reason (agent/tools.ts words a throw `name: message`; deadline.ts DeadlineError). */
export const CUT_TOOL_ERROR = `TimeoutError: ${CUT_MESSAGE}`;

/** What a tool call `name` that ran on past the deadline, its signal fired, is named in the stop's detail. */
export function ranPastToolCall(name: string): string {
  return `tool call ${name} ran on past the deadline (it was not cut)`;
}

/** The run's time at a timeout right after a call (its elapsed time, the brake's own figure), and the limit: what timeoutWords compares. */
export interface TimeoutAt {
  elapsedMs: number;
  timeoutMs: number;
}

/**
 * What a timeout's detail names of the last call before it ('' for nothing), as its record shows (`summary`:
 * a summary call, as a live loop's is before it is recorded a compaction call; `at`: the run's time then):
 * - a model or summary call recorded failed with CUT_MESSAGE: cut;
 * - a model call recorded failed otherwise (no summary call, no refusal): its retry not made (notRetriedCall);
 * - a tool call the run stopped inside (the last one it reached, the ones after it `unreached`), or its
 *   call's last that threw its deadline's reason (CUT_TOOL_ERROR): cut. (A recording its AbortSignal stopped
 *   ends before any brake, kernel/gaveUp.ts: a timeout never follows its aborted call);
 * - its call's last tool call, answered (no error), during which the run's time passed the limit (the
 *   time before it, the elapsed time less its recorded latency, not past by the brake's rule, timedOut):
 *   it ran on past the deadline, its signal fired.
 */
export function timeoutWords(call: CallRecord | undefined, summary: boolean, at: TimeoutAt): string {
  if (call === undefined) return '';
  if (call.failed !== undefined) return failedCallWords(call, summary);
  const reached = runsTools(call) ? reachedToolCalls(call) : 0;
  if (reached === 0) return '';
  const last = call.toolCalls![reached - 1]!;
  if (reached < call.toolCalls!.length || last.error === CUT_TOOL_ERROR) return cutToolCall(last.name);
  const ranMs = last.latencyMs;
  if (last.error !== undefined || ranMs === undefined) return '';
  return timedOut(at.elapsedMs, at.timeoutMs) && !timedOut(at.elapsedMs - ranMs, at.timeoutMs) ? ranPastToolCall(last.name) : '';
}

/**
 * What a timeout's detail names of a failed call just before it, from its record alone (`summary`: a summary
 * call's): cut at the deadline (CUT_MESSAGE), or a model call's retry not made (notRetriedCall); '' for a
 * failed summary call or a refusal. timeoutWords' first rule (a tree's timeout takes them all, on the tree's
 * time: tree/budget.ts).
 */
export function failedCallWords(call: CallRecord | undefined, summary: boolean): string {
  if (call?.failed === undefined) return '';
  if (call.failed.message === CUT_MESSAGE) return summary ? CUT_SUMMARY_CALL : CUT_MODEL_CALL;
  return summary || call.failed.contextLengthExceeded !== undefined ? '' : notRetriedCall(call.failed.status);
}

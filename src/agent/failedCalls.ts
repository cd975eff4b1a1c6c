/**
 * The real loop's failed model calls (agent/loop.ts): one its provider failed, one its deadline cut
 * (deadline.ts), one refused for its prompt's length — each recorded and paid as the provider billed it.
 * One sent whose response was never read (a timeout, a lost connection, a body that is no JSON: the
 * ModelCallError says `unread`; one cut at the run's timeout or by the caller's abort) is billed at the
 * loop's own estimate of its prompt — the one its brakes priced before sending it — marked `estimated`,
 * counted toward the budget at once: the provider may have answered and billed it. One that never reached
 * the provider (a connection refused, a custom fetch that threw before any response: not `unread`,
 * openaiChat.ts) is billed nothing, as the provider bills nothing. Each call is written as sent before it
 * is made (sendCall), so a run killed during it leaves that call on disk, read the same.
 * Apart from the run that makes them, as the things they need of that run (CallsRun).
 */
import type { Stop } from '../brakes/stopReasons.js';
import type { PromptView } from '../kernel/context.js';
import type { LoopSession } from '../loop/session.js';
import type { WindowRefusal } from '../loop/types.js';
import { recordedRefusal } from '../loop/refusalWords.js';
import type { CallRecord } from '../trace/types.js';
import { sentCall } from '../trace/liveRecording.js';
import { cutByDeadline, cutCallRecord } from './deadline.js';
import type { ResolvedAgentOptions } from './loop.js';
import { billed, failedOf, failedRecordOf } from './records.js';
import { pendingRetryWait } from './retryWait.js';
import { ModelCallError } from './types.js';

/** What a failed call needs of its run. */
export interface CallsRun {
  readonly session: LoopSession;
  readonly options: ResolvedAgentOptions;
  readonly recorder: { call(record: CallRecord): void; sent?(record: CallRecord): void };
  /** The call's time (the loop's lap: the mark moved). */
  lap(): number;
  aborted(): boolean;
}

/** How a failed call leaves the run: its stop, whether it is retried, its words; `waitMs`: the wait before its retry (counted as its time); `cutOff`: its deadline cut it. */
export interface FailedCall {
  stop?: Stop;
  retryable: boolean;
  message: string;
  waitMs?: number;
  cutOff: boolean;
}

/**
 * A failed call: recorded and paid for (the usage the provider returned, else nothing); one to be retried (`retries` so far) counts the wait before it as its time (retryWait.ts pendingRetryWait).
 * `cut`: its deadline fired (deadline.ts) — what it threw then, no provider's failure (a ModelCallError), is the cut: recorded so (cutCallRecord), never retried.
 */
export function failedCall(run: CallsRun, error: unknown, view: PromptView, { retries, cut }: { retries: number; cut: boolean }): FailedCall {
  const { session } = run;
  const aborted = run.aborted();
  const cutOff = cutByDeadline(cut, error, aborted);
  const record = cutOff ? cutCallRecord(run.lap()) : failedRecordOf(error, run.lap(), aborted);
  atEstimateIfUnread(record, error, cutOff || aborted, () => promptEstimateOf(run, view));
  const { status, message } = record.failed!;
  const retryable = error instanceof ModelCallError && error.options.retryable;
  const wait = aborted || cutOff ? null : pendingRetryWait(error, run.options.retry, retries);
  if (wait && 'waitMs' in wait) record.latencyMs! += wait.waitMs;
  const metered = session.meter(record, view);
  const after = session.recordResponse(record, metered, view);
  run.recorder.call(billed(record, metered.costPico));
  if (wait && 'thrown' in wait) throw wait.thrown;
  if (aborted) return { stop: session.aborted(), retryable: false, message, cutOff };
  const waitMs = wait && 'waitMs' in wait ? { waitMs: wait.waitMs } : {};
  return { ...(after ? { stop: after } : {}), retryable, message: status === undefined ? message : `${status} ${message}`, ...waitMs, cutOff };
}

/**
 * A failed call's `record` (of a model or summary call that threw `error`), billed at `promptTokens()` — the loop's
 * estimate of its prompt, the one its brakes priced — marked estimated, when it was sent and never read: with no
 * usage, the adapter says so (ModelCallError `unread`), or it was cut (`cutOrAborted`: its deadline, the caller's
 * abort) before it answered at all.
 */
export function atEstimateIfUnread(record: CallRecord, error: unknown, cutOrAborted: boolean, promptTokens: () => number): void {
  if (record.inputTokens !== undefined || !(error instanceof ModelCallError ? error.options.unread === true : cutOrAborted)) return;
  record.inputTokens = promptTokens();
  record.failed!.estimated = true;
}

/** The provider refused the call (a prompt past the model's window; `summary`: the summary call; both recorded as a compaction call when one, which the stop's detail names the summary call): recorded as failed, paid nothing, no step; the run ends (session.providerRefused). */
export function refusedCall(run: CallsRun, error: ModelCallError, refusal: WindowRefusal, view: PromptView, summary = false): Stop {
  const record: CallRecord = { type: 'call', outputTokens: 0, latencyMs: run.lap(), ...(summary || error.options.compaction ? { compaction: true } : {}), failed: { ...failedOf(error.options.status, error.message), contextLengthExceeded: recordedRefusal(refusal) } };
  run.recorder.call(record);
  return run.session.providerRefused(record, view, refusal);
}

/** The loop's estimate of the prompt it sends with `view`: the one its brakes before the call priced (LoopSession.boundPico). */
function promptEstimateOf(run: CallsRun, view: PromptView): number {
  return run.session.boundPico(view).promptEstimate;
}

/** Before a model call is made with `view`: written as sent (trace/liveRecording.ts sentCall, at the loop's prompt estimate), so a run killed during it keeps the call the provider may bill. */
export function sendCall(run: CallsRun, view: PromptView): void {
  run.recorder.sent?.(sentCall(promptEstimateOf(run, view)));
}

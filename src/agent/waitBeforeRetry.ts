/**
 * A failed call the loop will retry, and the wait before that retry (retryWait.ts): the wait is counted as
 * the failed call's time when it fails (so the brakes before the retry decide with it), but its record is
 * written only once the wait is over — waited whole, declined by the brakes (counted whole: the run stops
 * right after the failed call), or cut short by the caller's AbortSignal. Cut short, only the time actually
 * waited is the failed call's: its record and the run's time are taken back by the rest, so the recording
 * replays to the run's time and a what-if on it sees the run as it went (before, an abort 0.3 s into a 20 s
 * Retry-After counted all 20 s).
 */
import type { PromptView } from '../kernel/context.js';
import type { LoopSession } from '../loop/session.js';
import type { CallRecord } from '../trace/types.js';
import { failedCall, type CallsRun, type FailedCall } from './failedCalls.js';
import { checkedReading } from './valueCheck.js';
import type { Clock } from './types.js';

/** The wait before a retry, counted already as the failed call's time; `record`: that call's, not yet written. */
export interface PendingWait {
  waitMs: number;
  record: CallRecord | undefined;
}

/**
 * failedCall (failedCalls.ts), its record held when a wait before a retry follows (`pending`, written by
 * waitBeforeRetry or writeHeld), else written at once.
 */
export function failedCallAwaitingRetry(run: CallsRun, error: unknown, view: PromptView, at: { retries: number; cut: boolean }): { failed: FailedCall; pending?: PendingWait } {
  let held: CallRecord | undefined;
  let failed: FailedCall;
  try {
    failed = failedCall({ ...run, recorder: { call: (record) => (held = record) } }, error, view, at);
  } catch (thrown) {
    if (held !== undefined) run.recorder.call(held); // Recorded, then thrown (a back-off that is no wait): on disk as before.
    throw thrown;
  }
  if (failed.waitMs === undefined || failed.stop !== undefined) {
    if (held !== undefined) run.recorder.call(held);
    return { failed };
  }
  return { failed, pending: { waitMs: failed.waitMs, record: held } };
}

/** The held record of a wait that will not be waited (the brakes stopped the run before the retry, or it threw): written as counted; undefined (none held now). */
export function writeHeld(run: Pick<CallsRun, 'recorder'>, pending: PendingWait | undefined): undefined {
  if (pending?.record !== undefined) run.recorder.call(pending.record);
  return undefined;
}

/**
 * Waits `pending.waitMs` on the clock from `markMs` (the failed call's end), then writes its record: the mark
 * the next lap is read from — where the wait ended, never past `markMs + waitMs` (a clock that slept longer puts
 * the rest in the next lap; one that slept less cannot take back what was counted); `aborted` when the signal cut
 * it short: the part not waited taken back from the failed call's record and the session's time.
 */
export async function waitBeforeRetry(
  run: { clock: Clock; signal?: AbortSignal | undefined; session: LoopSession; recorder: CallsRun['recorder'] },
  pending: PendingWait,
  markMs: number,
): Promise<{ markMs: number; aborted: boolean }> {
  const { clock, signal } = run;
  let aborted = signal?.aborted === true;
  try {
    if (!aborted) await clock.sleep(pending.waitMs, signal);
  } catch (error) {
    if (signal?.aborted !== true) throw error;
    aborted = true;
  }
  const waitedMs = Math.min(checkedReading(clock.now(), markMs) - markMs, pending.waitMs);
  if (aborted) takeBack(run.session, pending, pending.waitMs - waitedMs);
  writeHeld(run, pending);
  return { markMs: markMs + waitedMs, aborted };
}

/** `ms` of a wait counted as the failed call's time but never waited: out of its record and the run's time. */
function takeBack(session: LoopSession, pending: PendingWait, ms: number): void {
  if (!(ms > 0)) return;
  if (pending.record?.latencyMs !== undefined) pending.record.latencyMs -= ms;
  session.state.elapsedMs -= ms;
}

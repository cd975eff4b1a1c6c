/**
 * What the real loop (agent/loop.ts drive) does after its model call threw: the model gave up (ModelExhausted)
 * or refused the prompt for its length — the run ends; else the failed call recorded and paid for
 * (failedCalls.ts, its record held while a wait before its retry follows: waitBeforeRetry.ts), then the run
 * stops (a brake, an abort, a failure that ends the run, one not retried or past the retries), or calls again:
 * after a cut at its deadline (deadline.ts: the brakes before the next call stop the run) or as a retry.
 */
import type { Stop } from '../brakes/stopReasons.js';
import type { PromptView } from '../kernel/context.js';
import { NOT_RETRIED } from '../kernel/cutWords.js';
import { refusedCall, type CallsRun } from './failedCalls.js';
import { checkFailure } from './turnCheck.js';
import { ModelCallError, ModelExhausted } from './types.js';
import { failedCallAwaitingRetry, type PendingWait } from './waitBeforeRetry.js';

/**
 * After a failed model call: `stop` when the run ends; else the next call is made — `cutOff` when its deadline cut
 * this one, `retries` the failed calls retried in a row so far. `pending`: the wait before a retry, counted as
 * the failed call's time, its record held (drive's pendingWait).
 */
export interface AfterFailure {
  stop?: Stop;
  cutOff?: true;
  retries: number;
  pending: PendingWait | undefined;
  /** The failure's words (its status first, when it has one), when it was recorded as a failed model call (not a refusal, not a cut). */
  failure?: string;
}

/** The model call the prompt `view` sized threw `error`, after `retries` failed calls retried in a row; `cut`: its deadline fired. */
export function afterModelCallFailed(run: CallsRun, error: unknown, view: PromptView, { retries, cut }: { retries: number; cut: boolean }): AfterFailure {
  const { session, options } = run;
  if (error instanceof ModelExhausted) return { stop: session.exhausted(error.reason, error.detail), retries, pending: undefined };
  if (error instanceof ModelCallError) checkFailure(error, options.model);
  if (error instanceof ModelCallError && error.options.refusal && !run.aborted()) return { stop: refusedCall(run, error, error.options.refusal, view), retries, pending: undefined };
  const { failed, pending } = failedCallAwaitingRetry(run, error, view, { retries, cut });
  // A call cut at its deadline is named so by the timeout's own detail (deadline.ts), one the caller's abort cut by the abort: no failure to tell.
  const failure = failed.cutOff || run.aborted() ? undefined : failed.message;
  if (failed.stop) return { stop: failed.stop, retries, pending, failure };
  if (failed.cutOff) return { cutOff: true, retries, pending };
  if (error instanceof ModelCallError && error.options.endsRun !== undefined) return { stop: session.exhausted('trace_end', error.options.endsRun), retries, pending, failure };
  const next = retries + 1;
  if (!failed.retryable || next > options.retry.maxRetries) {
    return { stop: session.modelGaveUp(`model call failed: ${failed.message}; ${failed.retryable ? `gave up after ${options.retry.maxRetries} retries` : 'not retried'}`), retries: next, pending, failure };
  }
  return { retries: next, pending, failure };
}

/** The stops whose detail names the failure they end on (a model that gave up, a recording's end) or that follow none. */
const TOLD_STOPS: ReadonlySet<Stop['reason']> = new Set(['completed', 'trace_end', 'provider_refused']);


/** The stop's detail already names the failed call the run stopped on (a timeout's "failed model call … was not retried"). */
function detailNamesFailure(stop: Stop): boolean {
  return TOLD_STOPS.has(stop.reason) || stop.detail.includes(NOT_RETRIED);
}

/**
 * The model calls that failed in a row at the run's end (each a step, as replay counts a recorded failed
 * call), and the last one's words: a brake that stops the run before their retry (`max_steps` after 3
 * connections refused) says only its own limit — "3 steps taken, limit 3" — so the run notes what the
 * calls met (AgentRunResult `notes`) — unless the detail names the failed call itself (a timeout's "failed
 * model call was not retried"). The stop's detail stays the brake's: a replay of the recording,
 * which counts the same failed calls, says the same (the parity the recording keeps).
 */
export class FailuresInRow {
  private count = 0;
  private last: string | undefined;

  /** A failed model call the run went on from or stopped at (`after`): counted when it was recorded as one, else (a cut) the row is over. */
  failed(after: AfterFailure): void {
    this.count = after.failure === undefined ? 0 : this.count + 1;
    this.last = after.failure;
  }

  /** The model answered: no failure ends the run's calls. */
  answered(): void {
    this.count = 0;
    this.last = undefined;
  }

  /** What the run notes of them when it stops for `stop` after `steps` steps; undefined when nothing needs saying. */
  note(stop: Stop, steps: number): string | undefined {
    if (this.last === undefined || detailNamesFailure(stop)) return undefined;
    const calls = this.count === 1 ? 'model call failed (counted as a step' : `${this.count} model calls failed (each counted as a step`;
    const every = this.count === steps ? `: every step the run took, no call answered` : '';
    return `the run's last ${calls}${every}) and the run stopped (${stop.reason}) before a retry; the last failure: ${this.last}`;
  }
}

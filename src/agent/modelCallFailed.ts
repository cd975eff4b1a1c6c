/**
 * What the real loop (agent/loop.ts drive) does after its model call threw: the model gave up (ModelExhausted)
 * or refused the prompt for its length — the run ends; else the failed call recorded and paid for
 * (failedCalls.ts, its record held while a wait before its retry follows: waitBeforeRetry.ts), then the run
 * stops (a brake, an abort, a failure that ends the run, one not retried or past the retries), or calls again:
 * after a cut at its deadline (deadline.ts: the brakes before the next call stop the run) or as a retry.
 */
import type { Stop } from '../brakes/stopReasons.js';
import type { PromptView } from '../kernel/context.js';
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
}

/** The model call the prompt `view` sized threw `error`, after `retries` failed calls retried in a row; `cut`: its deadline fired. */
export function afterModelCallFailed(run: CallsRun, error: unknown, view: PromptView, { retries, cut }: { retries: number; cut: boolean }): AfterFailure {
  const { session, options } = run;
  if (error instanceof ModelExhausted) return { stop: session.exhausted(error.reason, error.detail), retries, pending: undefined };
  if (error instanceof ModelCallError) checkFailure(error, options.model);
  if (error instanceof ModelCallError && error.options.refusal && !run.aborted()) return { stop: refusedCall(run, error, error.options.refusal, view), retries, pending: undefined };
  const { failed, pending } = failedCallAwaitingRetry(run, error, view, { retries, cut });
  if (failed.stop) return { stop: failed.stop, retries, pending };
  if (failed.cutOff) return { cutOff: true, retries, pending };
  if (error instanceof ModelCallError && error.options.endsRun !== undefined) return { stop: session.exhausted('trace_end', error.options.endsRun), retries, pending };
  const next = retries + 1;
  if (!failed.retryable || next > options.retry.maxRetries) {
    return { stop: session.modelGaveUp(`model call failed: ${failed.message}; ${failed.retryable ? `gave up after ${options.retry.maxRetries} retries` : 'not retried'}`), retries: next, pending };
  }
  return { retries: next, pending };
}

/**
 * The wait before a failed call's retry: the retry policy's back-off, or longer when the provider said how
 * long to wait (a 429's `Retry-After`, read by the adapter into ModelCallError `retryAfterMs`). The
 * provider's word lengthens the wait by at most MAX_RETRY_AFTER_MS; it never shortens the policy's own.
 */
import { ModelCallError, type RetryPolicy } from './types.js';
import { checkedBackoffMs } from './validate.js';

/**
 * The longest wait a provider's Retry-After asks that the loop honours: 60 s. Per-minute rate limits
 * (OpenAI's, Anthropic's) reset within it; a longer ask (a daily quota) is waited 60 s, and the retry
 * that fails again counts toward maxRetries, so the run gives up in minutes, not hours.
 */
export const MAX_RETRY_AFTER_MS = 60_000;

/** Milliseconds to wait before a retry: the longer of the policy's back-off and the provider's ask (capped); a missing or nonsense ask is ignored. */
export function retryWaitMs(backoffMs: number, retryAfterMs: number | undefined): number {
  if (retryAfterMs === undefined || !(retryAfterMs > 0)) return backoffMs;
  return Math.max(backoffMs, Math.min(retryAfterMs, MAX_RETRY_AFTER_MS));
}

/**
 * The wait before the retry of a failed call, known before it is waited (the loop counts it as the failed
 * call's time, so the brakes before the retry decide with it: a wait that would pass the timeout is never
 * waited): null when the call will not be retried (`error` no retryable ModelCallError, one that ends the run,
 * or its `retries` so far spent); `thrown` when the policy's back-off is no wait (validate.ts checkedBackoffMs),
 * thrown once the failed call is recorded.
 */
export function pendingRetryWait(error: unknown, retry: RetryPolicy, retries: number): { waitMs: number } | { thrown: unknown } | null {
  if (!(error instanceof ModelCallError) || !error.options.retryable || error.options.endsRun !== undefined || retries + 1 > retry.maxRetries) return null;
  try {
    return { waitMs: retryWaitMs(checkedBackoffMs(retry, retries + 1), error.options.retryAfterMs) };
  } catch (thrown) {
    return { thrown };
  }
}

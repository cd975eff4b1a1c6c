/**
 * What reassembling one streamed response gives: the response body the same call would have returned
 * unstreamed (so that one parser per API reads both), or an error body when the stream failed or was cut
 * off, plus the timings the stream recorded.
 *
 * Three endings, one rule for every API:
 *   - finished with usage → the reassembled body;
 *   - finished without usage (e.g. Chat Completions without `stream_options.include_usage`) → a UserError:
 *     the call happened but its tokens were not recorded, and guessing them would misstate the cost;
 *   - cut off before its end (a cancelled stream, a dropped connection) → a failed call (`{error}` body),
 *     like any other call that did not complete; partial usage, if any, is not used.
 */
import type { Reader } from '../bodyReader.js';

export interface Assembled {
  /** The equivalent unstreamed response body, or `{error: {message}}`. */
  body: unknown;
  latencyMs?: number;
  /** Time to the first token, when the stream recorded it. */
  firstTokenMs?: number;
  notes: string[];
}

/** The failed-call body of a stream that ended before its terminal event. */
export function cutOff(events: number, missing: string): Assembled {
  return {
    body: { error: { message: `the stream ended after ${events} event(s) without ${missing} (cancelled or cut off): usage unknown` } },
    notes: [],
  };
}

/** The failed-call body of a stream that carried an error event. */
export function streamError(error: unknown): Assembled {
  const message =
    typeof error === 'object' && error !== null && typeof (error as Record<string, unknown>).message === 'string'
      ? ((error as Record<string, unknown>).message as string)
      : typeof error === 'string'
        ? error
        : JSON.stringify(error);
  const fields = typeof error === 'object' && error !== null && !Array.isArray(error) ? error : {};
  return { body: { error: { ...fields, message: `error in the stream: ${message}` } }, notes: [] };
}

/** The UserError of a stream that finished without a usage record. */
export function finishedWithoutUsage(r: Reader, field: string, hint: string): never {
  return r.fail(field, 'missing_field', 'the streamed response finished without a usage record, so its tokens are unknown', hint);
}

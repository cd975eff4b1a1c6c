/**
 * The request header by which a loop tells `loopcost serve` what a request is for. A real provider
 * ignores it. `summary`: the context strategy's summary call — answered as a compaction call of the
 * request's output cap in tokens (paid, not a step), never with the recording's or the agent's next answer.
 */
import { invalidRequest } from './apiError.js';
import { header, type RequestHeaders } from './headers.js';
import { outputCapOf } from './outputCap.js';
import type { ChatRequest } from './request.js';

export const PURPOSE_HEADER = 'x-loopcost-purpose';

/** The purposes the header takes. */
export const PURPOSES = ['summary'] as const;
export type Purpose = (typeof PURPOSES)[number];

/**
 * What `request` is for (its PURPOSE_HEADER; undefined: an ordinary call), or a 400 naming the header: a
 * value it does not take (`bogus` answered as an ordinary call would bill the wrong call), or a summary call
 * that sends no output cap (it is answered as a compaction of the cap in tokens: without one, nothing).
 */
export function purposeOf(headers: RequestHeaders, request: ChatRequest): Purpose | undefined {
  const purpose = header(headers, PURPOSE_HEADER);
  if (purpose === undefined) return undefined;
  if (!(PURPOSES as readonly string[]).includes(purpose)) {
    throw invalidRequest(`${PURPOSE_HEADER}: '${purpose}' is not a purpose loopcost serve knows (it takes ${PURPOSES.join(', ')}: a context-summary call); leave the header out for an ordinary call`, PURPOSE_HEADER, 'invalid_purpose');
  }
  if (outputCapOf(request) === undefined) {
    throw invalidRequest(`${PURPOSE_HEADER}: summary: the request sends no max_completion_tokens (or max_tokens): a summary call is answered as a compaction of its output cap in tokens, so send the summary's size as the cap`, 'max_completion_tokens', 'missing_output_cap');
  }
  return purpose as Purpose;
}

/**
 * How a mini-swe-agent run ended: `info.exit_status` → outcome, and the API call that failed and ended
 * the run (counted in `api_calls`, but without an assistant message) → a failed call record.
 */
import type { CallRecord, RecordedOutcome } from '../../trace/types.js';
import { isJsonObject, type JsonObject } from '../common/jsonValue.js';
import { shortText } from '../common/text.js';
import { refusalInText, refusedCall } from '../common/contextRefusal.js';

/** Statuses mini-swe-agent writes to `info.exit_status` (exception class names) → outcome. */
export function miniSweAgentOutcome(status: string | undefined): RecordedOutcome {
  if (status === undefined) return 'unknown';
  if (status === 'Submitted') return 'completed';
  if (/timeout/i.test(status)) return 'timeout';
  if (/^LimitsExceeded$|limit/i.test(status)) return 'limit';
  return 'error';
}

/** LiteLLM exception class → the HTTP status LiteLLM attaches to it. */
const LITELLM_STATUS: Record<string, number> = {
  BadRequestError: 400,
  AuthenticationError: 401,
  PermissionDeniedError: 403,
  NotFoundError: 404,
  Timeout: 408,
  UnprocessableEntityError: 422,
  RateLimitError: 429,
  ContextWindowExceededError: 400,
  InternalServerError: 500,
  APIConnectionError: 500,
  APIError: 500,
  BadGatewayError: 502,
  ServiceUnavailableError: 503,
};

/** First line of the exception the `exit` message reports, if any. */
function exitFailureText(exit: JsonObject): string | undefined {
  const extra = isJsonObject(exit.extra) ? exit.extra : {};
  const text =
    typeof extra.exception_str === 'string' ? extra.exception_str : typeof exit.content === 'string' ? exit.content : undefined;
  if (text === undefined || text.trim() === '') return undefined;
  return text.split(/\r?\n/)[0]!.trim();
}

/**
 * The first line of the exception that ended the run in its last API call, which mini-swe-agent counts in
 * `api_calls` but never answered with an assistant message: any exit but `Submitted` whose `exit` message
 * names an exception. Undefined when the run did not end that way.
 */
export function lastCallFailure(exitStatus: string | undefined, exit: JsonObject | undefined): string | undefined {
  if (exitStatus === undefined || exitStatus === 'Submitted' || exit === undefined) return undefined;
  return exitFailureText(exit);
}

/**
 * The failed API call: zero usage and cost, the LiteLLM status, and the wait the exception reports; a
 * provider's refusal for length (LiteLLM's ContextWindowExceededError, OpenAI's or Anthropic's words) is
 * recorded as one (no usage, the numbers the text gives).
 */
export function failedCallRecord(failureText: string): CallRecord {
  const record: CallRecord = {
    type: 'call',
    inputTokens: 0,
    outputTokens: 0,
    recordedCostUsd: 0,
    failed: { message: shortText(failureText) },
  };
  const litellmClass = /litellm\.(\w+)/.exec(failureText)?.[1];
  const status = litellmClass !== undefined ? LITELLM_STATUS[litellmClass] : undefined;
  if (status !== undefined) record.failed!.status = status;
  const waited = /after ([\d.]+) seconds/.exec(failureText);
  if (waited) record.latencyMs = Math.round(Number(waited[1]) * 1000);
  const refusal = refusalInText(failureText);
  return refusal === undefined ? record : refusedCall(record, refusal);
}

/**
 * Errors `loopcost serve` answers with, in the shape OpenAI's API uses (`{error: {message, type, param,
 * code}}`), so any Chat Completions client reports them as it reports a provider's.
 */
import type { UserError } from '../errors.js';
import { counted } from '../plural.js';

export interface ApiErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null; loopcost?: Record<string, unknown> };
  /** Set on recorded provider failures: the call as billed (see README, `loopcost serve`). */
  loopcost?: unknown;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type: string,
    readonly param: string | null = null,
    readonly code: string | null = null,
    readonly extra?: unknown,
    /** Facts a client reads without parsing the message, inside `error` (OpenAI's SDKs keep only that object). */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }

  body(): ApiErrorBody {
    const body: ApiErrorBody = { error: { message: this.message, type: this.type, param: this.param, code: this.code, ...(this.details ? { loopcost: this.details } : {}) } };
    if (this.extra !== undefined) body.loopcost = this.extra;
    return body;
  }
}

/** The code of a call recorded as failed at the provider, answered with its recorded status. */
export const RECORDED_FAILURE = 'loopcost_recorded_failure';

/**
 * Whether a client should retry `error`: only a recorded provider failure the recorded run went on from
 * (the next call of the trace is what the retry got), not the one where its model gave up (`gaveUp` in
 * `error.loopcost`: recorded.ts) nor any error of serve's own.
 */
export function worthRetrying(error: ApiError): boolean {
  return error.code === RECORDED_FAILURE && error.details?.['gaveUp'] !== true;
}

/** A request the server cannot take (bad JSON, a missing or wrong field): 400. */
export function invalidRequest(message: string, param: string | null = null, code: string | null = null): ApiError {
  return new ApiError(400, message, 'invalid_request_error', param, code);
}

/**
 * A problem with what the server answers from, met while answering (a scenario's draw past the largest
 * count): 422 with the words the CLI would print (file, field, run), the issues in `error.loopcost`. Not
 * the request's fault and not a bug either: another run or session is answered as usual.
 */
export function unanswerable(error: UserError): ApiError {
  const code = error.issues[0]?.code ?? null;
  return new ApiError(422, error.message, 'invalid_request_error', null, code, undefined, { issues: error.issues });
}

/** A new session past `maxSessions` in progress: 503, what ends one and what to do said. */
export function tooManySessions(max: number): ApiError {
  return new ApiError(
    503,
    `loopcost serve has ${counted(max, 'session')} in progress, its --max-sessions: a session ends after its recording's last call (a final answer or a failed call; else at the next request past it, or when a new session needs its place) or its synthetic agent's final answer; a run stopped before that (by its own brakes) keeps its session in progress until its client ends it (POST /loopcost/sessions/<id>/end) or it has been idle --session-idle-seconds; end finished runs' sessions, set --session-idle-seconds, or raise --max-sessions (GET /loopcost/sessions has the totals so far)`,
    'server_error',
    null,
    'loopcost_too_many_sessions',
  );
}

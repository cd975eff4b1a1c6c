/**
 * A session its header names is one run. Once that run has ended with its source (a recording's last
 * call, a synthetic agent's final answer), a second run sent under the same header (a script run twice, a
 * test that hard-codes its session id) would be answered with the first run's end: a recording that
 * completed would tell the real loop's adapter `completed`, its agent having called no model. So an ended
 * session refuses a request that opens a conversation anew — no assistant or tool message — when its last
 * answer was one a run sends back (it opened a step, or was the final answer: trace/toolsRun.ts runsTools),
 * since the same run going on would send that answer with its next request: a 409
 * (`loopcost_session_reused`) naming the session and what to do, which the real loop's adapter ends the
 * run with (`trace_end`, the message as its detail), as it ends one whose session its client ended.
 *
 * Still answered with the session's end: the request a run sends after a recording's last call, the retry of a
 * failed last call (no one sends a failed call back), a request after a backtrack or a summary. A session
 * still in progress is not refused: a client that sends the same opening again (curl) gets the next call,
 * so a run stopped by its own brakes is continued by the next run under its header unless its client ended
 * it (POST /loopcost/sessions/<id>/end: a 409 `loopcost_session_ended` then).
 */
import { ApiError } from './apiError.js';
import type { ChatRequest } from './request.js';
import type { SessionSummary } from './sessionSummary.js';
import { counted } from '../plural.js';

/**
 * `session`, ended with its source, when `request` may be its run's; another run's first request is refused
 * (the 409 sessionReused builds). `sentBack`: its last answer is one its run sends back (runsTools).
 */
export function sameRun<T extends { summary(): SessionSummary }>(session: T, sentBack: boolean, request: ChatRequest): T {
  if (sentBack && !request.messages.some(sentByModel)) throw sessionReused(session.summary());
  return session;
}

/** A message a run sends back from its model's answers (or their tools' results). */
const sentByModel = (message: ChatRequest['messages'][number]): boolean => message.role === 'assistant' || message.role === 'tool' || message.role === 'function';

/** The 409 another run's first request to an ended session is answered with. */
function sessionReused({ id, calls, source }: SessionSummary): ApiError {
  const message = `session ${id} has ended: its run (${source}) ended after ${counted(calls, 'call')}, and this request sends back none of its answers (no assistant or tool message), so it is not that run's next request but another run's first; one session is one run: name a new session for each run (another x-loopcost-session header), or restart loopcost serve`;
  return new ApiError(409, message, 'invalid_request_error', null, 'loopcost_session_reused', undefined, { calls });
}

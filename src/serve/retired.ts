/**
 * A session that has ended, kept as what `GET /loopcost/sessions` reports of it — its totals, exact, frozen
 * at its end — and how it ended, from which the error it answers every later request with is built when
 * asked (Ending): the 409 past a recording's end or a synthetic agent's, or the error that broke
 * its run (a draw too large); for a session retired while in progress (a run its own brakes stopped), by
 * its client's end request or after its idle time, a 409 that says which (`loopcost_session_ended`,
 * `loopcost_session_idle`). A summary call is refused the same way: an ended session takes no more calls.
 * Its engine (the LoopSession, the synthetic agent, the messages it last saw) and its matching state
 * (conversations.ts retire) are dropped, so a long-lived server holds a few numbers per ended session
 * instead of the whole session (README, serve): no built error either, only a reference to what builds it.
 */
import { ApiError } from './apiError.js';
import type { Reply } from './reply.js';
import type { ChatRequest } from './request.js';
import type { HeldSession, ServeSession } from './session.js';
import type { SessionSummary } from './sessionSummary.js';
import { counted } from '../plural.js';
import { sameRun } from './newRun.js';

/**
 * How a session ended, as its retired form keeps it (RetiredSession): `build`, one function for every session
 * of a kind, makes the error every later request is answered with from the session's totals and `from`
 * (a reference to what the server keeps anyway, such as the trace, or the error that broke the run), so
 * an ended session holds no built error.
 */
export interface Ending<T = unknown> {
  build(totals: SessionSummary, from: T): Error;
  readonly from: T;
}

/** Why a session still in progress was retired: its client ended it, or no request came for `idleSeconds`. */
export type Retirement = { by: 'client' } | { by: 'idle'; idleSeconds: number };

/** A session in progress its client ended (one object for all: a retired session keeps a reference to it). */
export const BY_CLIENT: Retirement = { by: 'client' };

export class RetiredSession implements HeldSession {
  private readonly totals: Readonly<SessionSummary>;
  /** How it ended (Ending's two fields, kept as they are: no object of their own). */
  private readonly build: Ending['build'];
  private readonly from: unknown;
  /** Ended with its source, its last answer one its run sends back: a request without it is another run's (newRun.ts). */
  private readonly refusesNewRun: boolean;

  /** `session` ended (its trace or agent has no more), or, with `early`, retired while in progress. */
  constructor(session: ServeSession, early?: Retirement) {
    const summary = session.summary();
    // Always a copy: the object a session's summary() builds (a spread, then a field) keeps spare property
    // slots, about half a kilobyte, that a copy made in one spread does not (bench/serve-sessions-memory.mjs).
    this.totals = Object.freeze(early ? { ...summary, ended: true, endedBy: early.by } : { ...summary });
    const ending: Ending = early ? { build: retiredEarly, from: early } : session.ending();
    this.build = ending.build;
    this.from = ending.from;
    this.refusesNewRun = !early && session.lastAnswerSentBack;
  }

  get id(): string {
    return this.totals.id;
  }

  get calls(): number {
    return this.totals.calls;
  }

  ended(): boolean {
    return true;
  }

  answer(_request: ChatRequest): Reply {
    throw this.error();
  }

  summaryAnswer(_request: ChatRequest): Reply {
    throw this.error();
  }

  summary(): SessionSummary {
    return this.totals;
  }

  sameRun(request: ChatRequest): HeldSession {
    return sameRun(this, this.refusesNewRun, request);
  }

  /** The error every later request is answered with, built from the totals and how the session ended. */
  private error(): Error {
    return this.build(this.totals, this.from);
  }
}

/** The 409 a session retired in progress answers every later request with, naming how it was retired. */
function retiredEarly(summary: SessionSummary, early: Retirement): ApiError {
  const { id, calls } = summary;
  const how =
    early.by === 'client'
      ? `was ended by its client (POST /loopcost/sessions/${encodeURIComponent(id)}/end)`
      : `was retired after ${counted(early.idleSeconds, 'second')} without a request (--session-idle-seconds ${early.idleSeconds})`;
  const code = early.by === 'client' ? 'loopcost_session_ended' : 'loopcost_session_idle';
  const details = { endedBy: early.by, calls, ...(early.by === 'idle' ? { idleSeconds: early.idleSeconds } : {}) };
  const message = `session ${id} ${how} after ${counted(calls, 'call')}, its totals kept; start a new session (another x-loopcost-session header, or a new conversation)`;
  return new ApiError(409, message, 'invalid_request_error', null, code, undefined, details);
}

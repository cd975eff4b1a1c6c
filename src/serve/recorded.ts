/**
 * A conversation answered from a recorded trace, call by call, whatever the agent sent (open loop, as
 * replay replays it). The prompt each call is billed for is what replay bills: the recorded usage, or
 * for a trace without recorded prompts (a generated one) the growth model's prompt, so a real loop
 * driven by this server and `replay` of the trace meter the same calls the same way. Its calls are the ones
 * every replay plays (trace/replayedCalls.ts): no `final` mark on a last call its run was aborted after.
 */
import type { CallRecord, Trace } from '../trace/types.js';
import { replayedCalls } from '../trace/replayedCalls.js';
import { ApiError, RECORDED_FAILURE } from './apiError.js';
import { endsAfterLastCall, modelGaveUp } from '../kernel/gaveUp.js';
import { callsLeft, endsAtSummary } from '../kernel/summaryBeforeCall.js';
import { reasoningReentersOf } from '../kernel/stepTokens.js';
import type { Reply } from './reply.js';
import { ServeSession, type SessionSetup } from './session.js';
import type { SessionSummary } from './sessionSummary.js';
import type { Ending } from './retired.js';
import { outputCapOf } from './outputCap.js';
import type { ChatRequest } from './request.js';
import { counted } from '../plural.js';

export class RecordedSession extends ServeSession {
  readonly kind = 'recorded' as const;
  private nextCall = 0;
  /**
   * The last call answered was neither a final answer nor a failed call, and no request has come since: the
   * session stays in progress (given whole) until the next request, the 409 past the end, a summary call's too
   * (a loop summarises only before a call it makes, and the recording made none after its last:
   * kernel/summaryBeforeCall.ts, as replay ends the run there) — unless the recorded run asked for no call
   * after its last one (its model gave up, or it was aborted: kernel/gaveUp.ts endsAfterLastCall).
   */
  private mayGoOn = false;
  /** The recorded run may have asked for a call after its last one (!endsAfterLastCall): a summary call may come there. */
  private readonly goesOnAfterLast: boolean;
  /** The index of the recording's last call when its model gave up there (kernel/gaveUp.ts), else -1. */
  private readonly gaveUpAt: number;
  /** The recording's calls as replays play them (replayedCalls): a recording written before 2026-12-05 may mark `final` a call its run was aborted after, which completed nothing. */
  private readonly recordedCalls: readonly CallRecord[];

  constructor(
    setup: SessionSetup,
    private readonly trace: Trace,
  ) {
    super(setup, reasoningReentersOf(trace));
    this.recordedCalls = replayedCalls(trace);
    this.gaveUpAt = modelGaveUp(trace) ? this.recordedCalls.length - 1 : -1;
    this.goesOnAfterLast = !endsAfterLastCall(trace);
  }

  /** After the recording's last call, once it was a final answer or a failed call, or its run asked for no more (an abort), or a request asked past it or a summary call came after it. */
  ended(): boolean {
    return endsAtSummary(this.callsLeft()) && !this.mayGoOn;
  }

  /** The recording's calls not yet given (kernel/summaryBeforeCall.ts callsLeft: a refused one among them). */
  private callsLeft(): number {
    return callsLeft(this.recordedCalls.length, this.nextCall);
  }

  /** The recording's last call answered, and the session still in progress only for the summary call a loop may make before its next call (mayGoOn). */
  override givenWhole(): boolean {
    return endsAtSummary(this.callsLeft()) && this.mayGoOn;
  }

  /** Ends a session given whole as the request past its end would (registry.ts: its place is wanted). */
  override endGivenWhole(): void {
    if (this.givenWhole()) this.mayGoOn = false;
  }

  /** A summary call; past the recording's last call, a request past its end: the 409, which ends the session (no summary call billed). */
  override summaryAnswer(request: ChatRequest): Reply {
    if (!this.givenWhole()) return super.summaryAnswer(request);
    this.endGivenWhole();
    throw this.endingError();
  }

  protected nextAnswer(request: ChatRequest): Reply {
    const record = this.recordedCalls[this.nextCall];
    this.mayGoOn = false;
    if (!record) throw this.endingError();
    const index = this.nextCall++;
    try {
      const reply = this.respond(record, this.promptOf(request), { what: 'recorded', outputCap: outputCapOf(request) });
      this.mayGoOn = reply.record.final !== true && this.goesOnAfterLast;
      return reply;
    } catch (error) {
      throw index === this.gaveUpAt ? this.gaveUpHere(error) : error;
    }
  }

  /**
   * The recorded failure where the recording's model gave up (kernel/gaveUp.ts), marked so: not worth a
   * retry (server.ts: `x-should-retry: false`), and `gaveUp` with the recording's end in `error.loopcost`,
   * which the real loop's adapter ends the run with (trace_end, the recorded end as detail), as replay does.
   */
  private gaveUpHere(error: unknown): unknown {
    if (!(error instanceof ApiError) || error.code !== RECORDED_FAILURE) return error;
    const details = { ...error.details, gaveUp: true, ...recordedEnd(this.trace) };
    return new ApiError(error.status, error.message, error.type, error.param, error.code, error.extra, details);
  }

  /** Asked past the last call: the 409 traceEnded builds from the trace (which the server keeps anyway). */
  ending(): Ending<Trace> {
    return { build: traceEnded, from: this.trace };
  }

  override summary(): SessionSummary {
    return { ...super.summary(), remainingCalls: this.callsLeft() };
  }
}

/** The recording's end as `error.loopcost` says it (the adapter's recordedEnd reads it). */
function recordedEnd({ end }: Trace): { recordedOutcome: string; recordedStatus?: string } {
  return { recordedOutcome: end.outcome, ...(end.status === undefined ? {} : { recordedStatus: end.status }) };
}

/** Asked past the last call of `trace`: a 409 with the recording's outcome, which the real loop's adapter ends the run with. */
function traceEnded({ id }: SessionSummary, trace: Trace): ApiError {
  const n = trace.calls.length;
  return new ApiError(
    409,
    `session ${id}: the trace ${trace.source} has no call ${n + 1} (it recorded ${counted(n, 'call')} and ended '${trace.end.outcome}'); start a new session (another x-loopcost-session header, or a new conversation)`,
    'invalid_request_error',
    null,
    'loopcost_trace_ended',
    undefined,
    { ...recordedEnd(trace), recordedCalls: n },
  );
}

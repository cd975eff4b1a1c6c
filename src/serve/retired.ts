/**
 * A session that has ended, kept as what `GET /loopcost/sessions` reports of it — its totals, exact, frozen
 * at its end — and the error it answers every later request with: the 409 past a recording's end or a
 * synthetic agent's, or the error that broke its run (a draw too large). A summary call is refused the
 * same way: an ended session takes no more calls. Its engine (the LoopSession, the synthetic agent, the
 * messages it last saw) and its matching state (conversations.ts retire) are dropped, so a long-lived
 * server holds a few numbers per ended session instead of the whole session (README, serve).
 */
import type { Reply } from './reply.js';
import type { ChatRequest } from './request.js';
import type { HeldSession, ServeSession, SessionSummary } from './session.js';

export class RetiredSession implements HeldSession {
  private readonly totals: Readonly<SessionSummary>;
  private readonly error: Error;

  constructor(session: ServeSession) {
    this.totals = Object.freeze(session.summary());
    this.error = session.endingError();
    // V8 keeps an error's stack frames, with their receivers (this session), until the stack is read:
    // read and drop it (it is an answer to send, not a bug to trace), so the error holds its text alone.
    void this.error.stack;
    this.error.stack = '';
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
    throw this.error;
  }

  summaryAnswer(_request: ChatRequest): Reply {
    throw this.error;
  }

  summary(): SessionSummary {
    return this.totals;
  }
}

/**
 * The simulator's driver: a synchronous loop over an injected step source, driving a LoopSession (the
 * context, brakes and meter a real loop drives too). Time is virtual: it advances by the latencies the
 * responses carry (recorded or modelled), never by a wall clock.
 */
import { Interner } from '../brakes/fingerprint.js';
import type { Stop } from '../brakes/stopReasons.js';
import { LoopSession, SKIPPED } from './session.js';
import type { LoopOptions, RunOutcome, StepSource } from './types.js';
import type { CallRecord, ToolCallRecord } from '../trace/types.js';
import type { PromptView } from '../kernel/context.js';

type Metered = ReturnType<LoopSession['meter']>;

const NO_TOOL_CALLS: readonly ToolCallRecord[] = [];

export function runLoop(source: StepSource, options: LoopOptions, interner = new Interner()): RunOutcome {
  const session = new LoopSession(options, interner);
  return session.finish(drive(source, session));
}

function drive(source: StepSource, session: LoopSession): Stop {
  for (;;) {
    session.summarizeIfDue();
    const view = session.prompt();
    // The source is asked first (a synthetic policy draws its answer from the state before the call);
    // the brakes decide on what a live loop knows before the call, never on the answer.
    const response = source.next(view, session.state);
    const before = session.checkBeforeCall(view);
    if (before) return before;
    if (!response) return session.exhausted(source.exhaustedReason());
    const ended = playCall(session, response, session.meter(response, view), view);
    if (ended) return ended;
  }
}

/**
 * A recorded or drawn response after the before-call brakes let it through: pay for it, run its tool
 * calls past the tool brakes, end the step. Null when the loop goes on. Every synchronous driver (this
 * loop, the session-tree replay) plays a call through here.
 */
export function playCall(session: LoopSession, response: CallRecord, metered: Metered, view: PromptView): Stop | null {
  const after = session.recordResponse(response, metered, view);
  if (after) return after;
  if (!session.runsTools(response)) return null;
  // An indexed loop: a start runs this cold, and for…of costs an iterator and a result object per call.
  const tools = response.toolCalls ?? NO_TOOL_CALLS;
  for (let i = 0; i < tools.length; i++) {
    const tool = tools[i]!;
    const refused = session.checkTool(tool);
    if (refused === SKIPPED) continue;
    if (refused) return refused;
    const failed = session.recordToolResult(tool);
    if (failed) return failed;
  }
  return session.endStep(response);
}

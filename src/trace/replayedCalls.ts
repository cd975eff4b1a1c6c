/**
 * A recording's calls as every replay plays them (the readable ReplaySource, the session-tree replay,
 * the compiled replay: fast/compile.ts), one rule for all of them. Pure: no node:*.
 *
 * A run its AbortSignal stopped after the tool calls of its last call (kernel/gaveUp.ts runAborted) ended
 * before that step did, so a `final` mark on that call completed nothing: the real loop leaves the mark
 * out there (agent/loop.ts runTools), but recordings written before 2026-12-05 carry it. Read as it
 * stands, the mark would complete the run (LoopSession.endStep) that the recording says was aborted; so
 * no replay reads it. (A mark on a call the run stopped inside, some of its tool calls `unreached`,
 * completes nothing either: trace/rules.ts cutShort, read where the step ends.)
 */
import { runAborted } from '../kernel/gaveUp.js';
import type { CallRecord, Trace } from './types.js';

type Recording = Pick<Trace, 'header' | 'calls' | 'end'>;

/** Whether `trace`'s last call is marked `final` though its run was aborted after it (a recording written before 2026-12-05). */
export function finalBeforeAbort(trace: Recording): boolean {
  return trace.calls[trace.calls.length - 1]?.final === true && runAborted(trace);
}

/** `trace`'s calls as replays play them: its own, or (finalBeforeAbort) a copy whose last call has no `final` mark. */
export function replayedCalls(trace: Recording): readonly CallRecord[] {
  if (!finalBeforeAbort(trace)) return trace.calls;
  const { final: _completedNothing, ...last } = trace.calls[trace.calls.length - 1]!;
  return [...trace.calls.slice(0, -1), last];
}

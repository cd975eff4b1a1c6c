/**
 * A recording's calls as every replay plays them (the readable ReplaySource, the session-tree replay,
 * the compiled replay: fast/compile.ts), one rule for all of them. Pure: no node:*.
 *
 * A run its AbortSignal stopped after the tool calls of its last call (kernel/gaveUp.ts runAborted) ended
 * before that step did, so a `final` mark on that call completed nothing: the real loop leaves the mark
 * out there (agent/stepTools.ts runAll), but recordings written before 2026-12-05 carry it. Read as it
 * stands, the mark would complete the run (LoopSession.endStep) that the recording says was aborted; so
 * no replay reads it. (A mark on a call the run stopped inside, some of its tool calls `unreached`,
 * completes nothing either: trace/rules.ts cutShort, read where the step ends.)
 */
import { runAborted } from '../kernel/gaveUp.js';
import type { CallRecord, Trace } from './types.js';

type Recording = Pick<Trace, 'header' | 'calls' | 'end'>;

/**
 * Whether `trace`'s last call is marked `final` though its end record says the run failed (`error`) or
 * timed out (`timeout`), or was aborted after it (a recording written before 2026-12-05): the end's word wins, so a replay never
 * counts completed a run its recording says did not — the mark completes nothing. (`limit`: a brake may
 * stop a final response's tool calls, and replayed under it stops there still, under looser brakes the
 * answer completes; `unknown` says nothing against the mark. An answer with no tool calls completes
 * without its mark: against such an end the native reader refuses it, trace/callOrder.ts answerAgainstEnd.)
 */
export function finalAgainstEnd(trace: Recording): boolean {
  if (trace.calls[trace.calls.length - 1]?.final !== true) return false;
  return trace.end.outcome === 'error' || trace.end.outcome === 'timeout' || runAborted(trace);
}

/** `trace`'s calls as replays play them: its own, or (finalAgainstEnd) a copy whose last call has no `final` mark. */
export function replayedCalls(trace: Recording): readonly CallRecord[] {
  if (!finalAgainstEnd(trace)) return trace.calls;
  const { final: _completedNothing, ...last } = trace.calls[trace.calls.length - 1]!;
  return [...trace.calls.slice(0, -1), last];
}

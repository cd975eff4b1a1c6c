/**
 * A run whose model gave up, written once for every replay of a recording (the readable ReplaySource
 * through run.ts's beforeCall, the compiled replay through CompiledTrace.gaveUp).
 *
 * The real loop (src/agent/loop.ts) ends a run in trace_end when a model call failed and it will not be
 * retried (an error not retried, its retries spent, a failed summary call): it asks for no further call,
 * so it makes no summary call and checks no brake after that failure — a brake stops a call, and none
 * was coming. Every other end of a recording comes where the loop asked for a call: after the brakes
 * before it (a brake's stop, a model that had no more answers, a provider's refusal). So a replay of a
 * recording whose model gave up ends at its last call, before the brakes of a call that never came.
 */
import type { Trace } from '../trace/types.js';

/**
 * Whether `trace` is the recording of a run whose model gave up after its last call: a recording the real
 * loop wrote (header `live`) that ended in an error (its end record's outcome for trace_end: a brake's stop
 * is `limit`, an abort or a cut-off recording `unknown`) right after a failed call that is no refusal of
 * its prompt (that one ends the run provider_refused).
 */
export function modelGaveUp(trace: Pick<Trace, 'header' | 'calls' | 'end'>): boolean {
  if (trace.header.live !== true || trace.end.outcome !== 'error') return false;
  const failed = trace.calls[trace.calls.length - 1]?.failed;
  return failed !== undefined && failed.contextLengthExceeded === undefined;
}

/**
 * Whether the run ends before the call it would make next, `call` of a recording of `calls` (`gaveUp`:
 * modelGaveUp of it): only after its last call, when its model gave up there — then no summary call is
 * made and no brake is checked before the end; otherwise the brakes come first, then the recording's end.
 */
export function endsBeforeNextCall(call: number, calls: number, gaveUp: boolean): boolean {
  return gaveUp && call >= calls;
}

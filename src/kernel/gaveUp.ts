/**
 * A run that asked for no call after its last one — its model gave up, or its AbortSignal fired — written
 * once for every replay of a recording (the readable ReplaySource and the session-tree replay through
 * run.ts's beforeCall, the compiled replay through CompiledTrace.endsAfterLastCall).
 *
 * The real loop (src/agent/loop.ts) ends a run in trace_end when a model call failed and it will not be
 * retried (an error not retried, its retries spent, a failed summary call): it asks for no further call,
 * so it makes no summary call and checks no brake after that failure — a brake stops a call, and none
 * was coming. It checks its AbortSignal before anything else before a call (and between tool calls, and
 * after a call's tools, and when a call or a wait between retries is cut short): once it fired, the run
 * ends there, aborted, no brake checked either. Every other end of a recording comes where the loop
 * asked for a call: after the brakes before it (a brake's stop, a model that had no more answers, a
 * provider's refusal). So a replay of a recording whose model gave up, or whose run was aborted, ends at
 * its last call, before the brakes of a call that never came. A live recording cut off (its process
 * killed before the end record) says nothing of what came next: its replay meets the brakes first.
 * (Of a run aborted between the tool calls of its last call, the ones never reached are recorded
 * `unreached`, and no replay plays them: loop/run.ts playCall, fast/compile.ts.)
 */
import { Fact, describeStop } from './describe.js';
import { countsAsStep } from './brakes.js';
import { Limit } from './limits.js';
import { StopCode } from './stopCodes.js';
import type { Trace } from '../trace/types.js';

type Recording = Pick<Trace, 'header' | 'calls' | 'end'>;

/**
 * Whether `trace` is the recording of a run whose model gave up after its last call: a recording the real
 * loop wrote (header `live`) that ended in an error (its end record's outcome for trace_end: a brake's stop
 * is `limit`, an abort or a cut-off recording `unknown`) right after a failed call that is no refusal of
 * its prompt (that one ends the run provider_refused).
 */
export function modelGaveUp(trace: Recording): boolean {
  if (trace.header.live !== true || trace.end.outcome !== 'error') return false;
  const failed = trace.calls[trace.calls.length - 1]?.failed;
  return failed !== undefined && failed.contextLengthExceeded === undefined;
}

/**
 * Whether `trace` is the recording of a run its AbortSignal stopped: a recording the real loop wrote
 * (header `live`) whose end record is marked `aborted` (agent/records.ts endRecord; outcome `unknown`).
 * A cut-off recording also ends `unknown`, with no end record, so no mark: it is no abort.
 */
export function runAborted(trace: Recording): boolean {
  if (trace.header.live !== true || trace.end.outcome !== 'unknown') return false;
  return trace.end.aborted === true || abortedBeforeTheMark(trace);
}

/** (describeStop reads no limit for an abort.) */
const NO_LIMITS = new Float64Array(Limit.Size);

/**
 * Only for recordings written before the end record had its `aborted` mark: the end record the loop
 * wrote for an abort then had no mark, its status being the stop's detail (`stopped by its AbortSignal
 * after N steps`, N the steps its calls took), recognised here by those words. Recordings written since
 * carry the mark and are known by it alone: a change of the words or of step counting can misread only
 * those older recordings.
 */
function abortedBeforeTheMark(trace: Recording): boolean {
  if (trace.end.status === undefined) return false;
  const facts = new Float64Array(Fact.Size);
  facts[Fact.Steps] = trace.calls.filter(countsAsStep).length;
  return trace.end.status === describeStop(StopCode.Aborted, NO_LIMITS, facts);
}

/** Whether the recorded run asked for no call after its last one: its model gave up there, or it was aborted (see above). */
export function endsAfterLastCall(trace: Recording): boolean {
  return modelGaveUp(trace) || runAborted(trace);
}

/**
 * Whether the run ends before the call it would make next, `call` of a recording of `calls`
 * (`endsAfterLast`: endsAfterLastCall of it): only after its last call, when it asked for no other —
 * then no summary call is made and no brake is checked before the end; otherwise the brakes come first,
 * then the recording's end.
 */
export function endsBeforeNextCall(call: number, calls: number, endsAfterLast: boolean): boolean {
  return endsAfterLast && call >= calls;
}

/**
 * How a replay of `end`'s recording stops once no recorded call is left (the recording ran out): completed
 * when the run ended completed, else trace_end. Written once for every engine: the readable ReplaySource,
 * the session-tree replay, the recorded model (agent/traceModel.ts), the compiled trace (exhaustedCode).
 */
export function exhaustedStop(end: Pick<Trace['end'], 'outcome'>): 'completed' | 'trace_end' {
  return end.outcome === 'completed' ? 'completed' : 'trace_end';
}

/**
 * The engine refuses what it cannot compute exactly (a run's cost beyond exact picodollars) with a
 * message that knows no file: this names the run it was replaying, so the user knows where to look; or,
 * when one recorded call costs that much on its own (kernel/callPastExact.ts), that call's line and field:
 * no brake can bound a single call, so the run's brakes are not what to change.
 */
import { placeIssues, UserError, type InputIssue } from '../errors.js';
import { CallCostOutOfRange, pastExactAmount } from '../kernel/callPastExact.js';
import { counted } from '../plural.js';
import { finalAgainstEnd } from '../trace/replayedCalls.js';
import type { Trace } from '../trace/types.js';
import { recordedCallCount } from './runFacts.js';

/** What a refusal naming one call past exact picodollars says first (throwCallPastExact). */
const ONE_CALL_PAST = 'one call costs more than $9,007 on its own';

/** Whether `issue` names one recorded call past exact picodollars on its own: no configuration of brakes changes it. */
export function namesOneCallPastExact(issue: InputIssue): boolean {
  return issue.code === 'cost_out_of_range' && issue.message.startsWith(ONE_CALL_PAST);
}

/** Runs `work` for `trace`; a UserError without a file gets the run's source (file#run) and field. `agent`: the run's agent in a session tree, named too (`run of agent sub on …`). */
export function inRunContext<T>(trace: Trace, work: () => T, agent?: string): T {
  try {
    return work();
  } catch (error) {
    const call = error instanceof CallCostOutOfRange ? callIndexOf(trace, error.call) : -1;
    if (call >= 0) return throwCallPastExact(trace, call, error as CallCostOutOfRange);
    const of = agent === undefined ? '' : `of agent ${agent} `;
    throw placeIssues(error, (issue) => ({ ...issue, file: trace.source, field: issue.field ?? 'calls', message: `run ${of}on ${trace.header.model} with ${counted(recordedCallCount(trace), 'recorded call')}: ${issue.message}` }));
  }
}

/** The index among `trace`'s calls of the call the engine named (the compiled replay's index, or the readable loop's record); −1 when it is none of them. */
function callIndexOf(trace: Trace, call: CallCostOutOfRange['call']): number {
  if (typeof call === 'number') return call;
  // (The readable loop's records are the trace's, but a last call replayed without its `final` mark: a copy, trace/replayedCalls.ts.)
  const index = trace.calls.indexOf(call);
  return index < 0 && finalAgainstEnd(trace) && call.final === undefined ? trace.calls.length - 1 : index;
}

/** The refusal of the run of `trace` named by its call `call` (0-based), at its line when the run's file has lines, else by its index. */
function throwCallPastExact(trace: Trace, call: number, error: CallCostOutOfRange): never {
  const { field } = error.past;
  const line = trace.callLines?.[call];
  const at: Pick<InputIssue, 'line' | 'field'> = line === undefined ? { field: `calls[${call}].${field}` } : { line, field };
  throw new UserError({
    file: trace.source,
    ...at,
    code: 'cost_out_of_range',
    message: `${ONE_CALL_PAST} (${pastExactAmount(error.past)}), beyond exact picodollar arithmetic; the figure looks corrupted`,
    hint: "no brake can bound a single call: correct the figure (or the model's prices), or leave the call out",
  });
}

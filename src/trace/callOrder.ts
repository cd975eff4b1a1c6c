/**
 * The rules of a run's calls in order (trace/rules.ts applies them, the native reader as it reads): a call
 * the provider refused for its length ends its run (no call follows it, and the run did not complete), and a
 * final answer completes its run (no call follows a call marked `final`).
 */
import type { RuleViolation } from './rules.js';
import type { CallRecord, TraceEnd, TraceHeader } from './types.js';

/** What a refusal is, as every rule about one says it. */
export const REFUSED = 'the provider refused the call (failed.contextLengthExceeded)';

/** The index of the run's call its provider refused for its length (-1: none). */
export function refusedCallIndex(calls: readonly CallRecord[]): number {
  return calls.findIndex((call) => call.failed?.contextLengthExceeded !== undefined);
}

/**
 * An end `completed` in a run its provider refused (the call at `refusedWhere`): the refusal ended the
 * run before it completed, as a replay ends it (provider_refused). Refused, as every broken rule is.
 */
export function completedAfterRefusal(end: TraceEnd, refusedWhere: string): RuleViolation | undefined {
  if (end.outcome !== 'completed') return undefined;
  return {
    field: 'outcome',
    code: 'completed_after_refusal',
    message: `is completed, but ${REFUSED} at ${refusedWhere}, and the refusal ended the run before it completed`,
    hint: 'write the outcome the run had (error, as loopcost writes a refused run); a run that went on after the refusal and completed records that call as a plain failed call (no contextLengthExceeded)',
  };
}

/**
 * A call the provider refused for its length ended its run there (the loop stops, provider_refused):
 * the k-th of `calls` that follows one (its index in the run; undefined when none does).
 */
export function callAfterRefusal(calls: readonly CallRecord[]): number | undefined {
  const refused = refusedCallIndex(calls);
  return refused >= 0 && refused < calls.length - 1 ? refused + 1 : undefined;
}

/** The rule callAfterRefusal checks, for a call after the refused one (at `refusedWhere`). */
export function afterRefusalViolation(refusedWhere: string): RuleViolation {
  return { field: 'type', code: 'call_after_refusal', message: `a call after the one the provider refused (${refusedWhere}): a refusal of a prompt past the window ends the run` };
}

export const AFTER_REFUSAL_HINT = "end the run at the refused call, or record it as a plain failed call (no contextLengthExceeded) when the run went on";

/** A call after the one marked final (at `finalWhere`): the final answer completed the run there. */
export function afterFinalViolation(finalWhere: string): RuleViolation {
  const message = `a call after the final answer (${finalWhere}): a final answer completes the run, so no call follows it`;
  return { field: 'type', code: 'call_after_final', message, hint: `mark final only the answer that ended the run: leave final out of ${finalWhere} if the run went on, or end the run there` };
}

/** The index of each call that follows a call marked final (once per mark: the call right after it). */
export function callsAfterFinal(calls: readonly CallRecord[]): number[] {
  return calls.flatMap((_, k) => (k > 0 && calls[k - 1]!.final === true ? [k] : []));
}

/**
 * A run's end record that says it did not complete (`error`, `timeout`, `limit`; `unknown` says nothing
 * either way) though its last call (`lastWhere`) is an answer with no tool calls, which completed the run
 * there (LoopSession.endStep): refused, not read as completed. (A `final` answer with tool calls completes
 * only after them: a brake or an abort may stop it there, and a replay takes the end's word of an error or
 * timeout: trace/replayedCalls.ts finalAgainstEnd.)
 */
export function answerAgainstEnd(calls: readonly CallRecord[], end: TraceEnd, lastWhere: string): RuleViolation | undefined {
  const last = calls[calls.length - 1];
  if (end.outcome === 'completed' || end.outcome === 'unknown' || last === undefined) return undefined;
  if (last.failed !== undefined || last.unparseable === true || last.backtrack === true || last.compaction === true || (last.toolCalls?.length ?? 0) > 0) return undefined;
  return {
    field: 'outcome',
    code: 'inconsistent_outcome',
    message: `is ${end.outcome}, but the run's last call (${lastWhere}) is an answer with no tool calls, which completed the run`,
    hint: 'write outcome completed if the run completed with that answer; else write the calls as the run made them: a failed call, or the tool calls it was running when it stopped',
  };
}

/** A generated run's ground truth (header.synthetic.doneAtStep) past its calls: its task cannot have been done at a step the run never took. */
export function doneAfterLastCall(header: TraceHeader, calls: readonly CallRecord[]): RuleViolation | undefined {
  const done = header.synthetic?.doneAtStep;
  if (done === undefined || done <= calls.length) return undefined;
  return {
    field: 'synthetic.doneAtStep',
    code: 'inconsistent_outcome',
    message: `is ${done}, but the run has ${calls.length} call${calls.length === 1 ? '' : 's'}: its task cannot have been done at a step it never took`,
    hint: 'write the step the task was done at, at most the number of the run\'s calls; or leave doneAtStep out and set taskDone false',
  };
}

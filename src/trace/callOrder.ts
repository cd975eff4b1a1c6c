/**
 * The rules of a run's calls in order (trace/rules.ts applies them, the native reader as it reads): a call
 * the provider refused for its length ends its run (no call follows it, and the run did not complete), and a
 * final answer completes its run (no call follows a call marked `final`).
 */
import type { RuleViolation } from './rules.js';
import type { CallRecord, TraceEnd } from './types.js';

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

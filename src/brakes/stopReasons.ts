/** Every run ends with exactly one of these. */
export const STOP_REASONS = Object.freeze([
  'completed',
  'max_steps',
  'budget',
  'timeout',
  'repeat',
  'error_limit',
  'context_overflow',
  'token_limit',
  'backtrack_limit',
  'trace_end',
  'aborted',
  /**
   * The provider refused the call: its prompt + the max_tokens it asked for passed the model's context
   * window (OpenAI's `context_length_exceeded`). Not a brake: the run ends at that call, which is no step
   * and is paid nothing (LoopSession.providerRefused). Last, so the codes before it keep their numbers.
   */
  'provider_refused',
] as const);

export type StopReason = (typeof STOP_REASONS)[number];

/** Which brake fired (or why the run ended otherwise) and the numbers behind it. */
export interface Stop {
  reason: StopReason;
  /** One human sentence: "step 12 of 12 reached", "$0.5003 spent of $0.50". */
  detail: string;
  /**
   * A budget stop by the predictive bound (`budgetMode: 'predict'`): the call was refused because its bound
   * would take spend past the budget, which spend had not reached (kernel/brakes.ts stoppedByBound). Absent otherwise.
   */
  byPredictiveBound?: true;
}

/** A brake ended the run (not a completion, the source's end, the caller's AbortSignal in a real loop, nor the provider's refusal). */
export function isBrakeStop(reason: StopReason): boolean {
  return reason !== 'completed' && reason !== 'trace_end' && reason !== 'aborted' && reason !== 'provider_refused';
}

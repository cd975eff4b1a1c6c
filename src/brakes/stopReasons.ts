/** Every run ends with exactly one of these. */
export const STOP_REASONS = [
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
] as const;

export type StopReason = (typeof STOP_REASONS)[number];

/** Which brake fired (or why the run ended otherwise) and the numbers behind it. */
export interface Stop {
  reason: StopReason;
  /** One human sentence: "step 12 of 12 reached", "$0.5003 spent of $0.50". */
  detail: string;
}

/** A brake ended the run (not a completion, the source's end, nor the caller's AbortSignal in a real loop). */
export function isBrakeStop(reason: StopReason): boolean {
  return reason !== 'completed' && reason !== 'trace_end' && reason !== 'aborted';
}

/**
 * Stop reasons as small integers, in the order of STOP_REASONS (a test holds the two aligned), so brake
 * checks return a number and hot loops never build a string. StopCode.None: no brake fired.
 */
import { STOP_REASONS, type StopReason } from '../brakes/stopReasons.js';

export const enum StopCode {
  None = -1,
  Completed = 0,
  MaxSteps = 1,
  Budget = 2,
  Timeout = 3,
  Repeat = 4,
  ErrorLimit = 5,
  ContextOverflow = 6,
  TokenLimit = 7,
  BacktrackLimit = 8,
  TraceEnd = 9,
  /** A real loop's AbortSignal fired (runAgentLoop); never in a replay. */
  Aborted = 10,
  /** The provider refused a prompt (+ max_tokens) past the model's window (LoopSession.providerRefused); in a replay, at a call recorded so (failed.contextLengthExceeded). */
  ProviderRefused = 11,
}

export function stopReasonOf(code: number): StopReason {
  const reason = STOP_REASONS[code];
  if (reason === undefined) throw new Error(`no stop reason for code ${code}`);
  return reason;
}

export function stopCodeOf(reason: StopReason): StopCode {
  const code = STOP_REASONS.indexOf(reason);
  if (code < 0) throw new Error(`unknown stop reason ${reason}`);
  return code as StopCode;
}

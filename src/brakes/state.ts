import type { Pico } from '../money.js';

/**
 * Everything the brakes remember about one run. Fingerprints arrive as interned integer ids, so the
 * per-action state is arrays indexed by id, not string maps.
 */
export interface BrakeState {
  /** Model calls that count as steps (every call but a backtrack). */
  steps: number;
  /** Every model call, backtracks and failed calls included. */
  calls: number;
  backtracks: number;
  spentPico: Pico;
  elapsedMs: number;
  /** Input + output tokens of every call so far. */
  tokensUsed: number;
  /** Times each action fingerprint was executed. */
  actionCounts: number[];
  lastAction: number;
  /** Length of the run of identical actions ending at lastAction. */
  actionRun: number;
  secondLastAction: number;
  /** Length of the trailing A/B/A/B… alternation (A ≠ B). */
  alternation: number;
  /** Times each (tool, error) pair was seen. */
  errorCounts: number[];
  lastError: number;
  /** Length of the run of identical tool errors on consecutive tool calls (0 after a success). */
  errorRun: number;
}

export function newBrakeState(): BrakeState {
  return {
    steps: 0,
    calls: 0,
    backtracks: 0,
    spentPico: 0,
    elapsedMs: 0,
    tokensUsed: 0,
    actionCounts: [],
    lastAction: -1,
    actionRun: 0,
    secondLastAction: -1,
    alternation: 0,
    errorCounts: [],
    lastError: -1,
    errorRun: 0,
  };
}

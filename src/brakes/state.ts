import { ToolBrakeState } from '../kernel/toolBrakeState.js';
import type { Pico } from '../money.js';

/**
 * What a run's brakes remember, as a step source may read it: running figures, and the repeated-action
 * and same-error state (counts per interned fingerprint id in typed arrays).
 */
export interface BrakeState {
  /** Model calls that count as steps (every call but a backtrack or a compaction). */
  steps: number;
  /** Every model call, backtracks and failed calls included. */
  calls: number;
  backtracks: number;
  spentPico: Pico;
  elapsedMs: number;
  /** Input + output tokens of every call so far. */
  tokensUsed: number;
  tools: ToolBrakeState;
}

export function newBrakeState(): BrakeState {
  return { steps: 0, calls: 0, backtracks: 0, spentPico: 0, elapsedMs: 0, tokensUsed: 0, tools: new ToolBrakeState() };
}

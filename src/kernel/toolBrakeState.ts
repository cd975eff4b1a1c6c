/**
 * The repeated-action and same-error state machine: counts per interned id in typed arrays, the last
 * action and error, runs of identical ones, and the A/B alternation. The session updates it as tools
 * run; compiling a trace runs it once over every tool call that runs (which no setting changes).
 */
import { RepeatModeCode } from './limits.js';

export class ToolBrakeState {
  /** Times each action id ran. */
  actionCounts: Int32Array;
  /** Times each (tool, error) id was seen. */
  errorCounts: Int32Array;
  lastAction = -1;
  secondLastAction = -1;
  /** Length of the run of identical actions ending at lastAction. */
  actionRun = 0;
  /** Length of the trailing A/B/A/B… alternation (A ≠ B). */
  alternation = 0;
  lastError = -1;
  /** Length of the run of identical tool errors on consecutive tool calls (0 after a success). */
  errorRun = 0;
  /** Repeated actions skipped so far (`--repeat-action skip`). */
  skips = 0;

  constructor(actionIds = 16, errorIds = 16) {
    this.actionCounts = new Int32Array(Math.max(1, actionIds));
    this.errorCounts = new Int32Array(Math.max(1, errorIds));
  }

  /** How long the alternation would be if `action` came next. */
  nextAlternation(action: number): number {
    if (this.lastAction < 0 || action === this.lastAction) return 1;
    if (this.alternation >= 2 && action === this.secondLastAction) return this.alternation + 1;
    return 2;
  }

  /** Times `action` already ran, as `mode` counts: in the run, in a row, or in an A/B cycle ending with it. */
  seen(action: number, mode: RepeatModeCode): number {
    if (mode === RepeatModeCode.Total) return action < this.actionCounts.length ? this.actionCounts[action]! : 0;
    if (mode === RepeatModeCode.Consecutive) return action === this.lastAction ? this.actionRun : 0;
    // In an alternation of length L ending with this action, it stood at every other place before.
    const length = this.nextAlternation(action);
    return length >= 3 ? Math.ceil(length / 2) - 1 : 0;
  }

  /** The action runs. */
  recordAction(action: number): void {
    if (action >= this.actionCounts.length) this.actionCounts = grown(this.actionCounts, action);
    this.actionCounts[action]!++;
    this.alternation = this.nextAlternation(action);
    this.actionRun = action === this.lastAction ? this.actionRun + 1 : 1;
    this.secondLastAction = this.lastAction;
    this.lastAction = action;
  }

  /**
   * The duplicate-action guard skipped the action: it was issued (it counts as an action, so a loop of
   * it keeps being caught) but not executed; its warning observation is not an error.
   */
  skip(action: number): void {
    this.recordAction(action);
    this.recordOutcome(-1);
    this.skips++;
  }

  /** A tool call's outcome: `error` is the interned (tool, error) id, or −1 when it succeeded. */
  recordOutcome(error: number): void {
    if (error < 0) {
      this.errorRun = 0;
      this.lastError = -1;
      return;
    }
    if (error >= this.errorCounts.length) this.errorCounts = grown(this.errorCounts, error);
    this.errorCounts[error]!++;
    this.errorRun = error === this.lastError ? this.errorRun + 1 : 1;
    this.lastError = error;
  }

  /** After recordOutcome(error): its count in the run (`total`) or its run of identical failures. */
  errorCount(error: number, total: boolean): number {
    return total ? this.errorCounts[error]! : this.errorRun;
  }
}

function grown(counts: Int32Array, id: number): Int32Array {
  const next = new Int32Array(Math.max(id + 1, counts.length * 2));
  next.set(counts);
  return next;
}

import type { ContextStrategy } from './strategy.js';

/** What the next prompt holds under the strategy, and how much of it the previous prompt already held. */
export interface PromptView {
  /** Tokens of the next prompt under the strategy. */
  inputTokens: number;
  /** Tokens of the next prompt under plain full history with no cap (the growth model). */
  fullInputTokens: number;
  /** Leading tokens identical to the previous prompt's (what a prompt cache could serve). */
  unchangedPrefixTokens: number;
  /** Steps in the history, kept or not (the position the next step takes). */
  historySteps: number;
  /** Position of the first history step the prompt still holds (0 under full history). */
  firstKeptStep: number;
}

/**
 * Tracks the context of one run step by step. Steps are kept in plain arrays with running prefix
 * sums, so every operation is O(1) amortised and a run of n steps is O(n).
 */
export class ContextTracker {
  private readonly fixed: number;
  private readonly window: number;
  private readonly cap: number;
  /** Tokens of each kept step under the strategy (capped) and raw. Index = position in history. */
  private readonly keptTokens: number[] = [];
  private readonly rawTokens: number[] = [];
  /** prefixSums[i] = Σ keptTokens[0..i-1]. */
  private readonly prefixSums: number[] = [0];
  private rawTotal = 0;
  /** First kept position and history length of the previous prompt; -1 before the first call. */
  private previousStart = -1;
  private previousEnd = 0;
  /** Shortest the history has been since the previous prompt was sent (a backtrack pops). */
  private lowWater = 0;
  private openStep = -1;

  constructor(systemTokens: number, goalTokens: number, strategy: ContextStrategy) {
    this.fixed = systemTokens + goalTokens;
    this.window = strategy.kind === 'window' ? (strategy.windowSteps ?? Infinity) : Infinity;
    this.cap = strategy.toolResultCap ?? Infinity;
  }

  private get length(): number {
    return this.keptTokens.length;
  }

  private startIndex(): number {
    return Math.max(0, this.length - this.window);
  }

  /** The prompt the next call would send. */
  view(): PromptView {
    const start = this.startIndex();
    const end = this.length;
    const inputTokens = this.fixed + this.prefixSums[end]! - this.prefixSums[start]!;
    let unchanged = 0;
    if (this.previousStart >= 0) {
      // A slid window rewrites the first message after the goal: only system + goal survive.
      if (start === this.previousStart) {
        const sharedEnd = Math.min(this.previousEnd, this.lowWater, end);
        unchanged = this.fixed + this.prefixSums[Math.max(sharedEnd, start)]! - this.prefixSums[start]!;
      } else {
        unchanged = this.fixed;
      }
    }
    return { inputTokens, fullInputTokens: this.fixed + this.rawTotal, unchangedPrefixTokens: unchanged, historySteps: end, firstKeptStep: start };
  }

  /** Marks the current prompt as sent: it is what the next call's cache can reuse. */
  markSent(): void {
    this.previousStart = this.startIndex();
    this.previousEnd = this.length;
    this.lowWater = this.length;
  }

  /** A model response enters the context as a new step. */
  addStep(outputTokens: number): void {
    this.openStep = this.length;
    this.keptTokens.push(outputTokens);
    this.rawTokens.push(outputTokens);
    this.prefixSums.push(this.prefixSums[this.length - 1]! + outputTokens);
    this.rawTotal += outputTokens;
  }

  /** A tool result joins the step that called it. */
  addToolResult(resultTokens: number): void {
    if (this.openStep !== this.length - 1 || this.openStep < 0) {
      throw new Error('addToolResult called with no open step');
    }
    const kept = Math.min(resultTokens, this.cap);
    const i = this.openStep;
    this.keptTokens[i]! += kept;
    this.rawTokens[i]! += resultTokens;
    this.prefixSums[i + 1]! += kept;
    this.rawTotal += resultTokens;
  }

  /** A backtrack: the last step (call and results) leaves the context. */
  dropLastStep(): void {
    if (this.length === 0) return;
    this.keptTokens.pop();
    this.rawTotal -= this.rawTokens.pop()!;
    this.prefixSums.pop();
    this.openStep = -1;
    this.lowWater = Math.min(this.lowWater, this.length);
  }

  /** Closes the current step: later tool results cannot join it. */
  closeStep(): void {
    this.openStep = -1;
  }
}

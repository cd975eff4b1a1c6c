/**
 * The context, written once: what the next prompt holds under a strategy, as running prefix sums over
 * typed arrays, so every operation is O(1) amortised and a run of n steps O(n). The model of a prompt
 * is system + goal + the kept steps, each step = a model output + its tool results, in order. Full
 * history keeps every step; a window the last K (a tool call stays with its result: one step); a
 * tool-result cap truncates each result as it enters, so it never rewrites an earlier prompt.
 *
 * It also says how much of the next prompt the previous one held unchanged (what a prompt cache can
 * serve: a slid window rewrites everything after the goal; a backtrack cuts the shared part), and
 * which steps the prompt holds (history length, first kept step), for sources that react to it.
 *
 * Strategies that rewrite older steps (`extended`): observation masking keeps every output and
 * replaces the tool results of steps before the last M with a placeholder of P tokens each (a third
 * prefix sum, `maskedPrefix`, holds the masked form); a summary replaces the steps before the last K
 * with S tokens (`summarize()`, made by the loop when `summaryDue()`). For the cache: the masking
 * boundary (maskBoundary.ts) moves each step (each B steps when batched: `maskBatch`), so the prompt
 * changes at the first tool result of the step just masked
 * (its output, before it, is unchanged: rewrittenContext.ts, with `outputPrefix`; a cache that serves only
 * what a breakpoint wrote, `breakpoints`, then serves system + goal); a summary rewrites
 * everything after system + goal. `cacheLostTokens()` counts the tokens the next prompt re-sends that
 * the previous one held but that the strategy moved out of the unchanged prefix (a slid window's too; a
 * new placeholder is not lost).
 *
 * A recorded compaction call (the agent summarised its whole history) replaces the steps with its output,
 * held beside system + goal in `fixed` (compaction.ts, the rule and its data).
 */
import { rewritesHistory, type ContextStrategy } from '../context/strategy.js';
import { promptEstimate } from './cost.js';
import { promptRewritten, rewrittenCacheLost, unchangedRewritten } from './rewrittenContext.js';
import { rewriteSettings, type PromptView, type RewriteSettings } from './promptView.js';
import { cappedResultTokens } from './stepTokens.js';
import { maskBoundary, startRewriting } from './maskBoundary.js';

export { rewriteSettings, type PromptView, type RewriteSettings } from './promptView.js';

/** previousStart after a compaction: the previous prompt's steps are gone, only its system + goal carry over. */
export const COMPACTED = -2;

/** No steps: the masked prefix sums of a tracker whose strategy never rewrote older steps. */
const NO_PREFIX = new Float64Array(0);

/** `prefix` copied into a new array of `size` (its first length + 1 entries). */
function grown(prefix: Float64Array, size: number, length: number): Float64Array {
  const next = new Float64Array(size);
  next.set(prefix.subarray(0, length + 1));
  return next;
}

export class ContextTracker {
  /** System + goal tokens (and a compaction's output, `compactedTokens`, after one). */
  fixed = 0;
  compactedTokens = 0;
  /** Steps a window keeps (Infinity: full history); `cap` the tokens a tool result may add (Infinity: no cap). */
  keep = Infinity;
  cap = Infinity;
  /** keptPrefix[i] = tokens of steps 0..i−1 under the strategy; rawPrefix the same uncapped. */
  keptPrefix: Float64Array;
  rawPrefix: Float64Array;
  /** Steps in the history. */
  length = 0;
  /** First kept step of the previous prompt; −1 before the first call, COMPACTED after a compaction. */
  previousStart = -1;
  /** History length the next prompt shares with the previous one (a backtrack lowers it). */
  shared = 0;
  /** The step tool results join; −1 when none is open. */
  private openStep = -1;
  /** The strategy rewrites older steps (masking, summaries): the fields below are in use. */
  extended = false;
  maskKeep = Infinity;
  /** Masking in batches: the boundary moves only at multiples of this many steps (1: every step; maskBoundary.ts). */
  maskBatch = 1;
  placeholder = 0;
  /** maskedPrefix[i] = tokens of steps 0..i−1 with every tool result a placeholder (made, as long as the others, by `rewriting`). */
  maskedPrefix: Float64Array = NO_PREFIX;
  /** outputPrefix[i] = output tokens of steps 0..i−1 (made with maskedPrefix): where a masked step's results start. */
  outputPrefix: Float64Array = NO_PREFIX;
  trigger = Infinity;
  summaryKeep = Infinity;
  summaryOutput = 0;
  /** The first step after the last summary, and the summary's tokens (0 before any). */
  summaryStart = 0;
  summaryTokens = 0;
  /** A summary rewrote the prompt since it was last sent. */
  rewritten = false;
  /** First unmasked step of the previous prompt. */
  previousMaskStart = -1;
  /** The cache serves only prefixes a breakpoint wrote (a model that bills writes: rewrittenContext.ts cacheAtBreakpoints). */
  breakpoints = false;

  constructor(systemTokens = 0, goalTokens = 0, strategy?: ContextStrategy, capacity = 64) {
    this.keptPrefix = new Float64Array(capacity + 1);
    this.rawPrefix = new Float64Array(capacity + 1);
    this.reset(systemTokens + goalTokens, strategy);
  }

  /** Empties the context for a new run (the arrays are kept). `triggerTokens`: a summary's, resolved (strategy.ts); `breakpointCache`: rewrittenContext.ts cacheAtBreakpoints. */
  reset(fixedTokens: number, strategy?: ContextStrategy, triggerTokens = Infinity, breakpointCache = false): void {
    this.resetTo(fixedTokens, strategy?.kind === 'window' ? (strategy.windowSteps ?? Infinity) : Infinity, strategy?.toolResultCap ?? Infinity);
    if (strategy && rewritesHistory(strategy)) this.rewriting(rewriteSettings(strategy, triggerTokens, breakpointCache));
  }

  /** After resetTo: the run's strategy rewrites older steps (maskBoundary.ts startRewriting). */
  rewriting(settings: RewriteSettings): void {
    startRewriting(this, settings);
  }

  /** Empties the context for a new run with the strategy as numbers (keep: window steps or Infinity). */
  resetTo(fixedTokens: number, keep: number, cap: number): void {
    this.fixed = fixedTokens;
    this.compactedTokens = 0;
    this.keep = keep;
    this.cap = cap;
    this.extended = false;
    this.clearSteps(-1);
  }

  /** No step held, no summary, nothing rewritten; `previousStart` says what the next prompt shares (-1: nothing sent yet; COMPACTED: system + goal). */
  clearSteps(previousStart: number): void {
    this.length = 0;
    this.previousStart = previousStart;
    this.shared = 0;
    this.openStep = -1;
    this.summaryStart = 0;
    this.summaryTokens = 0;
    this.rewritten = false;
    this.previousMaskStart = -1;
  }

  /** Room for `steps` steps. */
  reserve(steps: number): void {
    if (steps + 1 <= this.keptPrefix.length) return;
    const size = Math.max(steps + 1, this.keptPrefix.length * 2);
    this.keptPrefix = grown(this.keptPrefix, size, this.length);
    this.rawPrefix = grown(this.rawPrefix, size, this.length);
    if (this.maskedPrefix.length > 0) {
      this.maskedPrefix = grown(this.maskedPrefix, size, this.length);
      this.outputPrefix = grown(this.outputPrefix, size, this.length);
    }
  }

  /** Room for more steps (apart from the hot methods, which rarely need it). */
  private grow(steps: number): void {
    this.reserve(steps);
  }

  /** The first step the next prompt holds. */
  firstKeptStep(): number {
    const start = this.length - this.keep;
    if (this.summaryStart > start) return this.summaryStart;
    return start > 0 ? start : 0;
  }

  /** Masking: the first step whose tool results the next prompt holds (`first`: its first kept step). */
  maskStart(first: number): number {
    return maskBoundary(this, first);
  }

  /** Tokens of the next prompt under the strategy. */
  promptTokens(): number {
    if (this.extended) return promptRewritten(this);
    return this.fixed + this.keptPrefix[this.length]! - this.keptPrefix[this.firstKeptStep()]!;
  }

  /** Tokens of the next prompt under full history with no cap (the growth model). */
  fullTokens(): number {
    return this.fixed + this.rawPrefix[this.length]!;
  }

  /** Leading tokens of the next prompt the previous prompt held too. */
  unchangedTokens(): number {
    if (this.previousStart < 0) return this.previousStart === COMPACTED ? this.fixed - this.compactedTokens : 0;
    if (this.extended) return unchangedRewritten(this);
    const start = this.firstKeptStep();
    // A slid window rewrites the first message after the goal: only system + goal survive.
    if (start !== this.previousStart) return this.fixed;
    const end = this.shared > start ? this.shared : start;
    return this.fixed + this.keptPrefix[end]! - this.keptPrefix[start]!;
  }

  /**
   * Tokens the next prompt re-sends that the previous prompt held (system + goal, the summary, the
   * steps both hold) but that are outside the unchanged prefix: cache hits lost to the strategy.
   * 0 before the first call and after a compaction. Full history and a tool-result cap lose none; a window that slid loses the
   * steps both prompts hold (only system + goal stay in the unchanged prefix).
   */
  cacheLostTokens(): number {
    if (this.previousStart < 0) return 0;
    if (!this.extended) return this.keep === Infinity ? 0 : this.slidWindowLost();
    return rewrittenCacheLost(this);
  }

  /** cacheLostTokens under a window: the steps the previous prompt held that the next re-sends after the slid start. */
  private slidWindowLost(): number {
    const start = this.firstKeptStep();
    if (start === this.previousStart) return 0;
    const from = start > this.previousStart ? start : this.previousStart;
    const shared = this.shared < this.length ? this.shared : this.length;
    return shared > from ? this.keptPrefix[shared]! - this.keptPrefix[from]! : 0;
  }

  /**
   * A summary is due: the prompt as a live loop estimates it (the view plus `overheadTokens`, the
   * framing the last call was billed beyond the view: kernel/cost.ts promptEstimate) passes the
   * trigger, and there are steps before the last K to replace.
   */
  summaryDue(overheadTokens: number): boolean {
    return this.extended && promptEstimate(this.promptTokens(), overheadTokens) > this.trigger && this.firstKeptStep() < this.length - this.summaryKeep;
  }

  /** The summary call was made (its prompt sent): the steps before the last K become its output (S; a live loop's: as its model reported). */
  summarize(summaryTokens = this.summaryOutput): void {
    this.summaryStart = this.length - this.summaryKeep;
    this.summaryTokens = summaryTokens;
    this.rewritten = true;
  }

  /** The next prompt's sizes into a Prompt record (kernel/meter.ts), the meter's input. */
  promptInto(prompt: Float64Array): void {
    prompt[0] = this.promptTokens();
    prompt[1] = this.fullTokens();
    prompt[2] = this.unchangedTokens();
  }

  view(): PromptView {
    const view: PromptView = {
      inputTokens: this.promptTokens(),
      fullInputTokens: this.fullTokens(),
      unchangedPrefixTokens: this.unchangedTokens(),
      historySteps: this.length,
      firstKeptStep: this.firstKeptStep(),
    };
    if (this.maskKeep !== Infinity && this.extended) view.firstUnmaskedStep = this.maskStart(view.firstKeptStep);
    return view;
  }

  /** The current prompt was sent: it is what the next call's cache can reuse. */
  markSent(): void {
    this.previousStart = this.firstKeptStep();
    this.shared = this.length;
    if (this.extended) this.markSentRewritten();
  }

  private markSentRewritten(): void {
    this.previousMaskStart = this.maskStart(this.previousStart);
    this.rewritten = false;
  }

  /** A model response enters the context as a new step. */
  addStep(outputTokens: number): void {
    const n = this.length;
    if (n + 2 > this.keptPrefix.length) this.grow(n + 1);
    this.keptPrefix[n + 1] = this.keptPrefix[n]! + outputTokens;
    this.rawPrefix[n + 1] = this.rawPrefix[n]! + outputTokens;
    if (this.extended) {
      this.maskedPrefix[n + 1] = this.maskedPrefix[n]! + outputTokens;
      this.outputPrefix[n + 1] = this.outputPrefix[n]! + outputTokens;
    }
    this.length = n + 1;
    this.openStep = n;
  }

  /** A tool result joins the step that called it; returns the tokens it adds there (cut to the cap: cappedResultTokens). */
  addToolResult(resultTokens: number): number {
    const n = this.length, keptTokens = cappedResultTokens(resultTokens, this.cap);
    if (this.openStep !== n - 1 || this.openStep < 0) throw new Error('addToolResult called with no open step');
    this.keptPrefix[n] = this.keptPrefix[n]! + keptTokens;
    this.rawPrefix[n] = this.rawPrefix[n]! + resultTokens;
    if (this.extended) this.maskedPrefix[n] = this.maskedPrefix[n]! + this.placeholder;
    return keptTokens;
  }

  /** A whole step at once: output and results (each capped as it enters), then closed. Not for extended strategies (they add results one by one). */
  addClosedStep(keptTokens: number, rawTokens: number): void {
    const n = this.length;
    if (n + 2 > this.keptPrefix.length) this.grow(n + 1);
    this.keptPrefix[n + 1] = this.keptPrefix[n]! + keptTokens;
    this.rawPrefix[n + 1] = this.rawPrefix[n]! + rawTokens;
    this.length = n + 1;
    this.openStep = -1;
  }

  /** A backtrack: the last step (call and results) leaves the context. */
  dropLastStep(): void {
    if (this.length === 0) return;
    this.length--;
    this.openStep = -1;
    if (this.shared > this.length) this.shared = this.length;
    if (this.summaryStart > this.length) this.summaryStart = this.length;
  }

  /** Closes the current step: later tool results cannot join it. */
  closeStep(): void {
    this.openStep = -1;
  }
}

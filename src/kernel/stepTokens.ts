/**
 * A step's tokens as the context holds them, written once for the context tracker (context.ts) and the
 * compiled replay's sums over calls (src/fast/stretch.ts): a tool-result cap truncates each result as it
 * enters the step; a step holds its output and its results so capped. Of its output, what enters the run's
 * later prompts (outputEnteringContext): all of it, or less its reasoning in a run whose loop does not send
 * reasoning back (the trace header's `reasoningInPrompt: false`).
 */
import type { Trace } from '../trace/types.js';
import { plainOutputTokens } from './cost.js';

/**
 * Whether a call's reasoning enters the later prompts of the run `trace` records: unless its header says it
 * does not (`reasoningInPrompt: false`: the real loop's recorder writes it, a Chat Completions client that drops
 * `reasoning_content`), it does — as the growth model always took it (test/kernel/reasoningReentersPrompt.test.ts).
 */
export function reasoningReentersOf(trace: Pick<Trace, 'header'>): boolean {
  return trace.header.reasoningInPrompt !== false;
}

/**
 * The tokens of a call's output (`outputTokens`, its `reasoningTokens` included) that enter the run's later
 * prompts: all of them where the run's reasoning re-enters (`reasoningReenters`: the provider is sent it back
 * and counts it — Codex/Responses, DeepSeek reasoner with tool calls), else the output less its reasoning (a
 * loop that drops it: loopcost's real loop, Chat Completions clients without `reasoning_content`). The one rule
 * every engine reads where a call's output enters the context (kernel/callContext.ts enterCall's callers, a
 * summary's output: loop/summary.ts, the compiled replay's per-call precompute: fast/compile.ts). The output
 * less its reasoning is what the output price bills (cost.ts plainOutputTokens).
 */
export function outputEnteringContext(outputTokens: number, reasoningTokens: number, reasoningReenters: boolean): number {
  return reasoningReenters || !(reasoningTokens > 0) ? outputTokens : plainOutputTokens(outputTokens, reasoningTokens);
}

/** The tokens a tool result of `resultTokens` adds to its step under a cap of `capTokens` (Infinity: no cap). */
export function cappedResultTokens(resultTokens: number, capTokens: number): number {
  return resultTokens < capTokens ? resultTokens : capTokens;
}

/** A step's kept tokens: `outputTokens` (its call's output entering the context: outputEnteringContext) and the results resultTokens[from..to−1], each capped at `capTokens`. */
export function keptStepTokens(outputTokens: number, resultTokens: ArrayLike<number>, from: number, to: number, capTokens: number): number {
  let kept = outputTokens;
  for (let j = from; j < to; j++) kept += cappedResultTokens(resultTokens[j]!, capTokens);
  return kept;
}

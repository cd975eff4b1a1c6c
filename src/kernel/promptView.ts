/**
 * What the context tracker (context.ts) tells a step source about the next prompt (PromptView), and the
 * rewriting part of a strategy (masking, summaries) as the numbers the tracker runs on.
 */
import { DEFAULT_PLACEHOLDER_TOKENS, type ContextStrategy } from '../context/strategy.js';

/** What the next prompt holds under the strategy, and how much of it the previous prompt already held. */
export interface PromptView {
  /** Tokens of the next prompt under the strategy. */
  inputTokens: number;
  /** Tokens of the next prompt under plain full history with no cap (the growth model). */
  fullInputTokens: number;
  /** Leading tokens identical to the previous prompt's (what a prompt cache could serve). */
  unchangedPrefixTokens: number;
  /** Steps in the history (kept or not). */
  historySteps: number;
  /** Index of the first step the prompt holds (0 under full history). */
  firstKeptStep: number;
  /** Masking: the first step whose tool results the prompt holds (absent or ≤ firstKeptStep: none masked). */
  firstUnmaskedStep?: number;
}

/** The rewriting part of a strategy as numbers (Infinity / 0 when unused). */
export interface RewriteSettings {
  /** Steps whose tool results are kept unmasked. */
  maskSteps: number;
  /** Masking in batches: the boundary moves only at multiples of this many steps (1: every step; kernel/maskBoundary.ts). */
  maskBatchSteps: number;
  placeholderTokens: number;
  /** A summary is due when the prompt passes this many tokens. */
  triggerTokens: number;
  /** Steps a summary keeps. */
  summaryKeepSteps: number;
  summaryTokens: number;
  /** The run's cache serves only prefixes a cache breakpoint wrote (rewrittenContext.ts cacheAtBreakpoints). */
  breakpointCache: boolean;
}

/** The rewrite settings of a strategy; `triggerTokens` already resolved against the context window (strategy.ts); `breakpointCache`: cacheAtBreakpoints. */
export function rewriteSettings(strategy: ContextStrategy, triggerTokens: number, breakpointCache = false): RewriteSettings {
  const mask = strategy.kind === 'mask' || strategy.kind === 'hybrid';
  return {
    maskSteps: mask ? strategy.maskSteps! : Infinity,
    maskBatchSteps: mask ? (strategy.maskBatchSteps ?? 1) : 1,
    placeholderTokens: strategy.placeholderTokens ?? DEFAULT_PLACEHOLDER_TOKENS,
    triggerTokens: strategy.summary ? triggerTokens : Infinity,
    summaryKeepSteps: strategy.summary?.keepSteps ?? Infinity,
    summaryTokens: strategy.summary?.summaryTokens ?? 0,
    breakpointCache,
  };
}

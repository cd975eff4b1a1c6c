/**
 * A summary trigger at or below the prompt's fixed part (system + goal + the summary's own tokens): after a
 * summary the prompt still holds that part, so it passes the trigger again at once, and a summary call is
 * made before every step from then on. Not refused (a run so set is well defined, only wasteful); the
 * commands that know the fixed part (curve, scenario files) warn of it (report/summaryTriggerWarning.ts).
 */
import type { DistributionSpec } from '../synthetic/distributions.js';
import { minOf } from '../metrics/extremes.js';
import { summaryTriggerTokens, type ContextStrategy } from './strategy.js';

/** A trigger at or below the fixed part, with the sizes that make it so. */
export interface TriggerUnderFixed {
  triggerTokens: number;
  /** `trigger=80% (102400 tokens)` or `trigger=10`, as the strategy writes it. */
  triggerText: string;
  systemTokens: number;
  goalTokens: number;
  summaryTokens: number;
}

/** The fewest tokens a size can draw (a bare number or `fixed`: itself; normal and lognormal: 0, no bound above it). */
export function leastDraw(spec: DistributionSpec): number {
  if (typeof spec === 'number') return Math.round(spec);
  switch (spec.kind) {
    case 'fixed':
      return Math.round(spec.value);
    case 'uniform':
      return Math.ceil(spec.min);
    case 'empirical':
      return Math.round(minOf(spec.quantiles));
    default:
      return 0;
  }
}

/**
 * The trigger when it is at or below the fixed prompt (`systemTokens` + `goalTokens` + the summary's tokens);
 * undefined when it is above it, the strategy makes no summaries, or its trigger cannot be resolved on
 * `contextWindowTokens` (Infinity: not known; that refusal is the run's, not this warning's).
 */
export function triggerUnderFixedPrompt(strategy: ContextStrategy, prompt: { systemTokens: number; goalTokens: number; contextWindowTokens: number }): TriggerUnderFixed | undefined {
  const summary = strategy.summary;
  if (summary === undefined) return undefined;
  let triggerTokens: number;
  try {
    triggerTokens = summaryTriggerTokens(strategy, prompt.contextWindowTokens);
  } catch {
    return undefined;
  }
  const fixedTokens = prompt.systemTokens + prompt.goalTokens + summary.summaryTokens;
  if (triggerTokens > fixedTokens) return undefined;
  const triggerText = summary.triggerPercent === undefined ? `trigger=${triggerTokens}` : `trigger=${summary.triggerPercent}% (${triggerTokens} tokens)`;
  return { triggerTokens, triggerText, systemTokens: prompt.systemTokens, goalTokens: prompt.goalTokens, summaryTokens: summary.summaryTokens };
}

/**
 * Context strategies decide what the next prompt holds. The model of a prompt is
 *   system + goal + the kept steps, each step = the model's output + its tool results,
 * in order. `full` keeps every step; `window` keeps the last K (a tool call stays with its result
 * because they are one step); a tool-result cap truncates each result to T tokens as it enters the
 * context, so it never rewrites what an earlier prompt already held.
 */
export type CacheMode = 'on' | 'off' | 'recorded';

export interface ContextStrategy {
  kind: 'full' | 'window';
  /** Steps kept by `window`. */
  windowSteps?: number;
  /** Tokens a single tool result may add; larger results are truncated. */
  toolResultCap?: number;
  /** `recorded`: use the trace's cache figures (adjusted where the strategy changes the prefix). */
  cache?: CacheMode;
}

export const FULL_HISTORY: ContextStrategy = { kind: 'full' };

/** True when the strategy leaves a recorded prompt exactly as it was sent. */
export function isIdentity(strategy: ContextStrategy): boolean {
  return strategy.kind === 'full' && strategy.toolResultCap === undefined;
}

export function describeStrategy(strategy: ContextStrategy): string {
  const parts = [strategy.kind === 'window' ? `window:${strategy.windowSteps}` : 'full'];
  if (strategy.toolResultCap !== undefined) parts.push(`tool-result-cap:${strategy.toolResultCap}`);
  parts.push(`cache:${strategy.cache ?? 'default'}`);
  return parts.join(' ');
}

/**
 * The context's prompt arithmetic under strategies that rewrite older steps (observation masking,
 * summaries: `ContextTracker.extended`), apart from the tracker's hot path (full history, windows and
 * tool-result caps never come here). Tool results of steps before the masking boundary count in their
 * masked form (`maskedPrefix`), a summary stands for the steps before `summaryStart`.
 */
import type { ContextTracker } from './context.js';

/** Tokens of steps a..e−1 in the next prompt's form (tool results of steps before `mask` masked); a ≤ mask. */
function between(t: ContextTracker, a: number, e: number, mask: number): number {
  const split = e < mask ? e : mask;
  const masked = t.maskedPrefix[split]! - t.maskedPrefix[a]!;
  return e > mask ? masked + t.keptPrefix[e]! - t.keptPrefix[mask]! : masked;
}

/** promptTokens under masking / summaries. */
export function promptRewritten(t: ContextTracker): number {
  const first = t.firstKeptStep();
  return t.fixed + t.summaryTokens + between(t, first, t.length, t.maskStart(first));
}

/** unchangedTokens under masking / summaries: the prompts agree up to the earlier masking boundary. */
export function unchangedRewritten(t: ContextTracker): number {
  // A summary rewrote everything after system + goal.
  if (t.rewritten) return t.fixed;
  const start = t.firstKeptStep();
  if (start !== t.previousStart) return t.fixed;
  const mask = t.maskStart(start);
  let end = t.shared > start ? t.shared : start;
  if (mask !== t.previousMaskStart) {
    const boundary = mask < t.previousMaskStart ? mask : t.previousMaskStart;
    if (boundary < end) end = boundary;
  }
  return t.fixed + t.summaryTokens + between(t, start, end, mask);
}

/** cacheLostTokens under masking / summaries (after the first call): what the next prompt re-sends outside the unchanged prefix. */
export function rewrittenCacheLost(t: ContextTracker): number {
  const start = t.firstKeptStep();
  const shared = t.shared < t.length ? t.shared : t.length;
  const held = shared > start ? between(t, start, shared, t.maskStart(start)) : 0;
  return t.fixed + (t.rewritten ? 0 : t.summaryTokens) + held - unchangedRewritten(t);
}

/**
 * The context's prompt arithmetic under strategies that rewrite older steps (observation masking,
 * summaries: `ContextTracker.extended`), apart from the tracker's hot path (full history, windows and
 * tool-result caps never come here). Tool results of steps before the masking boundary count in their
 * masked form (`maskedPrefix`), a summary stands for the steps before `summaryStart`.
 *
 * The cache under masking, one rule for the readable loop and the compiled replay (both run this
 * tracker): when the boundary moves between two prompts (from the previous prompt's to the next's),
 * the steps between the two boundaries change form (their tool results masked, or unmasked after a
 * backtrack). Everything before the first of them whose results change is unchanged, and so is that
 * step's output, which precedes its results: the change starts at its first tool result. A step with
 * no tool results (or whose results have no tokens in either form) does not change. Batched masking
 * (maskBoundary.ts) leaves the boundary where it was between batch points: no step changes form, the whole
 * previous prompt is unchanged (at breakpoints too: its end was one). Cache hits lost
 * are the tokens the next prompt re-sends that the previous one held, outside the unchanged prefix: a
 * changed step's output and every later step held by both; a new placeholder is written, not lost.
 *
 * That is what a cache serving any prefix it saw serves (OpenAI's, DeepSeek's automatic prefix caching).
 * A provider that bills cache writes (Anthropic's) serves a read only from a prefix a cache breakpoint
 * wrote, where the client marked it: the end of each prompt, and system + goal (as for a slid window).
 * Once a step changed form the previous prompt's end is no prefix of the next, nor is any earlier
 * prompt's (each held a later-masked step unmasked, unless its last M steps had no tool results, which
 * the tracker does not look back for), so the cache serves system + goal and the rest is written again
 * (`breakpoints`, set per run: cacheAtBreakpoints). Sources: Anthropic's prompt caching docs (a request
 * hits the longest prefix written at an earlier breakpoint, looking back ~20 blocks from its own).
 */
import { CacheWrites } from './cacheWrites.js';
import type { ContextTracker } from './context.js';
import type { FlatPrices } from './prices.js';

/**
 * The run's cache serves only what a breakpoint wrote: its model bills cache writes and the run writes
 * (`cacheWrites`, as its cache mode leaves them: meter.ts boundWrites; a loop that asks for no writes
 * marks no breakpoint). The one rule the readable loop (LoopSession) and the compiled replay (strategySteps) set.
 */
export function cacheAtBreakpoints(prices: FlatPrices, cacheWrites: CacheWrites): boolean {
  return prices.hasCacheWritePrice && cacheWrites !== CacheWrites.None;
}

/** Tokens of steps a..e−1 in the next prompt's form (tool results of steps before `mask` masked). */
function between(t: ContextTracker, a: number, e: number, mask: number): number {
  if (e <= a) return 0;
  if (e <= mask) return t.maskedPrefix[e]! - t.maskedPrefix[a]!;
  if (a >= mask) return t.keptPrefix[e]! - t.keptPrefix[a]!;
  return t.maskedPrefix[mask]! - t.maskedPrefix[a]! + t.keptPrefix[e]! - t.keptPrefix[mask]!;
}

/** Tokens of step k's output. */
function outputOf(t: ContextTracker, k: number): number {
  return t.outputPrefix[k + 1]! - t.outputPrefix[k]!;
}

/** Step k's tool results differ between the masked and the kept form (it has any, and they have tokens in one form). */
function resultsChange(t: ContextTracker, k: number): boolean {
  const output = outputOf(t, k);
  return t.maskedPrefix[k + 1]! - t.maskedPrefix[k]! > output || t.keptPrefix[k + 1]! - t.keptPrefix[k]! > output;
}

/** promptTokens under masking / summaries. */
export function promptRewritten(t: ContextTracker): number {
  const first = t.firstKeptStep();
  return t.fixed + t.summaryTokens + between(t, first, t.length, t.maskStart(first));
}

/** The first step in start..end−1 whose tool results the previous prompt held in another form; `end` when none. */
function firstChangedStep(t: ContextTracker, start: number, end: number, mask: number): number {
  const previous = t.previousMaskStart;
  let k = mask < previous ? mask : previous;
  if (k < start) k = start;
  const last = mask < previous ? previous : mask;
  const stop = last < end ? last : end;
  for (; k < stop; k++) if (resultsChange(t, k)) return k;
  return end;
}

/** The steps both prompts hold: from the first kept step to the shared history length. */
function sharedEnd(t: ContextTracker, start: number): number {
  const shared = t.shared < t.length ? t.shared : t.length;
  return shared > start ? shared : start;
}

/** unchangedTokens under masking / summaries: the prompts agree up to the first tool result the moved masking boundary changed (at breakpoints: system + goal once one changed). */
export function unchangedRewritten(t: ContextTracker): number {
  // A summary rewrote everything after system + goal.
  if (t.rewritten) return t.fixed;
  const start = t.firstKeptStep();
  if (start !== t.previousStart) return t.fixed;
  const mask = t.maskStart(start);
  const end = sharedEnd(t, start);
  const changed = firstChangedStep(t, start, end, mask);
  // No breakpoint wrote a prefix ending inside the steps (see above): system + goal.
  if (t.breakpoints && changed < end) return t.fixed;
  const kept = between(t, start, changed, mask) + (changed < end ? outputOf(t, changed) : 0);
  return t.fixed + t.summaryTokens + kept;
}

/** Tokens of the steps both prompts hold in the same form, less the results of those whose form changed. */
function heldTokens(t: ContextTracker, start: number, end: number, mask: number): number {
  let held = between(t, start, end, mask);
  const previous = t.previousMaskStart;
  const first = mask < previous ? mask : previous;
  const last = mask < previous ? previous : mask;
  for (let k = first > start ? first : start; k < last && k < end; k++) {
    if (resultsChange(t, k)) held -= between(t, k, k + 1, mask) - outputOf(t, k);
  }
  return held;
}

/** cacheLostTokens under masking / summaries (after the first call): what the next prompt re-sends that the previous held, outside the unchanged prefix. */
export function rewrittenCacheLost(t: ContextTracker): number {
  const first = t.firstKeptStep();
  // Steps before the previous prompt's first were not in it (a backtrack can move a summary's start back).
  const start = first > t.previousStart ? first : t.previousStart;
  const end = sharedEnd(t, start);
  const held = heldTokens(t, start, end, t.maskStart(first));
  return t.fixed + (t.rewritten ? 0 : t.summaryTokens) + held - unchangedRewritten(t);
}

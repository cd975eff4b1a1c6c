/**
 * The context after a closed form (src/fast): calls a..x−1 of a compiled trace each added one closed
 * step whose kept and raw tokens are differences of running totals over calls (`kept`, `raw`: the
 * totals before call k at k·stride + offset, so interleaved records are read in place). The tracker's
 * prefix sums are written where a later call can read them, then the steps are taken as made
 * (skipSteps). And the cache hits such calls lose to a window that slides
 * (ContextTracker.cacheLostTokens), summed over the calls in O(1).
 */
import type { ContextTracker } from './context.js';

/**
 * `readBack`: how far back before the new length a later call reads the prefix sums — the window's
 * steps (0 for full history; the unchanged prefix reads one more), or Infinity when a later backtrack
 * may uncover any of them.
 */
export function appendClosedSteps(ctx: ContextTracker, kept: Float64Array, raw: Float64Array, a: number, x: number, readBack: number, stride = 1, offset = 0): void {
  const len = ctx.length;
  // Offsets as int32 (call indices arrive as doubles; a double index is converted at every read).
  const atA = (a * stride + offset) | 0;
  const keptBase = ctx.keptPrefix[len]! - kept[atA]!;
  const rawBase = ctx.rawPrefix[len]! - raw[atA]!;
  const from = readBack === Infinity ? a + 1 : Math.max(a + 1, x - readBack - 1);
  ctx.reserve(len + (x - a));
  const keptPrefix = ctx.keptPrefix;
  const rawPrefix = ctx.rawPrefix;
  const end = (x * stride + offset) | 0;
  const step = stride | 0;
  let at = (len + (from - a)) | 0;
  // No cap (kept = raw): one array, one load a step.
  if (kept === raw) {
    for (let i = (from * stride + offset) | 0; i <= end; i += step, at++) {
      const k = kept[i]!;
      keptPrefix[at] = keptBase + k;
      rawPrefix[at] = rawBase + k;
    }
  } else {
    for (let i = (from * stride + offset) | 0; i <= end; i += step, at++) {
      keptPrefix[at] = keptBase + kept[i]!;
      rawPrefix[at] = rawBase + raw[i]!;
    }
  }
  skipSteps(ctx, x - a);
}

/**
 * `steps` closed steps were added by calls each sent with the prompt before its step. The caller has
 * written keptPrefix/rawPrefix at the new length and one before it, and every other new entry a later
 * call can read (a window's, a backtrack's).
 */
export function skipSteps(ctx: ContextTracker, steps: number): void {
  if (steps <= 0) return;
  ctx.length += steps;
  ctx.shared = ctx.length - 1;
  const start = ctx.shared - ctx.keep;
  ctx.previousStart = start > 0 ? start : 0;
  ctx.closeStep();
}

/**
 * Σ cacheLostTokens over calls s..x−1 (0 when x ≤ s), each sent with the step of every call before it
 * in the context (no backtrack between), under a window of `keep` ≥ 1 steps that slid at each: the
 * previous prompt held steps up to the one before the last, the next starts `keep` steps back, so the
 * steps both hold that the slide moved out of the unchanged prefix (ContextTracker.slidWindowLost) are
 * calls k−keep..k−2's, K[k−1] − K[k−keep] tokens (K: the kept step tokens before a call). `keptSum`
 * holds Σ_{m<k} K[m] at k·stride + offset; s ≥ keep, and calls s−keep..x−1's steps are one run of the
 * trace's (the window holds only those).
 */
export function slidWindowLostOver(keptSum: Float64Array, s: number, x: number, keep: number, stride = 1, offset = 0): number {
  if (x <= s) return 0;
  // (Offsets as int32: a double index is converted at every read.)
  const upper = keptSum[((x - 1) * stride + offset) | 0]! - keptSum[((s - 1) * stride + offset) | 0]!;
  return upper - (keptSum[((x - keep) * stride + offset) | 0]! - keptSum[((s - keep) * stride + offset) | 0]!);
}

/** slidWindowLostOver added to total[at] (a run's record: no number returned, none boxed when the caller does not inline it). */
export function addSlidWindowLost(total: Float64Array, at: number, keptSum: Float64Array, s: number, x: number, keep: number, stride: number, offset: number): void {
  total[at] = total[at]! + slidWindowLostOver(keptSum, s, x, keep, stride, offset);
}

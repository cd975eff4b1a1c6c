/**
 * The context after a closed form (src/fast): calls a..x−1 of a compiled trace each added one closed
 * step whose kept and raw tokens are differences of running totals over calls (`keptBefore`,
 * `rawBefore`, indexed by call). The tracker's prefix sums are written where a later call can read
 * them, then the steps are taken as made (ContextTracker.skipSteps).
 */
import type { ContextTracker } from './context.js';

/**
 * `readBack`: how far back before the new length a later call reads the prefix sums — the window's
 * steps (0 for full history; the unchanged prefix reads one more), or Infinity when a later backtrack
 * may uncover any of them.
 */
export function appendClosedSteps(ctx: ContextTracker, keptBefore: Float64Array, rawBefore: Float64Array, a: number, x: number, readBack: number): void {
  const len = ctx.length;
  const keptBase = ctx.keptPrefix[len]! - keptBefore[a]!;
  const rawBase = ctx.rawPrefix[len]! - rawBefore[a]!;
  const from = readBack === Infinity ? a + 1 : Math.max(a + 1, x - readBack - 1);
  ctx.reserve(len + (x - a));
  const kept = ctx.keptPrefix;
  const raw = ctx.rawPrefix;
  for (let k = from, at = len + (from - a); k <= x; k++, at++) {
    kept[at] = keptBase + keptBefore[k]!;
    raw[at] = rawBase + rawBefore[k]!;
  }
  ctx.skipSteps(x - a);
}

/**
 * The kernel's closed-step rules (src/kernel/closedSteps.ts) against the tracker made call by call:
 * slidWindowLostOver sums what cacheLostTokens counts before each call of a run of closed steps under
 * a window (seeded draws: a failure reproduces), and appendClosedSteps reads interleaved records in place.
 */
import { describe, expect, it } from 'vitest';
import { appendClosedSteps, slidWindowLostOver } from '../../src/kernel/closedSteps.js';
import { ContextTracker } from '../../src/kernel/context.js';
import { lcg } from '../helpers.js';

/** Random step tokens κ_0..κ_{n−1} and their running sums K (before each call) and Σ K, interleaved at `stride`. */
function steps(next: (m: number) => number, n: number, stride: number, offset: number) {
  const kappa = Array.from({ length: n }, () => next(5_000));
  const K = new Float64Array(n + 1);
  const KS = new Float64Array(n + 1);
  for (let k = 0; k < n; k++) {
    K[k + 1] = K[k]! + kappa[k]!;
    KS[k + 1] = KS[k]! + K[k]!;
  }
  const records = new Float64Array((n + 1) * stride).fill(-1);
  const sums = new Float64Array((n + 1) * stride).fill(-1);
  for (let k = 0; k <= n; k++) {
    records[k * stride + offset] = K[k]!;
    sums[k * stride + offset] = KS[k]!;
  }
  return { kappa, K, KS, records, sums };
}

describe('closed steps', () => {
  it('slidWindowLostOver = Σ cacheLostTokens over the calls, call by call', () => {
    const next = lcg(20261204);
    for (let round = 0; round < 300; round++) {
      const n = 2 + next(60);
      const keep = 1 + next(12);
      const [stride, offset] = round % 2 === 0 ? [1, 0] : [5, 3];
      const { kappa, sums } = steps(next, n, stride, offset);
      const ctx = new ContextTracker(next(300), next(300));
      ctx.resetTo(ctx.fixed, keep, Infinity);
      // lostBefore[k]: Σ cacheLostTokens over calls 0..k−1.
      const lostBefore = [0];
      for (let k = 0; k < n; k++) {
        lostBefore.push(lostBefore[k]! + ctx.cacheLostTokens());
        ctx.markSent();
        ctx.addClosedStep(kappa[k]!, kappa[k]!);
      }
      for (let s = keep + 1; s <= n; s++) {
        const x = s + next(n - s + 1);
        expect(slidWindowLostOver(sums, s, x, keep, stride, offset)).toBe(lostBefore[x]! - lostBefore[s]!);
      }
      // Calls 0..keep: the window fills, nothing lost.
      expect(lostBefore[Math.min(n, keep + 1)]).toBe(0);
    }
  });

  it('appendClosedSteps from interleaved records leaves the prefix sums a later call reads as call by call', () => {
    const next = lcg(41);
    for (let round = 0; round < 200; round++) {
      const n = 2 + next(40);
      const keep = round % 3 === 0 ? Infinity : 1 + next(10);
      const [stride, offset] = round % 2 === 0 ? [1, 0] : [4, 2];
      const { kappa, records } = steps(next, n, stride, offset);
      const a = next(n);
      const x = a + 1 + next(n - a);
      const slow = new ContextTracker(100, 0);
      const fast = new ContextTracker(100, 0);
      slow.resetTo(100, keep, Infinity);
      fast.resetTo(100, keep, Infinity);
      for (const ctx of [slow, fast]) {
        for (let k = 0; k < a; k++) {
          ctx.markSent();
          ctx.addClosedStep(kappa[k]!, kappa[k]!);
        }
      }
      for (let k = a; k < x; k++) {
        slow.markSent();
        slow.addClosedStep(kappa[k]!, kappa[k]!);
      }
      appendClosedSteps(fast, records, records, a, x, keep === Infinity ? 0 : keep, stride, offset);
      expect(fast.length).toBe(slow.length);
      expect(fast.promptTokens()).toBe(slow.promptTokens());
      expect(fast.fullTokens()).toBe(slow.fullTokens());
      expect(fast.unchangedTokens()).toBe(slow.unchangedTokens());
      expect(fast.cacheLostTokens()).toBe(slow.cacheLostTokens());
    }
  });
});

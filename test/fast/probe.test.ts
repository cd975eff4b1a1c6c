/**
 * The closed form's search for the first call where a brake may fire looks first where the figure that
 * fired crosses its limit (src/fast/probe.ts), then steps out and bisects. Only the order of the looks
 * may change: checked here (fixed seeds: a failure reproduces) as a search over random monotone
 * predicates with random guesses — the same call as the first that holds, in at most a bisection's
 * looks twice over plus three — and as whole replays under a window with the timeout and the budget at
 * the run's own running totals ±1, against the readable loop, the guessing path taken.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import { compileTrace } from '../../src/fast/compile.js';
import { CallSearch, callSearchStats } from '../../src/fast/probe.js';
import { flattenPrices, replayFast } from '../../src/fast/replayFast.js';
import { runLoop } from '../../src/loop/run.js';
import { ReplaySource } from '../../src/loop/replaySource.js';
import type { CallRecord } from '../../src/trace/types.js';
import { figuresOf, handPriced, trace, lcg } from '../helpers.js';

/** The search as firstFiringCall drives it: first look at y − 1, a guess when it fires, then next(). */
function search(x: number, y: number, answer: number, guesses: [number, number][]): { found: number; looks: number } {
  const s = new CallSearch();
  let lo = x;
  let hi = y;
  let j = y - 1;
  let guessing = false;
  let looks = 0;
  while (lo < hi) {
    expect(j).toBeGreaterThanOrEqual(lo);
    expect(j).toBeLessThan(hi);
    looks++;
    const fires = j >= answer;
    if (fires) hi = j;
    else lo = j + 1;
    if (j === y - 1 && fires) {
      s.start(x);
      for (const [reached, limit] of guesses) s.crossing(j, reached, limit);
      guessing = s.guessed;
    }
    if (guessing) {
      j = s.next(j, fires, lo, hi);
      guessing = s.guessing;
    } else j = (lo + hi) >>> 1;
  }
  return { found: lo, looks };
}

describe('CallSearch: only the order of the looks changes', () => {
  it('finds the first call where a monotone predicate holds, whatever the guess', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 500 }),
        fc.integer({ min: 1, max: 500 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.array(fc.tuple(fc.double({ min: -10, max: 1e6, noNaN: true }), fc.double({ min: -1e6, max: 1e6, noNaN: true })), { maxLength: 2 }),
        (x, length, where, guesses) => {
          const y = x + length;
          const answer = x + Math.floor(where * (length + 1));
          const { found, looks } = search(x, y, answer, guesses);
          expect(found).toBe(Math.min(answer, y));
          expect(looks).toBeLessThanOrEqual(2 * Math.ceil(Math.log2(length + 1)) + 3);
        },
      ),
      { numRuns: 3000, seed: 9107 },
    );
  });

  it('a guess on the answer takes three looks', () => {
    // Calls 100..299, the first look at 299 fires; a figure of 600 over 199 calls reaching 450 crosses at 100 + ⌈450 · 199 / 600⌉ = 250.
    expect(search(100, 300, 250, [[600, 450]])).toEqual({ found: 250, looks: 3 });
  });

  it('guesses a convex figure (a per-call rate growing by steps) within a call of where it crosses', () => {
    const next = lcg(77);
    for (let round = 0; round < 500; round++) {
      // Call k of x..y−1 adds rate + slope·(k − x): the figure after n calls is rate·n + slope·n(n − 1)/2.
      const x = next(100);
      const n = 20 + next(300);
      const rate = 1 + next(5_000);
      const slope = 1 + next(2_000);
      const figure = (calls: number) => rate * calls + (slope * calls * (calls - 1)) / 2;
      const j = x + n - 1;
      const limit = rate + next(figure(n - 1) - rate);
      let crossing = 1;
      while (figure(crossing) < limit) crossing++;
      const s = new CallSearch();
      s.start(x);
      s.convexCrossing(j, figure(n - 1), figure(1), limit);
      expect(s.guessed).toBe(true);
      const guess = s.next(j, true, x, j);
      // The call before which the figure (over x..call−1) first reaches the limit.
      expect(Math.abs(guess - (x + crossing))).toBeLessThanOrEqual(1);
    }
  });
});

const pricing = handPriced('p', { input: 3, output: 15 }, 1_000_000);

/** Long plain traces (one tool call a step, whole latencies): one closed-form stretch per run. */
const plainTraceArb = fc.record({ n: fc.integer({ min: 40, max: 300 }), seed: fc.integer({ min: 1, max: 2 ** 30 }) }).map(({ n, seed }) => {
  const next = lcg(seed);
  const calls: CallRecord[] = [];
  for (let i = 0; i < n; i++) {
    calls.push({ type: 'call', outputTokens: 20 + next(400), latencyMs: 200 + next(3000), toolCalls: [{ name: 'run', arguments: { i }, resultTokens: next(900), latencyMs: 0 }] });
  }
  return trace(calls, { system: 900, goal: 100, origin: 'synthetic' });
});

describe('closed form with guessed looks = readable loop', () => {
  it('agrees under a window with the timeout and the budget at a running total ±1, and guesses', () => {
    const before = callSearchStats.guesses;
    fc.assert(
      fc.property(
        plainTraceArb,
        fc.constantFrom<ContextStrategy>({ kind: 'window', windowSteps: 8 }, { kind: 'window', windowSteps: 3 }, { kind: 'full' }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.constantFrom(-1, 0, 1),
        fc.subarray(['cost', 'time'] as const, { minLength: 1 }),
        (t, strategy, where, delta, brakes) => {
          const options = { strategy, cache: 'off' as const, pricing, systemTokens: t.header.systemTokens, goalTokens: t.header.goalTokens ?? 0 };
          const free = runLoop(new ReplaySource(t), { ...options, brakes: NO_BRAKES, keepSteps: true });
          const row = free.rows[Math.min(free.rows.length - 1, Math.floor(where * free.rows.length))]!;
          const config: BrakeConfig = { ...NO_BRAKES };
          if (brakes.includes('cost')) config.maxCostPico = Math.max(0, row.cumulativeCostPico + delta);
          if (brakes.includes('time')) config.timeoutMs = Math.max(0, Math.round(free.elapsedMs * where) + delta);
          const slow = runLoop(new ReplaySource(t), { ...options, brakes: config });
          expect(replayFast(compileTrace(t), config, strategy, 'off', flattenPrices(pricing))).toEqual(figuresOf(slow));
        },
      ),
      { numRuns: 300, seed: 5113 },
    );
    expect(callSearchStats.guesses - before).toBeGreaterThan(20);
  });
});

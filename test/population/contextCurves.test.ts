/**
 * The sweep's context-token curves (src/population/contextTokens.ts) come from the compiled kernel's run
 * tables (the figures before every call), or the readable loop's rows for strategies that rewrite older
 * steps: over random runs (recorded prompt sizes and cache figures, backtracks, failed and unparseable
 * calls), strategies (windows, tool-result caps, masking, cache on/off/as recorded), prices (tiers, a
 * provider's minimum cacheable prefix) and latency models, each run's sums equal the readable loop's rows
 * (its cumulative prompt tokens after every call but summary calls), to the last token.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import { contextCurvesOf, contextTokenSums, mergeContextTokenSums, type ContextTokenSums } from '../../src/population/contextTokens.js';
import { replayTrace } from '../../src/replay/replay.js';
import { callArb, pricings, strategyArb } from '../core/arbitraries.js';
import { handTable, trace } from '../helpers.js';

const cacheArb = fc.constantFrom(undefined, 'on' as const, 'off' as const, 'recorded' as const);
const strategiesArb = fc.array(
  fc.record({ base: strategyArb, cache: cacheArb, mask: fc.constantFrom(undefined, undefined, undefined, 1, 3) }).map(({ base, cache, mask }): ContextStrategy => ({
    ...(mask === undefined ? base : { kind: 'mask', maskSteps: mask, ...(base.toolResultCap === undefined ? {} : { toolResultCap: base.toolResultCap }) }),
    ...(cache === undefined ? {} : { cache }),
  })),
  { minLength: 1, maxLength: 3 },
);

/** The readable loop's rows, summed over the runs as the curves are (a run that ended stays flat). */
function readableSums(runs: ReturnType<typeof trace>[], strategies: readonly ContextStrategy[], prices: ReturnType<typeof handTable>, latency?: { perCallMs: number; perInputTokenMs: number; perOutputTokenMs: number; perToolCallMs: number }): number[][] {
  return strategies.map((strategy) => {
    const perRun = runs.map((run) => replayTrace(run, { strategy, prices, brakes: NO_BRAKES, keepSteps: true, ...(latency === undefined ? {} : { latency }) }).rows.filter((row) => row.summary !== true).map((row) => row.cumulativeInputTokens));
    const last = Math.max(0, ...perRun.map((r) => r.length));
    return Array.from({ length: last }, (_, k) => perRun.reduce((sum, r) => sum + (r.length === 0 ? 0 : r[Math.min(k, r.length - 1)]!), 0));
  });
}

describe('context-token curves = the readable loop’s rows', () => {
  it('random runs, strategies, cache modes, prices and latency models (fixed seed)', () => {
    let compiledCells = 0;
    fc.assert(
      fc.property(
        fc.array(fc.record({ calls: fc.array(callArb, { maxLength: 30 }), system: fc.integer({ min: 0, max: 3000 }), origin: fc.constantFrom('recorded' as const, 'synthetic' as const) }), { minLength: 1, maxLength: 4 }),
        strategiesArb,
        fc.nat({ max: pricings.length - 1 }),
        fc.option(fc.record({ perCallMs: fc.integer({ min: 0, max: 900 }), perInputTokenMs: fc.constantFrom(0, 1), perOutputTokenMs: fc.constantFrom(0, 2), perToolCallMs: fc.integer({ min: 0, max: 50 }) }), { nil: undefined }),
        (specs, strategies, p, latency) => {
          const pricing = pricings[p]!;
          const prices = handTable(pricing);
          const runs = specs.map((s) => trace(s.calls, { system: s.system, origin: s.origin, model: pricing.model }));
          const sums = contextTokenSums(runs, strategies.map((strategy, i) => ({ spec: `s${i}`, strategy })), prices, latency === undefined ? {} : { latency });
          expect(sums.sums).toEqual(readableSums(runs, strategies, prices, latency));
          compiledCells += strategies.filter((s) => s.kind !== 'mask').length;
        },
      ),
      { numRuns: 250, seed: 7713 },
    );
    expect(compiledCells).toBeGreaterThan(250);
  });
});

describe('context-token sums of many runs', () => {
  it('40,000 shares of one run under 4 strategies merge (no spread of 160,000 lengths into Math.max)', () => {
    const parts: ContextTokenSums[] = Array.from({ length: 40_000 }, (_, i) => ({ strategies: ['full', 'w4', 'w8', 'w16'], runs: 1, sums: [0, 1, 2, 3].map((s) => Array.from({ length: 1 + ((i + s) % 3) }, (_, k) => (k + 1) * (s + 1))) }));
    const merged = mergeContextTokenSums(parts);
    expect(merged.runs).toBe(40_000);
    expect(merged.sums.map((byStep) => byStep.length)).toEqual([3, 3, 3, 3]);
    // Strategy 0: a third of the runs end after each of steps 1, 2, 3 (lengths 1, 2, 3 by i % 3), staying flat.
    const third = 40_000 / 3;
    expect(merged.sums[0]![0]).toBe(40_000);
    expect(merged.sums[0]![2]).toBe(Math.ceil(third) * 1 + Math.floor(third) * 2 + Math.floor(third) * 3);
    expect(contextCurvesOf(merged).steps.map((s) => s.step)).toEqual([1, 2, 3]);
  });
});

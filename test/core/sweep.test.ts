/**
 * The sweep primitive (src/fast/sweep.ts) against replaying each cell alone: for every trace and cell of
 * random grids (step caps × repeat limits × windows, with other brakes, cache modes and prices), the
 * figures must be the per-cell replay's, to the last digit; and sweeping in slices then merging must give
 * the same as one sweep.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import type { CacheMode, ContextStrategy } from '../../src/context/strategy.js';
import { compileTrace } from '../../src/fast/compile.js';
import { replayFast } from '../../src/fast/replayFast.js';
import { mergeSweeps, sweepCompiled, sweepTotals, type SweepGrid, type SweepTrace } from '../../src/fast/sweep.js';
import { flattenPrices } from '../../src/kernel/prices.js';
import type { CallRecord } from '../../src/trace/types.js';
import { trace } from '../helpers.js';
import { brakesArb, callArb, pricings } from './arbitraries.js';

const traceArb = fc.record({
  calls: fc.array(callArb, { maxLength: 40 }),
  system: fc.integer({ min: 0, max: 3000 }),
  outcome: fc.constantFrom('completed' as const, 'error' as const),
  price: fc.constantFrom(0, 1, 2),
  cache: fc.constantFrom<CacheMode>('off', 'recorded', 'on'),
});

const gridArb: fc.Arbitrary<SweepGrid> = fc
  .record({
    base: brakesArb,
    caps: fc.array(fc.option(fc.integer({ min: 0, max: 45 }), { nil: undefined }), { minLength: 1, maxLength: 6 }),
    repeats: fc.array(fc.record({ maxRepeat: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }), repeatMode: fc.constantFrom('total' as const, 'consecutive' as const, 'cycle' as const) }), { minLength: 1, maxLength: 3 }),
    windows: fc.array(fc.record({ window: fc.option(fc.integer({ min: 0, max: 8 }), { nil: undefined }), cap: fc.option(fc.integer({ min: 0, max: 2000 }), { nil: undefined }) }), { minLength: 1, maxLength: 3 }),
    budgets: fc.array(fc.option(fc.integer({ min: 0, max: 50_000_000_000 }), { nil: undefined }), { minLength: 1, maxLength: 2 }),
    cache: fc.option(fc.constantFrom<CacheMode>('on', 'off'), { nil: undefined }),
    latency: fc.option(fc.record({ perCallMs: fc.integer({ min: 0, max: 2000 }), perInputTokenMs: fc.constantFrom(0, 0.01), perOutputTokenMs: fc.constantFrom(0, 7), perToolCallMs: fc.integer({ min: 0, max: 900 }) }), { nil: undefined }),
  })
  .map(({ base, caps, repeats, windows, budgets, cache, latency }) => {
    const brakes = { ...NO_BRAKES, ...base } as BrakeConfig;
    const grid: SweepGrid = {
      brakes,
      strategy: { kind: 'full', ...(cache === undefined ? {} : { cache }) },
      axes: [
        { name: 'window', values: windows.map(({ window, cap }) => ({ strategy: { kind: window === undefined ? 'full' : 'window', windowSteps: window, toolResultCap: cap } as Partial<ContextStrategy> })) },
        { name: 'budget', values: budgets.map((maxCostPico) => ({ brakes: { maxCostPico } })) },
        { name: 'repeat', values: repeats.map((r) => ({ brakes: r })) },
        { name: 'max-steps', values: caps.map((maxSteps) => ({ brakes: { maxSteps } })) },
      ],
    };
    if (latency !== undefined) grid.latency = latency;
    return grid;
  });

type TraceSpec = typeof traceArb extends fc.Arbitrary<infer T> ? T : never;

function sweepTraces(specs: TraceSpec[]): SweepTrace[] {
  return specs.map((s) => ({ compiled: compileTrace(trace(s.calls, { system: s.system, outcome: s.outcome })), prices: flattenPrices(pricings[s.price]!), cache: s.cache }));
}

/** A window patch may leave windowSteps undefined: the strategy the cell replays is what the sweep used. */
function cleanStrategy(s: ContextStrategy): ContextStrategy {
  return Object.fromEntries(Object.entries(s).filter(([, v]) => v !== undefined)) as unknown as ContextStrategy;
}

describe('sweepCompiled = replaying each cell alone', () => {
  it('every (trace, cell) of random grids (windows × budgets × repeat limits × step caps) gets the per-cell replay’s figures', () => {
    fc.assert(
      fc.property(fc.array(traceArb, { minLength: 1, maxLength: 4 }), gridArb, (specs, grid) => {
        const traces = sweepTraces(specs);
        const result = sweepCompiled(traces, grid);
        traces.forEach((t, i) => {
          result.cells.forEach((cell, c) => {
            const strategy = cleanStrategy(cell.strategy);
            const alone = replayFast(t.compiled, cell.brakes, strategy, strategy.cache ?? t.cache, t.prices, grid.latency);
            expect(sweepTotals(result, i, c)).toEqual(alone);
          });
        });
      }),
      { numRuns: 400, seed: 7701 },
    );
  });

  it('a grid of max-steps × max-repeat × window on longer traces: every cell as replayed alone', () => {
    // Six 150-call runs that revisit a few actions (so repeat limits bite at different calls).
    const traces = [1, 2, 3, 4, 5, 6].map((seed) => {
      let x = seed;
      const next = (m: number) => ((x = (x * 1103515245 + 12345) % 2 ** 31), x % m);
      const calls: CallRecord[] = Array.from({ length: 150 }, () => ({
        type: 'call',
        outputTokens: 20 + next(300),
        latencyMs: 500 + next(2000),
        toolCalls: [{ name: 'run', arguments: { cmd: next(4 + seed * 6) }, resultTokens: next(900), latencyMs: next(500) }],
      }));
      return { compiled: compileTrace(trace(calls, { system: 800 })), prices: flattenPrices(pricings[seed % 3]!), cache: (seed % 2 === 0 ? 'on' : 'off') as CacheMode };
    });
    const grid: SweepGrid = {
      brakes: { ...NO_BRAKES, timeoutMs: 120_000 },
      strategy: { kind: 'full' },
      axes: [
        { name: 'max-steps', values: [1, 2, 5, 10, 20, 40, 80, 120].map((maxSteps) => ({ brakes: { maxSteps } })) },
        { name: 'max-repeat', values: [undefined, 1, 2, 3].map((maxRepeat) => ({ brakes: { maxRepeat } })) },
        { name: 'window', values: [undefined, 1, 2, 4, 8].map((w) => ({ strategy: w === undefined ? { kind: 'full' as const } : { kind: 'window' as const, windowSteps: w } })) },
      ],
    };
    const result = sweepCompiled(traces, grid);
    const reasons = new Set<string>();
    traces.forEach((t, i) =>
      result.cells.forEach((cell, c) => {
        const alone = replayFast(t.compiled, cell.brakes, cleanStrategy(cell.strategy), t.cache, t.prices);
        expect(sweepTotals(result, i, c)).toEqual(alone);
        reasons.add(alone.reason);
      }),
    );
    expect([...reasons].sort()).toEqual(['max_steps', 'repeat', 'timeout']);
  });

  it('a result reused (into), of as many traces or more, gives the same figures as a fresh one', () => {
    fc.assert(
      fc.property(fc.array(traceArb, { minLength: 2, maxLength: 2 }), fc.array(traceArb, { minLength: 2, maxLength: 2 }), gridArb, (first, second, grid) => {
        const a = sweepTraces(first);
        const b = sweepTraces(second);
        const reused = sweepCompiled(b, grid, undefined, sweepCompiled(a, grid));
        const fresh = sweepCompiled(b, grid);
        for (let i = 0; i < 2; i++) for (let c = 0; c < fresh.cells.length; c++) expect(sweepTotals(reused, i, c)).toEqual(sweepTotals(fresh, i, c));
        // A shorter slice into a longer result's columns (views of them), figures as a fresh one's.
        const longer = sweepCompiled([...a, ...b], grid);
        const shorter = sweepCompiled(b, grid, { from: 1, to: 2 }, longer);
        const alone = sweepCompiled(b, grid, { from: 1, to: 2 });
        for (let c = 0; c < alone.cells.length; c++) expect(sweepTotals(shorter, 1, c)).toEqual(sweepTotals(alone, 1, c));
      }),
      { numRuns: 100, seed: 7704 },
    );
  });

  it('slices of traces swept apart and merged (in any order) = one sweep', () => {
    fc.assert(
      fc.property(fc.array(traceArb, { minLength: 2, maxLength: 6 }), gridArb, fc.integer({ min: 1, max: 5 }), (specs, grid, cut) => {
        const traces = sweepTraces(specs);
        const whole = sweepCompiled(traces, grid);
        const at = Math.min(cut, traces.length - 1);
        const merged = mergeSweeps([sweepCompiled(traces, grid, { from: at, to: traces.length }), sweepCompiled(traces, grid, { from: 0, to: at })]);
        expect({ ...merged, cells: undefined }).toEqual({ ...whole, cells: undefined });
      }),
      { numRuns: 100, seed: 7703 },
    );
  });
});

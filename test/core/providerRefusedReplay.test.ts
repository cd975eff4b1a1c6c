/**
 * A recording that ends in its provider's refusal of a call past the window (a failed call with
 * `failed.contextLengthExceeded`, its run's last): replayed, the run ends there, `provider_refused`, after
 * the brakes before that call, as the closed loop ended it (LoopSession.providerRefused): the call made,
 * failed, no step, paid nothing, its time counted, its numbers in the detail. The compiled kernel (every
 * path: per-step loop, closed forms, run tables, stepwise strategies, sweeps) = the readable loop.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import type { CacheMode, ContextStrategy } from '../../src/context/strategy.js';
import { compileTrace } from '../../src/fast/compile.js';
import { flattenPrices, replayFast } from '../../src/fast/replayFast.js';
import { sweepCompiled, sweepTotals, type SweepGrid } from '../../src/fast/sweep.js';
import { ReplaySource } from '../../src/loop/replaySource.js';
import { runLoop } from '../../src/loop/run.js';
import { replayTrace, type ReplayOptions } from '../../src/replay/replay.js';
import type { CallRecord, ContextLengthExceeded } from '../../src/trace/types.js';
import { figuresOf, MINI_TABLE, trace } from '../helpers.js';
import { brakesArb, callArb, pricings, strategyArb } from './arbitraries.js';

const refusalArb: fc.Arbitrary<CallRecord> = fc
  .record({
    latencyMs: fc.option(fc.integer({ min: 0, max: 4000 }), { nil: undefined }),
    promptTokens: fc.option(fc.integer({ min: 1000, max: 200_000 }), { nil: undefined }),
    maxOutputTokens: fc.option(fc.integer({ min: 1, max: 8192 }), { nil: undefined }),
    contextWindowTokens: fc.option(fc.integer({ min: 1000, max: 200_000 }), { nil: undefined }),
  })
  .map(({ latencyMs, ...numbers }) => {
    const contextLengthExceeded = Object.fromEntries(Object.entries(numbers).filter(([, v]) => v !== undefined)) as ContextLengthExceeded;
    return { type: 'call', outputTokens: 0, ...(latencyMs === undefined ? {} : { latencyMs }), failed: { status: 400, message: 'context_length_exceeded', contextLengthExceeded } };
  });

/** Calls, most of them ending in a refusal. */
const refusedCallsArb = fc.tuple(fc.array(callArb, { maxLength: 40 }), fc.option(refusalArb, { nil: undefined, freq: 5 })).map(([calls, refused]) => (refused ? [...calls, refused] : calls));

const latencyArb = fc.option(fc.record({ perCallMs: fc.integer({ min: 0, max: 2000 }), perInputTokenMs: fc.constantFrom(0, 0.01, 0.05), perOutputTokenMs: fc.constantFrom(0, 7, 20), perToolCallMs: fc.integer({ min: 0, max: 900 }) }), { nil: undefined });

/** Strategies that rewrite history go call by call (strategySteps.ts). */
const rewritingArb = fc.constantFrom<ContextStrategy>(
  { kind: 'mask', maskSteps: 2 },
  { kind: 'summary', summary: { triggerPercent: 50, keepSteps: 2, summaryTokens: 300 } },
  { kind: 'hybrid', maskSteps: 3, summary: { triggerPercent: 70, keepSteps: 1, summaryTokens: 200 } },
);

describe('a recorded refusal ends the replay provider_refused: compiled = readable', () => {
  it('figures on random traces (most ending refused), brakes, strategies, cache modes, prices and latency models', () => {
    const reasons = new Set<string>();
    fc.assert(
      fc.property(refusedCallsArb, fc.integer({ min: 0, max: 3000 }), fc.constantFrom('completed' as const, 'error' as const), brakesArb, fc.oneof(strategyArb, rewritingArb), fc.constantFrom<CacheMode>('on', 'off', 'recorded'), fc.constantFrom(0, 1, 2), latencyArb, (calls, system, outcome, brakes, strategy, cache, priceIndex, latency) => {
        const t = trace(calls, { system, outcome });
        const pricing = pricings[priceIndex]!;
        const config = { ...NO_BRAKES, ...brakes };
        const slow = runLoop(new ReplaySource(t), { brakes: config, strategy, cache, pricing, systemTokens: system, goalTokens: 0, ...(latency ? { latency } : {}) });
        const compiled = compileTrace(t);
        const fast = replayFast(compiled, config, strategy, cache, flattenPrices(pricing), latency);
        expect(fast).toEqual(figuresOf(slow));
        reasons.add(fast.reason);
      }),
      // 800 cases (were 2,500): bugs planted in the refused call's figures (its call not counted, its time one off or
      // dropped in the per-step loop or in a stepwise strategy) each failed within its first 45 cases.
      { numRuns: 800, seed: 7601 },
    );
    expect(reasons).toContain('provider_refused');
  });

  it('the whole RunResult (stop detail with the refusal’s numbers, recorded sums), replayed twice (the second from a run table)', () => {
    let refused = 0;
    fc.assert(
      fc.property(refusedCallsArb, brakesArb, fc.constantFrom<ContextStrategy>({ kind: 'full' }, { kind: 'full', cache: 'on' }, { kind: 'window', windowSteps: 3, toolResultCap: 500 }, { kind: 'full', cache: 'recorded' }), latencyArb, (calls, brakes, strategy, latency) => {
        const t = trace(calls, { origin: 'recorded' });
        const options: ReplayOptions = { brakes: { ...NO_BRAKES, ...brakes }, strategy, prices: MINI_TABLE, ...(latency ? { latency } : {}) };
        const readable = replayTrace(t, { ...options, engine: 'readable' });
        expect(replayTrace(t, { ...options, engine: 'compiled' })).toEqual(readable);
        expect(replayTrace(t, { ...options, engine: 'compiled' })).toEqual(readable);
        if (readable.stopReason === 'provider_refused') refused++;
      }),
      { numRuns: 1500, seed: 7602 },
    );
    expect(refused).toBeGreaterThan(100);
  });

  it('a sweep: every (trace, cell) as the cell replayed alone', () => {
    const gridArb = fc.record({ base: brakesArb, caps: fc.array(fc.option(fc.integer({ min: 0, max: 45 }), { nil: undefined }), { minLength: 1, maxLength: 4 }), windows: fc.array(fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined }), { minLength: 1, maxLength: 3 }), latency: latencyArb }).map(({ base, caps, windows, latency }) => {
      const grid: SweepGrid = {
        brakes: { ...NO_BRAKES, ...base } as BrakeConfig,
        strategy: { kind: 'full' },
        axes: [
          { name: 'window', values: windows.map((w) => ({ strategy: w === undefined ? { kind: 'full' as const } : { kind: 'window' as const, windowSteps: w } })) },
          { name: 'max-steps', values: caps.map((maxSteps) => ({ brakes: { maxSteps } })) },
        ],
      };
      if (latency !== undefined) grid.latency = latency;
      return grid;
    });
    fc.assert(
      fc.property(fc.array(fc.record({ calls: refusedCallsArb, price: fc.constantFrom(0, 1, 2), cache: fc.constantFrom<CacheMode>('off', 'recorded', 'on') }), { minLength: 1, maxLength: 4 }), gridArb, (specs, grid) => {
        const traces = specs.map((s) => ({ compiled: compileTrace(trace(s.calls, { system: 500 })), prices: flattenPrices(pricings[s.price]!), cache: s.cache }));
        const result = sweepCompiled(traces, grid);
        traces.forEach((t, i) =>
          result.cells.forEach((cell, c) => {
            const strategy = Object.fromEntries(Object.entries(cell.strategy).filter(([, v]) => v !== undefined)) as unknown as ContextStrategy;
            expect(sweepTotals(result, i, c)).toEqual(replayFast(t.compiled, cell.brakes, strategy, strategy.cache ?? t.cache, t.prices, grid.latency));
          }),
        );
      }),
      // 150 grids (were 300): the refused call's time dropped in the sweep's closed pass or its run tables failed within 11.
      { numRuns: 150, seed: 7603 },
    );
  });

  it('by hand: the stop, its figures and detail; a brake before the refused call wins; numbers the log lacks are left out of the detail', () => {
    const step = (i: number): CallRecord => ({ type: 'call', outputTokens: 100, latencyMs: 1000, toolCalls: [{ name: 'read', arguments: { i }, resultTokens: 400, latencyMs: 200 }] });
    const refusal = (contextLengthExceeded: ContextLengthExceeded): CallRecord => ({ type: 'call', outputTokens: 0, latencyMs: 300, failed: { status: 400, message: 'too long', contextLengthExceeded } });
    const options: ReplayOptions = { brakes: NO_BRAKES, strategy: { kind: 'full' }, prices: MINI_TABLE };
    const calls = [step(0), step(1), step(2), refusal({ promptTokens: 1600, maxOutputTokens: 4096, contextWindowTokens: 5000 })];
    for (const engine of ['compiled', 'readable'] as const) {
      const r = replayTrace(trace(calls), { ...options, engine });
      const [unrefused] = [replayTrace(trace(calls.slice(0, 3)), { ...options, engine })];
      expect([r.stopReason, r.stopDetail, r.steps, r.failedCalls, r.costPico, r.elapsedMs]).toEqual([
        'provider_refused',
        'the provider refused the call: prompt of 1600 tokens + max_tokens 4096 > context window 5000',
        3,
        1,
        unrefused!.costPico,
        3 * 1200 + 300,
      ]);
      expect(replayTrace(trace(calls), { ...options, engine, brakes: { ...NO_BRAKES, maxSteps: 3 } }).stopReason).toBe('max_steps');
      expect(replayTrace(trace([step(0), refusal({ contextWindowTokens: 200_000 })]), { ...options, engine }).stopDetail).toBe('the provider refused the call for its length (window 200000; prompt and max_tokens not recorded)');
      expect(replayTrace(trace([refusal({})]), { ...options, engine }).stopDetail).toBe('the provider refused the call for its length (none of its numbers recorded)');
    }
  });
});

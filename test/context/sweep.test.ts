/** Sweep grids over masking, summaries, hybrid and the skip guard: each cell as replayed alone (the figures a sweep keeps). */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { parseContextSpec, type CacheMode } from '../../src/context/strategy.js';
import { compileTrace } from '../../src/fast/compile.js';
import { replayFast } from '../../src/fast/replayFast.js';
import { sweepCompiled, sweepTotals, type SweepGrid } from '../../src/fast/sweep.js';
import { flattenPrices } from '../../src/kernel/prices.js';
import type { CallRecord } from '../../src/trace/types.js';
import { trace } from '../helpers.js';
import { pricings } from '../core/arbitraries.js';

describe('sweepCompiled over the new strategies', () => {
  it('every (trace, cell) has the per-cell replay’s stop, calls, cost, tokens, cache figures and time', () => {
    const traces = [1, 2, 3].map((seed) => {
      let x = seed;
      const next = (m: number) => ((x = (x * 1103515245 + 12345) % 2 ** 31), x % m);
      const calls: CallRecord[] = Array.from({ length: 60 }, () => ({
        type: 'call',
        outputTokens: 20 + next(300),
        latencyMs: 500 + next(2000),
        toolCalls: [{ name: 'run', arguments: { cmd: next(3 + seed * 4) }, resultTokens: next(1500), latencyMs: next(500) }],
      }));
      return { compiled: compileTrace(trace(calls, { system: 800 })), prices: flattenPrices(pricings[seed % 3]!), cache: (seed % 2 === 0 ? 'on' : 'off') as CacheMode };
    });
    const specs = ['full', 'mask:3', 'mask:6,placeholder=0', 'summary:trigger=12000,keep=3,tokens=800', 'hybrid:mask=4,trigger=9000,keep=2,tokens=500'];
    const grid: SweepGrid = {
      brakes: { ...NO_BRAKES },
      strategy: { kind: 'full' },
      axes: [
        { name: 'context', values: specs.map((spec) => ({ strategy: parseContextSpec(spec) })) },
        { name: 'repeat', values: [{ brakes: {} }, { brakes: { maxRepeat: 2 } }, { brakes: { maxRepeat: 1, repeatAction: 'skip' as const, maxSkips: 4 } }] },
        { name: 'max-steps', values: [10, 40].map((maxSteps) => ({ brakes: { maxSteps } })) },
      ],
    };
    const result = sweepCompiled(traces, grid);
    let skips = 0;
    let summaries = 0;
    traces.forEach((t, i) =>
      result.cells.forEach((cell, c) => {
        const alone = replayFast(t.compiled, cell.brakes, cell.strategy, cell.strategy.cache ?? t.cache, t.prices);
        const swept = sweepTotals(result, i, c);
        // Input and output apart, and the summary calls and their cost (a summary call's output is output, not input).
        const keep = ({ reason, calls, costPico, inputTokens, outputTokens, cachedInputTokens, elapsedMs, toolCalls, skippedActions, strategyCacheLostTokens, summaryCalls, summaryCostPico }: typeof alone) =>
          ({ reason, calls, costPico, inputTokens, outputTokens, cachedInputTokens, elapsedMs, toolCalls, skippedActions, strategyCacheLostTokens, summaryCalls, summaryCostPico });
        expect(keep(swept)).toEqual(keep(alone));
        if (alone.skippedActions) skips++;
        if (alone.summaryCalls) summaries++;
      }),
    );
    // The skip cells skipped actions: those are not tool calls (sweepTotals once counted them).
    expect(skips).toBeGreaterThan(0);
    expect(summaries).toBeGreaterThan(0);
  });

  it('a skipped action is not a tool call: hand-checked', () => {
    // One action, repeated: the first runs, the next two are skipped (max-repeat 1, skip), the answer ends the run.
    const calls: CallRecord[] = [1, 2, 3].map(() => ({ type: 'call', outputTokens: 10, toolCalls: [{ name: 'run', arguments: { cmd: 'ls' }, resultTokens: 50 }] }));
    calls.push({ type: 'call', outputTokens: 10, final: true });
    const t = { compiled: compileTrace(trace(calls, { system: 100 })), prices: flattenPrices(pricings[0]!), cache: 'off' as CacheMode };
    const grid: SweepGrid = { brakes: { ...NO_BRAKES, maxRepeat: 1, repeatAction: 'skip' }, strategy: { kind: 'full' }, axes: [{ name: 'max-skips', values: [{ brakes: { maxSkips: 5 } }] }] };
    const swept = sweepTotals(sweepCompiled([t], grid), 0, 0);
    expect(swept.skippedActions).toBe(2);
    expect(swept.toolCalls).toBe(1);
  });
});

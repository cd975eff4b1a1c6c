/**
 * The sweep's closed-form passes (src/fast/sweepClosed.ts: plain calls, cache off, one price tier,
 * whole recorded latencies — no run table) against replaying each cell alone: every (trace, cell) of
 * random grids over windows, tool-result caps, budgets, token caps, context windows, timeouts, repeat
 * limits and step caps gets the per-cell replay's figures to the last digit.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import { compileTrace } from '../../src/fast/compile.js';
import { replayFast } from '../../src/fast/replayFast.js';
import { runSettings } from '../../src/fast/settings.js';
import { sweepCompiled, sweepTotals, type SweepGrid, type SweepTrace } from '../../src/fast/sweep.js';
import { closedPassApplies } from '../../src/fast/sweepClosed.js';
import { CAP_CLOSED, CAP_SUMS } from '../../src/fast/sweepResult.js';
import { flattenPrices } from '../../src/kernel/prices.js';
import type { CallRecord } from '../../src/trace/types.js';
import { trace } from '../helpers.js';
import { pricings } from './arbitraries.js';

/** A plain call: a step whose tool calls all run, every latency recorded as a whole number. */
const plainCallArb: fc.Arbitrary<CallRecord> = fc
  .record({
    outputTokens: fc.integer({ min: 0, max: 1500 }),
    reasoning: fc.integer({ min: 0, max: 800 }),
    latencyMs: fc.integer({ min: 0, max: 4000 }),
    tools: fc.array(fc.record({ x: fc.integer({ min: 0, max: 4 }), resultTokens: fc.integer({ min: 0, max: 4000 }), latencyMs: fc.integer({ min: 0, max: 2000 }), error: fc.boolean() }), { minLength: 1, maxLength: 2 }),
  })
  .map(({ outputTokens, reasoning, latencyMs, tools }) => ({
    type: 'call',
    outputTokens,
    reasoningTokens: Math.min(reasoning, outputTokens),
    latencyMs,
    ...(tools.length > 0 ? { toolCalls: tools.map((t) => ({ name: 'run', arguments: { x: t.x }, resultTokens: t.resultTokens, latencyMs: t.latencyMs, ...(t.error ? { error: 'exit 1' } : {}) })) } : {}),
  }));

const opt = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

const gridArb: fc.Arbitrary<SweepGrid> = fc
  .record({
    timeoutMs: opt(fc.integer({ min: 0, max: 60_000 })),
    maxTokens: opt(fc.integer({ min: 1, max: 300_000 })),
    contextWindow: opt(fc.integer({ min: 500, max: 30_000 })),
    maxSameError: opt(fc.integer({ min: 1, max: 3 })),
    caps: fc.array(opt(fc.integer({ min: 0, max: 45 })), { minLength: 1, maxLength: 6 }),
    windows: fc.array(fc.record({ window: opt(fc.integer({ min: 0, max: 8 })), cap: opt(fc.integer({ min: 0, max: 2000 })) }), { minLength: 1, maxLength: 3 }),
    budgets: fc.array(fc.record({ maxCostPico: opt(fc.integer({ min: 0, max: 20_000_000_000 })), budgetMode: fc.constantFrom('check' as const, 'check' as const, 'predict' as const) }), { minLength: 1, maxLength: 2 }),
    repeats: fc.array(fc.record({ maxRepeat: opt(fc.integer({ min: 1, max: 4 })), repeatMode: fc.constantFrom('total' as const, 'consecutive' as const, 'cycle' as const) }), { minLength: 1, maxLength: 2 }),
  })
  .map(({ timeoutMs, maxTokens, contextWindow, maxSameError, caps, windows, budgets, repeats }) => {
    const base = Object.fromEntries(Object.entries({ timeoutMs, maxTokens, contextWindow, maxSameError }).filter(([, v]) => v !== undefined));
    return {
      brakes: { ...NO_BRAKES, ...base } as BrakeConfig,
      strategy: { kind: 'full' },
      axes: [
        { name: 'window', values: windows.map(({ window, cap }) => ({ strategy: { kind: window === undefined ? 'full' : 'window', windowSteps: window, toolResultCap: cap } as Partial<ContextStrategy> })) },
        { name: 'budget', values: budgets.map((b) => ({ brakes: b })) },
        { name: 'repeat', values: repeats.map((r) => ({ brakes: r })) },
        { name: 'max-steps', values: caps.map((maxSteps) => ({ brakes: { maxSteps } })) },
      ],
    };
  });

const traceArb = fc.record({ calls: fc.array(plainCallArb, { maxLength: 40 }), system: fc.integer({ min: 0, max: 3000 }), outcome: fc.constantFrom('completed' as const, 'unknown' as const) });

function cleanStrategy(s: ContextStrategy): ContextStrategy {
  return Object.fromEntries(Object.entries(s).filter(([, v]) => v !== undefined)) as unknown as ContextStrategy;
}

describe('sweep passes in closed form = replaying each cell alone', () => {
  it('plain traces (cache off, one price tier, whole latencies): every (trace, cell) of random grids', () => {
    const prices = flattenPrices(pricings[0]!);
    let closed = 0;
    let total = 0;
    // Step cap stops marked over the trace's own sums (slid windows among them) and written with a tool-result cap.
    const marks = { ownSums: 0, ownSumsSlid: 0, written: 0 };
    fc.assert(
      fc.property(fc.array(traceArb, { minLength: 1, maxLength: 4 }), gridArb, (specs, grid) => {
        const traces: SweepTrace[] = specs.map((s) => ({ compiled: compileTrace(trace(s.calls, { system: s.system, outcome: s.outcome })), prices, cache: 'off' }));
        const result = sweepCompiled(traces, grid);
        traces.forEach((t, i) => {
          result.cells.forEach((cell, c) => {
            const strategy = cleanStrategy(cell.strategy);
            total++;
            const mark = result.stop[i * result.cells.length + c];
            if (mark === CAP_SUMS) marks.ownSums++;
            if (mark === CAP_SUMS && cell.brakes.maxSteps! > result.keeps[c]!) marks.ownSumsSlid++;
            if (mark === CAP_CLOSED) marks.written++;
            if (closedPassApplies(t.compiled, runSettings(strategy, 'off'), prices)) closed++;
            expect(sweepTotals(result, i, c)).toEqual(replayFast(t.compiled, cell.brakes, strategy, 'off', prices));
          });
        });
      }),
      { numRuns: 300, seed: 7710 },
    );
    // The property is about the closed form: most cells went through it.
    expect(closed).toBeGreaterThan(total / 2);
    expect(marks.ownSums).toBeGreaterThan(total / 500);
    expect(marks.ownSumsSlid).toBeGreaterThan(0);
    expect(marks.written).toBeGreaterThan(total / 50);
  });

  it('window passes that share the full-history pass (the window holds every call it read): every (trace, cell) = replaying it alone', () => {
    const prices = flattenPrices(pricings[0]!);
    let shared = 0;
    let windowCells = 0;
    const shareGrid = fc.record({
      timeoutMs: opt(fc.integer({ min: 0, max: 60_000 })),
      maxCostPico: opt(fc.integer({ min: 0, max: 20_000_000_000 })),
      maxRepeat: opt(fc.integer({ min: 1, max: 4 })),
      maxSameError: opt(fc.integer({ min: 1, max: 3 })),
      caps: fc.array(opt(fc.integer({ min: 0, max: 45 })), { minLength: 1, maxLength: 6 }),
      windows: fc.array(fc.integer({ min: 0, max: 45 }), { minLength: 1, maxLength: 4 }),
      toolResultCap: opt(fc.integer({ min: 0, max: 2000 })),
    });
    fc.assert(
      fc.property(fc.array(traceArb, { minLength: 1, maxLength: 4 }), shareGrid, (specs, g) => {
        const traces: SweepTrace[] = specs.map((s) => ({ compiled: compileTrace(trace(s.calls, { system: s.system, outcome: s.outcome })), prices, cache: 'off' }));
        const base = Object.fromEntries(Object.entries({ timeoutMs: g.timeoutMs, maxCostPico: g.maxCostPico, maxSameError: g.maxSameError }).filter(([, v]) => v !== undefined));
        const grid: SweepGrid = {
          brakes: { ...NO_BRAKES, ...base, ...(g.maxRepeat === undefined ? {} : { maxRepeat: g.maxRepeat, repeatMode: 'total' }) } as BrakeConfig,
          strategy: { kind: 'full', ...(g.toolResultCap === undefined ? {} : { toolResultCap: g.toolResultCap }) },
          axes: [
            // Windows first, full history last (the reference grid's order): passes are swept sources first.
            { name: 'window', values: [...g.windows.map((w) => ({ strategy: { kind: 'window', windowSteps: w } as Partial<ContextStrategy> })), { strategy: { kind: 'full' } as Partial<ContextStrategy> }] },
            { name: 'max-steps', values: g.caps.map((maxSteps) => ({ brakes: { maxSteps } })) },
          ],
        };
        const result = sweepCompiled(traces, grid);
        const fullFrom = g.windows.length * g.caps.length;
        traces.forEach((t, i) => {
          result.cells.forEach((cell, c) => {
            const alone = replayFast(t.compiled, cell.brakes, cleanStrategy(cell.strategy), 'off', prices);
            expect(sweepTotals(result, i, c)).toEqual(alone);
            if (c < fullFrom) {
              windowCells++;
              // The full-history run of this cap group (its loosest cap: the last cell, when that is uncapped) read no call past the window.
              const full = sweepTotals(result, i, fullFrom + (c % g.caps.length));
              if (cell.brakes.maxSteps === undefined && full.calls <= cell.strategy.windowSteps!) shared++;
            }
          });
        });
      }),
      { numRuns: 300, seed: 7711 },
    );
    // The property is about sharing: many window cells had a full-history run inside their window.
    expect(shared).toBeGreaterThan(windowCells / 20);
  });

  it("step cap stops marked over the trace's own sums (CAP_SUMS) read back as those written with their prompt sum (a tool-result cap of no effect: CAP_CLOSED)", () => {
    const prices = flattenPrices(pricings[0]!);
    const counts = { slid: 0, unslid: 0, written: 0 };
    fc.assert(
      fc.property(fc.array(traceArb, { minLength: 1, maxLength: 3 }), fc.array(opt(fc.integer({ min: 0, max: 45 })), { minLength: 1, maxLength: 6 }), fc.array(fc.integer({ min: 0, max: 12 }), { minLength: 1, maxLength: 3 }), (specs, caps, windows) => {
        const traces: SweepTrace[] = specs.map((s) => ({ compiled: compileTrace(trace(s.calls, { system: s.system, outcome: s.outcome })), prices, cache: 'off' }));
        // A tool-result cap above every result (4,000 tokens) changes no figure but takes the written path.
        const grid = (toolResultCap?: number): SweepGrid => ({
          brakes: { ...NO_BRAKES },
          strategy: { kind: 'full', ...(toolResultCap === undefined ? {} : { toolResultCap }) },
          axes: [
            { name: 'window', values: [...windows.map((w) => ({ strategy: { kind: 'window', windowSteps: w } as Partial<ContextStrategy> })), { strategy: { kind: 'full' } as Partial<ContextStrategy> }] },
            { name: 'max-steps', values: caps.map((maxSteps) => ({ brakes: { maxSteps } })) },
          ],
        });
        const marked = sweepCompiled(traces, grid());
        const written = sweepCompiled(traces, grid(5000));
        traces.forEach((_, i) =>
          marked.cells.forEach((cell, c) => {
            const at = i * marked.cells.length + c;
            if (marked.stop[at] === CAP_SUMS) counts[cell.brakes.maxSteps! > marked.keeps[c]! ? 'slid' : 'unslid']++;
            if (written.stop[at] === CAP_CLOSED) counts.written++;
            expect(sweepTotals(marked, i, c)).toEqual(sweepTotals(written, i, c));
            expect(sweepTotals(marked, i, c)).toEqual(replayFast(traces[i]!.compiled, cell.brakes, cleanStrategy(cell.strategy), 'off', prices));
          }),
        );
      }),
      { numRuns: 200, seed: 7712 },
    );
    // Both marks, and windows slid before the cap, were read back.
    expect(counts.slid).toBeGreaterThan(40);
    expect(counts.unslid).toBeGreaterThan(200);
    expect(counts.written).toBeGreaterThan(300);
  });
});

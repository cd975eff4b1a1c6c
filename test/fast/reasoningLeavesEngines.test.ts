/**
 * A trace whose header says its reasoning does not re-enter its prompts (`reasoningInPrompt: false`) replays the
 * same in every engine: the readable loop (ReplaySource → LoopSession), the compiled replay call by call and its
 * stepwise strategies, its closed-form stretches (a sweep's cells, windows and tool-result caps: stretch.ts) and
 * its growth model (Δ input), each reading one per-call figure (CompiledField.ContextOutput) written by the
 * kernel's rule (kernel/stepTokens.ts outputEnteringContext). The same traces with the header unset replay
 * otherwise: every engine reads the rule.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import { compileTrace } from '../../src/fast/compile.js';
import { CompiledField } from '../../src/fast/layout.js';
import { replayFast } from '../../src/fast/replayFast.js';
import { sweepCompiled, sweepTotals } from '../../src/fast/sweep.js';
import { flattenPrices } from '../../src/kernel/prices.js';
import { ReplaySource } from '../../src/loop/replaySource.js';
import { runLoop } from '../../src/loop/run.js';
import { replayTrace } from '../../src/replay/replay.js';
import type { CallRecord, Trace } from '../../src/trace/types.js';
import { brakesArb, callArb, pricings } from '../core/arbitraries.js';
import { call, figuresOf, handTable, toolCall, trace } from '../helpers.js';

const pricing = pricings[0]!;
const prices = flattenPrices(pricing);
const withoutReasoning = (t: Trace): Trace => ({ ...t, header: { ...t.header, reasoningInPrompt: false } });

const strategies: ContextStrategy[] = [
  { kind: 'full' },
  { kind: 'full', toolResultCap: 300 },
  { kind: 'window', windowSteps: 3 },
  { kind: 'window', windowSteps: 2, toolResultCap: 500 },
  { kind: 'mask', maskSteps: 2, placeholderTokens: 12 },
  { kind: 'summary', summary: { triggerPercent: 20, keepSteps: 2, summaryTokens: 300 } },
];

/** The readable loop's figures and the compiled replay's, side by side (the cache `recorded`, or `cache`). */
function readableAndCompiled(t: Trace, brakes: BrakeConfig, strategy: ContextStrategy, cache: 'recorded' | 'off' | 'on' = 'recorded') {
  const readable = runLoop(new ReplaySource(t), { brakes, strategy, cache, pricing, systemTokens: t.header.systemTokens, goalTokens: t.header.goalTokens });
  return { readable: figuresOf(readable), compiled: replayFast(compileTrace(t), brakes, strategy, cache, prices) };
}

describe('a trace whose reasoning does not re-enter its prompts, in every engine', () => {
  it('the compiled per-call figure is the output less its reasoning; the step sums and the growth model read it', () => {
    const t = trace([call(1000, [toolCall('read', { a: 1 }, 50)], { reasoningTokens: 900, inputTokens: 150 }), call(10, [], { final: true, inputTokens: 270 })], { system: 100, origin: 'recorded' });
    const [re, left] = [compileTrace(t), compileTrace(withoutReasoning(t))];
    expect([re.records[CompiledField.ContextOutput], left.records[CompiledField.ContextOutput]]).toEqual([1000, 100]);
    expect([re.stepTokensBefore[1], left.stepTokensBefore[1]]).toEqual([1050, 150]);
    // Δ input of call 2: the recorded 270 less the growth model's 100 + 1050, or 100 + 150.
    expect([re.recordedDeltaBefore[2]! - re.recordedDeltaBefore[1]!, left.recordedDeltaBefore[2]! - left.recordedDeltaBefore[1]!]).toEqual([270 - 1150, 270 - 250]);
  });

  it('the readable loop = the compiled replay = replayTrace’s engines, on 600 random traces (reasoning in most calls) under windows, caps, masks, summaries and random brakes; the header unset replays 82 of them otherwise', () => {
    let apart = 0;
    fc.assert(
      fc.property(fc.array(callArb, { maxLength: 30 }), brakesArb, fc.constantFrom(...strategies), (calls: CallRecord[], brakes, strategy) => {
        const t = withoutReasoning(trace(calls, { origin: 'recorded', model: pricing.model }));
        const settings = { ...NO_BRAKES, ...brakes } as BrakeConfig;
        const { readable, compiled } = readableAndCompiled(t, settings, strategy);
        expect(compiled).toEqual(readable);
        const options = { brakes: settings, strategy: { ...strategy, cache: 'recorded' as const }, pricing, prices: handTable(pricing) };
        expect(replayTrace(t, options)).toEqual(replayTrace(t, { ...options, engine: 'readable' }));
        const unset = { ...t, header: { ...t.header, reasoningInPrompt: undefined } };
        if (JSON.stringify(readableAndCompiled(unset, settings, strategy).readable) !== JSON.stringify(readable)) apart += 1;
      }),
      { numRuns: 600, seed: 2717 },
    );
    expect(apart).toBeGreaterThanOrEqual(60);
  });

  it('a sweep’s cells (closed-form stretches over plain calls: windows, tool-result caps, context windows) = the readable loop of each cell', () => {
    const plainCall = fc.record({ output: fc.integer({ min: 0, max: 1500 }), reasoning: fc.integer({ min: 0, max: 1500 }), results: fc.array(fc.integer({ min: 0, max: 2000 }), { minLength: 1, maxLength: 3 }) });
    let stretched = 0;
    fc.assert(
      fc.property(fc.array(plainCall, { maxLength: 40 }), fc.constantFrom<'off' | 'on'>('off', 'on'), (plain, cache) => {
        const calls = plain.map(({ output, reasoning, results }, i) => call(output, results.map((tokens, j) => toolCall('read', { i, j }, tokens)), { reasoningTokens: Math.min(reasoning, output) }));
        const t = withoutReasoning(trace(calls, { origin: 'recorded', model: pricing.model }));
        const compiled = compileTrace(t);
        const axes = [
          { name: 'context', values: [{ kind: 'full' }, { kind: 'window', windowSteps: 2 }, { kind: 'window', windowSteps: 4, toolResultCap: 400 }, { kind: 'full', toolResultCap: 300 }].map((strategy) => ({ strategy: strategy as ContextStrategy })) },
          { name: 'context-window', values: [undefined, 3000, 9000].map((contextWindow) => ({ brakes: { contextWindow } })) },
        ];
        // The cache off or on (the plain closed form's; `recorded` goes call by call).
        const result = sweepCompiled([{ compiled, prices, cache }], { brakes: { ...NO_BRAKES }, strategy: { kind: 'full' }, axes });
        result.cells.forEach((cell, c) => {
          const { readable, compiled: fast } = readableAndCompiled(t, cell.brakes, cell.strategy, cache);
          expect(sweepTotals(result, 0, c)).toEqual(readable);
          expect(fast).toEqual(readable);
        });
        if (calls.some((call) => (call.reasoningTokens ?? 0) > 0)) stretched += 1;
      }),
      { numRuns: 200, seed: 2718 },
    );
    expect(stretched).toBeGreaterThan(150);
  });
});

/**
 * A predictive refusal is a fact the kernel records on the stop (Stop.byPredictiveBound, kernel/brakes.ts
 * stoppedByBound), not words of its detail: set exactly when beforeCallStop's budget stop came from the
 * bound (spend short of the budget), and the same whichever path ran — the readable replay, the compiled
 * replay, whatif's compiled replayer, the compiled sweep's cells and the real loop (runAgentLoop) — on seeded random traces under a
 * predictive budget, where runs stop both by the bound and by a spend past the budget (a response longer
 * than max_tokens, a prompt past its estimate).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import { beforeCallStop, budgetSpent, budgetWouldCross, stoppedByBound } from '../../src/kernel/brakes.js';
import { Fact, stopOf } from '../../src/kernel/describe.js';
import { brakeLimits, Limit } from '../../src/kernel/limits.js';
import { StopCode } from '../../src/kernel/stopCodes.js';
import { replayTrace } from '../../src/replay/replay.js';
import { compileTrace } from '../../src/fast/compile.js';
import { cellFigures, newCellFigures, sweepCompiled } from '../../src/fast/sweep.js';
import { flattenPrices } from '../../src/kernel/prices.js';
import { whatIf } from '../../src/replay/whatif.js';
import { callArb, pricings } from './arbitraries.js';
import { handTable, trace } from '../helpers.js';
import { runTraceDriven } from '../agent/traceDriven.js';

const pico = fc.integer({ min: 0, max: 10_000_000 });

describe('the kernel says a predictive refusal itself', () => {
  it('stoppedByBound: a budget stop is the bound’s exactly when budgetWouldCross fired it, not budgetSpent (seeded)', () => {
    fc.assert(
      fc.property(pico, pico, pico, fc.boolean(), (spent, bound, budget, predict) => {
        const limits = brakeLimits({ ...NO_BRAKES, maxCostPico: budget, budgetMode: predict ? 'predict' : 'check' });
        const code = beforeCallStop(limits, 0, 0, spent, bound, 0, 0);
        const byBound = !budgetSpent(spent, budget) && budgetWouldCross(spent, bound, limits[Limit.PredictBudgetPico]!);
        expect(stoppedByBound(code, spent, budget)).toBe(byBound);
        const facts = new Float64Array(Fact.Size);
        facts[Fact.SpentPico] = spent;
        expect(stopOf(code === StopCode.None ? StopCode.Completed : code, limits, facts).byPredictiveBound).toBe(byBound ? true : undefined);
      }),
      { numRuns: 2000, seed: 4242 },
    );
  });

  it('readable replay, compiled replay, whatif, the sweep and the real loop flag the same stops (seeded)', async () => {
    const counts = { bound: 0, spent: 0 };
    const brakesArb = fc.record({ maxCostPico: fc.integer({ min: 0, max: 60_000_000 }), maxOutputTokens: fc.integer({ min: 1, max: 2000 }) });
    await fc.assert(
      fc.asyncProperty(fc.array(callArb, { minLength: 1, maxLength: 30 }), brakesArb, fc.constantFrom(...pricings), async (calls, b, pricing) => {
        const t = trace(calls, { origin: 'recorded', model: pricing.model });
        const brakes: BrakeConfig = { ...NO_BRAKES, ...b, budgetMode: 'predict' };
        const strategy = { kind: 'full' as const, cache: 'recorded' as const };
        const options = { brakes, strategy, prices: handTable(pricing), pricing };
        const readable = replayTrace(t, { ...options, engine: 'readable' });
        const compiled = replayTrace(t, options);
        const live = await runTraceDriven(t, { brakes, strategy, pricing });
        const tried = whatIf([t], [{ name: 'p', brakes }], { strategy, prices: handTable(pricing) }).runs[0]!.settings[0]!;
        const flag = readable.stopByPredictiveBound === true;
        expect(compiled.stopByPredictiveBound === true).toBe(flag);
        expect(live.stop.byPredictiveBound === true).toBe(flag);
        expect(tried.predictiveStop).toBe(flag);
        expect(flag).toBe(readable.stopReason === 'budget' && readable.costPico < b.maxCostPico);
        // The sweep's cells (closed forms and per-step passes), at this budget and at others around it.
        const budgets = [b.maxCostPico, Math.floor(b.maxCostPico / 3), b.maxCostPico * 2];
        const swept = sweepCompiled([{ compiled: compileTrace(t), prices: flattenPrices(pricing), cache: 'recorded' }], { brakes, strategy, axes: [{ name: 'max-cost', values: budgets.map((maxCostPico) => ({ brakes: { maxCostPico } })) }] });
        swept.cells.forEach((cell, c) => {
          const alone = c === 0 ? readable : replayTrace(t, { ...options, brakes: cell.brakes });
          expect(cellFigures(swept, 0, c, newCellFigures()).byPredictiveBound, `cell ${c}`).toBe(alone.stopByPredictiveBound === true);
        });
        if (flag) counts.bound += 1;
        else if (readable.stopReason === 'budget') counts.spent += 1;
      }),
      { numRuns: 300, seed: 2718 },
    );
    // Both kinds of budget stop under predict: by the bound, and by a spend past the budget.
    expect(counts.bound).toBeGreaterThan(20);
    expect(counts.spent).toBeGreaterThan(5);
  });
});

/**
 * A fee on every request (the bundled table's `requests_kcount`: Perplexity's sonar models, $12–$14 per
 * 1,000 requests) is part of every billed call's cost through the one rule (kernel/cost.ts requestFeesPico, added
 * by the meter to each call and each summary call): the readable loop, the compiled replay and its run
 * table, a sweep, replayTrace and the real loop bill it alike. The closed forms, whose stretch sums hold
 * tokens only, are off for such a model (fast/closedForm.ts, recordedForm.ts). Seeded.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import { closedFormApplies } from '../../src/fast/closedForm.js';
import { recordedFormApplies } from '../../src/fast/recordedForm.js';
import { compileTrace } from '../../src/fast/compile.js';
import { flattenPrices, replayFast } from '../../src/fast/replayFast.js';
import { runSettings } from '../../src/fast/settings.js';
import { sweepCompiled, sweepTotals } from '../../src/fast/sweep.js';
import { brakeLimits } from '../../src/kernel/limits.js';
import { ReplaySource } from '../../src/loop/replaySource.js';
import { runLoop } from '../../src/loop/run.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import type { ModelPricing } from '../../src/pricing/types.js';
import { replayTrace } from '../../src/replay/replay.js';
import { brakesArb, callArb, pricings } from '../core/arbitraries.js';
import { figures, replayFigures, runTraceDriven } from '../agent/traceDriven.js';
import { engineCaseArb, expectEnginesAgree } from './enginesAgree.js';
import { call, figuresOf, handTable, toolCall, trace } from '../helpers.js';
import { cli } from '../cli/run.js';

/** $12 per 1,000 requests (sonar's). */
const REQUEST_PICO = 12_000_000_000;
const feePricings: ModelPricing[] = pricings.map((p) => ({ ...p, requestPico: REQUEST_PICO }));

const caseArb = engineCaseArb();

describe('a fee per request: every engine = the readable loop (seeded)', () => {
  it('compiled replay and a run table under brakes = readable loop; each call made pays the fee', () => {
    fc.assert(
      fc.property(caseArb, ({ calls, system, outcome, brakes, strategy, cache, priceIndex }) => {
        const t = trace(calls, { system, outcome });
        const pricing = feePricings[priceIndex]!;
        const config = { ...NO_BRAKES, ...brakes } as BrakeConfig;
        expectEnginesAgree(t, { config, strategy, cache, pricing, system });
        // Without brakes and under full history (no summary calls), the fee is every billed call's: a failed call
        // pays it only with a recorded prompt (its usage, or an estimate); a 429 with no usage, or a refusal, pays none.
        const full = { kind: 'full' as const };
        const noFee = runLoop(new ReplaySource(t), { brakes: NO_BRAKES, strategy: full, cache, pricing: pricings[priceIndex]!, systemTokens: system, goalTokens: 0 });
        const withFee = runLoop(new ReplaySource(t), { brakes: NO_BRAKES, strategy: full, cache, pricing, systemTokens: system, goalTokens: 0 });
        const billed = calls.slice(0, withFee.calls).filter((c) => c.failed === undefined || (c.failed.contextLengthExceeded === undefined && c.inputTokens !== undefined)).length;
        expect(withFee.costPico - noFee.costPico).toBe(billed * REQUEST_PICO);
      }),
      { numRuns: 400, seed: 5151 },
    );
  });

  it('the real loop driven by the trace = replay, the fee in the cost and the budget', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(callArb, { maxLength: 30 }), brakesArb, fc.constantFrom(...feePricings), async (calls, brakes, pricing) => {
        const t = trace(calls, { origin: 'recorded', model: pricing.model });
        const settings = { brakes: { ...NO_BRAKES, ...brakes } as BrakeConfig, strategy: { kind: 'full' as const, cache: 'recorded' as const }, pricing };
        expect(figures(await runTraceDriven(t, settings))).toEqual(replayFigures(t, settings));
      }),
      { numRuns: 150, seed: 5152 },
    );
  });

  it('a plain trace takes the closed form without the fee, not with it; a sweep of budgets = the compiled replay', () => {
    const plain = pricings[0]!;
    const fee = { ...plain, requestPico: REQUEST_PICO };
    // Ten steps of 1,000 output tokens ($0.0006 each at $0.60 a million) and a final answer.
    const t = trace([...Array.from({ length: 10 }, (_, i) => call(1000, [toolCall('t', { i }, 10)])), call(10, undefined, { final: true })], { model: 'plain', outcome: 'completed' });
    const compiled = compileTrace(t);
    const settings = runSettings({ kind: 'full' }, 'off');
    expect(closedFormApplies(compiled, settings, flattenPrices(plain))).toBe(true);
    expect(closedFormApplies(compiled, settings, flattenPrices(fee))).toBe(false);
    const prices = flattenPrices(fee);
    const budgets = [50_000_000_000, 100_000_000_000, undefined];
    const swept = sweepCompiled([{ compiled, prices, cache: 'off' }], { brakes: NO_BRAKES, strategy: { kind: 'full' }, axes: [{ name: 'max-cost', values: budgets.map((maxCostPico) => ({ brakes: { maxCostPico } })) }] });
    const cells = swept.cells.map((cell, c) => {
      const totals = sweepTotals(swept, 0, c);
      expect(totals).toEqual(replayFast(compiled, cell.brakes, { kind: 'full' }, 'off', prices));
      return [totals.reason, totals.calls];
    });
    // Each call is ≥ $0.012 with the fee: $0.05 is passed after 4 calls, $0.10 after 8 (tokens alone: never).
    expect(cells).toEqual([['budget', 4], ['budget', 8], ['completed', 11]]);
    for (const engine of ['compiled', 'readable'] as const) {
      expect(replayTrace(t, { brakes: NO_BRAKES, strategy: { kind: 'full', cache: 'off' }, prices: handTable(fee), engine }).costPico).toBe(replayTrace(t, { brakes: NO_BRAKES, strategy: { kind: 'full', cache: 'off' }, prices: handTable(plain), engine }).costPico + 11 * REQUEST_PICO);
    }
  });
});

describe('recorded stretches (cache as recorded) with a fee per request', () => {
  it('take no recorded closed form; the compiled replay = the readable loop, every call paying the fee', () => {
    const plain = pricings[0]!;
    const fee = { ...plain, requestPico: REQUEST_PICO };
    const steps = Array.from({ length: 12 }, (_, i) => call(200, [toolCall('t', { i }, 50)], { inputTokens: 1000 + 260 * i, latencyMs: 100 }));
    const t = trace([...steps, call(10, undefined, { inputTokens: 4200, latencyMs: 100, final: true })], { model: 'plain', origin: 'recorded', outcome: 'completed' });
    const compiled = compileTrace(t);
    const settings = runSettings({ kind: 'full' }, 'recorded');
    const limits = brakeLimits(NO_BRAKES, plain.contextWindow);
    expect(recordedFormApplies(compiled, settings, flattenPrices(plain), limits)).toBe(true);
    expect(recordedFormApplies(compiled, settings, flattenPrices(fee), limits)).toBe(false);
    const brakes = { ...NO_BRAKES, maxCostPico: 60_000_000_000 } as BrakeConfig;
    for (const config of [NO_BRAKES, brakes]) {
      const slow = runLoop(new ReplaySource(t), { brakes: config, strategy: { kind: 'full' }, cache: 'recorded', pricing: fee, systemTokens: 100, goalTokens: 0 });
      expect(replayFast(compiled, config, { kind: 'full' }, 'recorded', flattenPrices(fee))).toEqual(figuresOf(slow));
    }
    const all = replayFast(compiled, NO_BRAKES, { kind: 'full' }, 'recorded', flattenPrices(fee));
    expect(all.costPico - replayFast(compiled, NO_BRAKES, { kind: 'full' }, 'recorded', flattenPrices(plain)).costPico).toBe(13 * REQUEST_PICO);
  });
});

describe('the bundled table’s sonar models', () => {
  it('carry $12 per 1,000 requests; `loopcost prices sonar` shows it; a model without one shows none', async () => {
    expect(loadPriceTable().resolve('sonar').requestPico).toBe(REQUEST_PICO);
    expect(loadPriceTable().resolve('sonar-pro').requestPico).toBe(14_000_000_000);
    expect(loadPriceTable().resolve('gpt-4o-mini').requestPico).toBeUndefined();
    expect((await cli('prices', 'sonar')).stdout).toMatch(/^requests: \$12 per 1,000 requests, billed on every call on top of its tokens$/m);
    expect(JSON.parse((await cli('prices', 'sonar', '--json')).stdout).requestPerThousandUsd).toBe(12);
    expect((await cli('prices', 'gpt-4o-mini')).stdout).not.toMatch(/^requests:/m);
  });
});

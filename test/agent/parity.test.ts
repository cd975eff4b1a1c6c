/**
 * Parity: a trace-driven model through runAgentLoop (the real loop) and replayTrace (the compiled
 * kernel) agree exactly — stop reason and detail, steps, calls, tokens, cost, time — on ≥1,000 seeded
 * random traces covering every brake and stop reason, and on traces generated from the bundled scenarios.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import { STOP_REASONS } from '../../src/brakes/stopReasons.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { generateTraces } from '../../src/scenario/generate.js';
import { loadScenarioFile } from '../../src/scenario/load.js';
import { resolveTracePricing } from '../../src/replay/replay.js';
import { scenarioSettings } from '../../src/scenario/settings.js';
import { usdToPico } from '../../src/money.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import type { CallRecord } from '../../src/trace/types.js';
import { brakesArb, callArb, pricings } from '../core/arbitraries.js';
import { trace } from '../helpers.js';
import { figures, replayFigures, runTraceDriven } from './traceDriven.js';

/** callArb, half its failed calls made failed compaction (summary) calls: the loop that made one counted no step, and neither does replay nor the real loop driven by it. */
const withFailedSummaries: fc.Arbitrary<CallRecord> = fc.tuple(callArb, fc.boolean()).map(([call, summary]) => (call.failed && summary ? { ...call, compaction: true } : call));

describe('real loop (trace-driven model) = replay', () => {
  it('on 1,200 random traces and brakes (recorded and unrecorded prompts, failed calls, failed summary calls, backtracks, compactions), every stop reason but aborted and provider_refused (a recorded failed call is no refusal)', async () => {
    const seen = new Set<string>();
    let failedSummaries = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(withFailedSummaries, { maxLength: 40 }), brakesArb, fc.constantFrom(...pricings), fc.constantFrom<'recorded' | 'synthetic'>('recorded', 'synthetic'), fc.constantFrom('completed', 'error'), async (calls, brakes, pricing, origin, outcome) => {
        // A recording whose last call is marked final ended as that answer did (completed): against an end of error the end's word wins (trace/replayedCalls.ts), which the loop driven by the calls cannot know.
        const ended = calls[calls.length - 1]?.final === true ? 'completed' : (outcome as 'completed' | 'error');
        const t = trace(calls, { origin, outcome: ended, model: pricing.model });
        const settings = { brakes: { ...NO_BRAKES, ...brakes } as BrakeConfig, strategy: { kind: 'full' as const, cache: 'recorded' as const }, pricing };
        const real = figures(await runTraceDriven(t, settings));
        expect(real).toEqual(replayFigures(t, settings));
        seen.add(real.stopReason);
        // Made before the run stopped: one its figures count.
        if (calls.slice(0, real.calls).some((call) => call.failed && call.compaction)) failedSummaries += 1;
      }),
      { numRuns: 1200, seed: 1111 },
    );
    expect([...seen].sort()).toEqual(STOP_REASONS.filter((reason) => reason !== 'aborted' && reason !== 'provider_refused').sort());
    expect(failedSummaries, 'runs that made a failed summary call').toBeGreaterThanOrEqual(50);
  });

  it('on traces generated from the bundled scenarios, under their own context strategies (windows, caps) and tight brakes', async () => {
    const prices = loadPriceTable();
    const brakeSets: BrakeConfig[] = [
      { ...NO_BRAKES },
      { ...NO_BRAKES, maxSteps: 8, maxRepeat: 2, repeatMode: 'consecutive', maxSameError: 2 },
      { ...NO_BRAKES, maxCostPico: usdToPico(0.02), budgetMode: 'predict', maxOutputTokens: 800, contextWindow: 9000 },
      { ...NO_BRAKES, maxTokens: 60_000, maxBacktracks: 1, timeoutMs: 60_000, maxRepeat: 3, repeatMode: 'cycle' },
    ];
    let runs = 0;
    for (const file of ['scenarios/production-mix.yaml', 'scenarios/flight-search.yaml', 'scenarios/weekly-report.yaml', 'scenarios/keeps-asking.yaml']) {
      const scenario = await loadScenarioFile(file);
      // The real loop bills the cache as the provider reports it: replay reads the trace's cache figures too.
      const strategy = { ...scenarioSettings(scenario, {}).strategy, cache: 'recorded' as const };
      for (const t of generateTraces(scenario, { prices, overrides: { runs: 25, seed: 3 } })) {
        const pricing = resolveTracePricing(t, { prices });
        for (const brakes of brakeSets) {
          const settings = { brakes, strategy, pricing };
          expect(figures(await runTraceDriven(t, settings)), `${file} ${t.source}`).toEqual(replayFigures(t, settings));
          runs += 1;
        }
      }
    }
    expect(runs).toBe(400);
  });

  it('on 300 random unrecorded traces under mask, summary and hybrid strategies: the summary calls the real loop makes through its model equal replay’s', async () => {
    const strategies: ContextStrategy[] = [
      { kind: 'mask', maskSteps: 2, placeholderTokens: 12 },
      { kind: 'summary', summary: { triggerPercent: 20, keepSteps: 2, summaryTokens: 300 } },
      { kind: 'summary', summary: { triggerPercent: 40, keepSteps: 1, summaryTokens: 500 } },
      { kind: 'hybrid', maskSteps: 3, summary: { triggerPercent: 15, keepSteps: 2, summaryTokens: 200 } },
    ];
    // A recorded prompt is the strategy's as sent in the real loop but full history in replay: unrecorded prompts only.
    const unrecorded = (call: CallRecord): CallRecord => {
      if (call.failed) return call;
      const { inputTokens: _i, cachedInputTokens: _c, cacheWriteTokens: _w, cacheWrite1hTokens: _h, ...rest } = call;
      return rest;
    };
    let summaries = 0;
    await fc.assert(
      // Masking in batches of 1–6 steps (kernel/maskBoundary.ts) where the strategy masks.
      fc.asyncProperty(fc.array(callArb, { minLength: 10, maxLength: 30 }), fc.oneof(fc.constant({}), brakesArb), fc.constantFrom(...pricings), fc.constantFrom(...strategies), fc.integer({ min: 1, max: 6 }), async (calls, brakes, pricing, strategy, batch) => {
        const t = trace(calls.map(unrecorded), { model: pricing.model });
        const batched = strategy.maskSteps === undefined ? strategy : { ...strategy, maskBatchSteps: batch };
        const settings = { brakes: { ...NO_BRAKES, ...brakes } as BrakeConfig, strategy: { ...batched, cache: 'recorded' as const }, pricing };
        const real = figures(await runTraceDriven(t, settings));
        expect(real).toEqual(replayFigures(t, settings));
        if (real.summaryCalls > 0) summaries += 1;
      }),
      { numRuns: 300, seed: 1313 },
    );
    expect(summaries, 'runs with a summary call').toBeGreaterThanOrEqual(25);
  });
});

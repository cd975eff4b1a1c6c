/**
 * Parity on a summary call past the summary model's window: replay's simulated provider refuses it (kernel/
 * providerWindow.ts summaryCallStop, kernel/summaryBeforeCall.ts summaryCallChecks), ending the run
 * provider_refused, a failed compaction call paid nothing; the real loop driven by the recording must too. Before
 * the fix traceModel answered every summary request, so the driven run made (and billed) the summary call and
 * completed. Now the loop sends its prompt estimate with the summary call (ModelRequest `promptEstimateTokens`)
 * and traceModel, told the window (`summaryWindowTokens`), refuses it as a provider does.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import { memoryRecorder } from '../../src/agent/recorder.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import type { CallRecord } from '../../src/trace/types.js';
import { brakesArb, callArb, pricings } from '../core/arbitraries.js';
import { call, MINI, toolCall, trace } from '../helpers.js';
import { figures, replayFigures, runTraceDriven, type Settings } from './traceDriven.js';

/** A recorded prompt is the strategy's as sent in the real loop but full history in replay: unrecorded prompts only. */
const unrecorded = (record: CallRecord): CallRecord => {
  if (record.failed) return record;
  const { inputTokens: _i, cachedInputTokens: _c, cacheWriteTokens: _w, cacheWrite1hTokens: _h, ...rest } = record;
  return rest;
};

/** A call the run goes on after (no final answer; tool calls run, or a failed call retried): runs long enough to summarise. */
const goesOn = (record: CallRecord): boolean => !record.final && (record.failed !== undefined || (record.toolCalls ?? []).length > 0);

describe('real loop (trace-driven model) = replay, a summary call past the window', () => {
  it('the finding: tool results of 3000 and 1500 tokens, then an answer; summary at 2000 keeping 1, 500 tokens, a 5000-token window: provider_refused at the summary call', async () => {
    const t = trace([call(50, [toolCall('read', { i: 1 }, 3000)]), call(50, [toolCall('read', { i: 2 }, 1500)]), call(20, undefined, { final: true })]);
    const strategy: ContextStrategy = { kind: 'summary', summary: { triggerTokens: 2000, keepSteps: 1, summaryTokens: 500 }, cache: 'recorded' };
    const settings: Settings = { brakes: NO_BRAKES, strategy, pricing: { ...MINI, contextWindow: 5000 } };
    const recorder = memoryRecorder();
    const run = await runTraceDriven(t, settings, { recorder });
    const real = figures(run);
    expect(real).toEqual(replayFigures(t, settings));
    expect([real.stopReason, real.stopDetail]).toEqual(['provider_refused', 'the provider refused the summary call: prompt of 4700 tokens + max_tokens 500 > context window 5000']);
    // Two steps and the refused summary call: a failed call paid nothing, no summary made or billed.
    expect([real.steps, real.calls, real.summaryCalls, real.summaryCostPico]).toEqual([2, 3, 0, 0]);
    expect(recorder.trace().calls.at(-1)).toMatchObject({ compaction: true, outputTokens: 0, failed: { status: 400, contextLengthExceeded: { promptTokens: 4700, maxOutputTokens: 500, contextWindowTokens: 5000 } } });
    // A window it fits: the summary is made and the run completes, alike.
    const roomy: Settings = { ...settings, pricing: { ...MINI, contextWindow: 5200 } };
    const made = figures(await runTraceDriven(t, roomy));
    expect(made).toEqual(replayFigures(t, roomy));
    expect([made.stopReason, made.summaryCalls]).toEqual(['completed', 1]);
  });

  it('on 400 seeded random traces under summary and hybrid strategies with small windows: every refusal, summary and stop alike', async () => {
    const seen = { refused: 0, made: 0, other: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.array(callArb.filter(goesOn), { minLength: 4, maxLength: 30 }),
        fc.oneof({ arbitrary: fc.constant({}), weight: 2 }, { arbitrary: brakesArb, weight: 1 }),
        fc.constantFrom(...pricings),
        fc.record({ hybrid: fc.boolean(), trigger: fc.integer({ min: 300, max: 4000 }), keep: fc.integer({ min: 1, max: 3 }), tokens: fc.integer({ min: 50, max: 3000 }), window: fc.integer({ min: 3000, max: 20_000 }) }),
        async (calls, brakes, base, s) => {
          // Replay refuses a trigger + S past the window up front (checkSummaryTrigger): no run to compare.
          if (s.trigger + s.tokens > s.window) return;
          const pricing = { ...base, contextWindow: s.window };
          const summary = { triggerTokens: s.trigger, keepSteps: s.keep, summaryTokens: s.tokens };
          const strategy: ContextStrategy = s.hybrid ? { kind: 'hybrid', maskSteps: 2, summary, cache: 'recorded' } : { kind: 'summary', summary, cache: 'recorded' };
          const settings: Settings = { brakes: { ...NO_BRAKES, ...brakes } as BrakeConfig, strategy, pricing };
          if (typeof settings.brakes.contextWindow === 'number' && s.trigger > settings.brakes.contextWindow) return;
          const t = trace(calls.map(unrecorded), { model: pricing.model });
          const real = figures(await runTraceDriven(t, settings));
          expect(real).toEqual(replayFigures(t, settings));
          if (real.stopReason === 'provider_refused' && real.stopDetail.includes('summary call')) seen.refused += 1;
          else if (real.summaryCalls > 0) seen.made += 1;
          else seen.other += 1;
        },
      ),
      { numRuns: 400, seed: 2626 },
    );
    expect(Math.min(seen.refused, seen.made), JSON.stringify(seen)).toBeGreaterThanOrEqual(50);
  });
});

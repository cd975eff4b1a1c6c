/**
 * A real loop's summary call past the summary model's window: its provider refuses it (400
 * `context_length_exceeded`), and the run ends provider_refused at it — a failed call paid nothing, its
 * detail naming the summary call — as replay's simulated provider ends it; under `--context-window model`
 * the brake stops the run before the call, as a live loop can (it knows the prompt, S and the window).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { memoryRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { defineTool } from '../../src/agent/tools.js';
import { ModelCallError, type Model, type ModelTurn } from '../../src/agent/types.js';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { replayTrace } from '../../src/replay/replay.js';
import type { CallRecord } from '../../src/trace/types.js';
import { brakesArb, callArb, pricings } from '../core/arbitraries.js';
import { trace } from '../helpers.js';
import { ScriptedModel, type Step } from './scripted.js';
import { figures, replayFigures, runTraceDriven } from './traceDriven.js';

const prices = loadPriceTable();
const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
const echo = defineTool<{ text: string }>({ name: 'echo', description: 'says it back', parameters: { type: 'object' }, run: ({ text }) => text });
/** A step: 50 tokens out, and an echo whose result is 3 tokens (the prompt grows 53 a step). */
const step = (n: number): ModelTurn => ({ text: null, toolCalls: [{ id: `c${n}`, name: 'echo', arguments: JSON.stringify({ text: `r${n} a b` }) }], usage: { outputTokens: 50 } });
/** system + goal = 2 tokens: the prompts are 2, 55, 108, then 161 > 150 — a summary call of 161 tokens asking for 30. */
const strategy: ContextStrategy = { kind: 'summary', summary: { triggerTokens: 150, keepSteps: 1, summaryTokens: 30 } };
/** Steps 1–3 at gpt-4o-mini's $0.15 / $0.60 per million, no usage reported: billed at the view. */
const STEPS_1_TO_3 = (2 + 55 + 108) * 150_000 + 150 * 600_000;
const run = (script: Step[], options: { brakes?: BrakeConfig; window?: number; recorder?: ReturnType<typeof memoryRecorder> } = {}) => {
  const model = new ScriptedModel(script, 'gpt-4o-mini');
  const pricing = { ...prices.resolve('gpt-4o-mini'), ...(options.window === undefined ? {} : { contextWindow: options.window }) };
  const result = runAgentLoop({ model, tools: [echo], brakes: options.brakes ?? NO_BRAKES, unbounded: true, context: { system: 's', goal: 'g', strategy, countTokens: words }, pricing, clock: new VirtualClock(), ...(options.recorder ? { recorder: options.recorder } : {}) });
  return { model, result };
};

describe('the real loop, a summary call past its window', () => {
  it('refused by its provider: provider_refused at the summary call, paid nothing, recorded so its recording replays to the stop', async () => {
    const refusal = { promptTokens: 170, maxOutputTokens: 30, contextWindowTokens: 190 };
    const refused = new ModelCallError("This model's maximum context length is 190 tokens.", { status: 400, retryable: false, refusal });
    const recorder = memoryRecorder();
    const { result } = run([step(1), step(2), step(3), refused], { recorder });
    const r = await result;
    expect(r.stop).toEqual({ reason: 'provider_refused', detail: 'the provider refused the summary call: prompt of 170 tokens + max_tokens 30 > context window 190' });
    // A failed call (no step), paid nothing: the spend is steps 1–3's; no summary was made.
    expect([r.steps, r.calls, r.failedCalls, r.summaryCalls ?? 0, r.costPico]).toEqual([3, 4, 1, 0, STEPS_1_TO_3]);
    const last = recorder.trace().calls.at(-1)!;
    expect(last).toMatchObject({ compaction: true, outputTokens: 0, failed: { status: 400, contextLengthExceeded: refusal } });
    const replayed = replayTrace(recorder.trace(), { brakes: NO_BRAKES, strategy: { kind: 'full' }, prices });
    // Its replay says what the run said: the recording marks the refused call a compaction call (summaryCallWords.test.ts).
    expect([replayed.stopReason, replayed.stopDetail, replayed.modelCalls, replayed.costPico]).toEqual(['provider_refused', r.stop.detail, 4, STEPS_1_TO_3]);
  });

  it('under --context-window model: stopped before the call (context_overflow), the model never asked', async () => {
    // A window of 190: the agent calls fit with max_tokens 20 (108 + 20); the summary call does not (161 + 30).
    const { model, result } = run([step(1), step(2), step(3)], { brakes: { ...NO_BRAKES, contextWindow: 'model', maxOutputTokens: 20 }, window: 190 });
    const r = await result;
    expect(r.stop).toEqual({ reason: 'context_overflow', detail: "next summary call's prompt holds 161 tokens + max_tokens 30 > context window 190" });
    expect([model.requests.length, r.calls, r.costPico]).toEqual([3, 3, (2 + 55 + 108) * 150_000 + 150 * 600_000]);
  });

  it('= replay on 300 seeded random traces whose summary calls pass the window: the provider refuses each as replay’s simulated one does', async () => {
    const unrecorded = (call: CallRecord): CallRecord => {
      if (call.failed) return call;
      const { inputTokens: _i, cachedInputTokens: _c, cacheWriteTokens: _w, cacheWrite1hTokens: _h, ...rest } = call;
      return rest;
    };
    const seen = { refused: 0, braked: 0, made: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.array(callArb.filter((c) => !c.final), { minLength: 10, maxLength: 30 }),
        fc.oneof({ arbitrary: fc.constant({}), weight: 2 }, { arbitrary: brakesArb, weight: 1 }, { arbitrary: fc.record({ contextWindow: fc.constant('model' as const), maxOutputTokens: fc.integer({ min: 1, max: 300 }) }), weight: 2 }),
        fc.constantFrom(...pricings),
        fc.record({ trigger: fc.integer({ min: 500, max: 6000 }), keep: fc.integer({ min: 1, max: 3 }), tokens: fc.integer({ min: 100, max: 3000 }), window: fc.integer({ min: 6000, max: 12_000 }) }),
        async (calls, brakes, base, s) => {
          const pricing = { ...base, contextWindow: s.window };
          const t = trace(calls.map(unrecorded), { model: pricing.model });
          const settings = { brakes: { ...NO_BRAKES, ...brakes } as BrakeConfig, strategy: { kind: 'summary' as const, summary: { triggerTokens: s.trigger, keepSteps: s.keep, summaryTokens: s.tokens }, cache: 'recorded' as const }, pricing };
          if (typeof settings.brakes.contextWindow === 'number' && s.trigger > settings.brakes.contextWindow) return;
          // Replay refuses a trigger + S past the window up front (checkSummaryTrigger): no run to compare.
          if (s.trigger + s.tokens > s.window) return;
          // The prompt each summary call sends, as the loop billed it when its provider answered (no usage: its
          // estimate); the recorder writes one record per model call, in order.
          const recorder = memoryRecorder();
          const purposes: (string | undefined)[] = [];
          const logged = (model: Model): Model => ({ name: model.name, call: (request) => (purposes.push(request.purpose), model.call(request)) });
          await runTraceDriven(t, settings, { recorder, model: logged });
          const prompts = recorder.trace().calls.filter((_, i) => purposes[i] === 'summary').map((call) => call.inputTokens!);
          // A provider that counts the prompt so, and refuses it + S past the window.
          const windowed = (model: Model): Model => {
            let summaries = 0;
            return {
              name: model.name,
              async call(request) {
                if (request.purpose === 'summary') {
                  const promptTokens = prompts[summaries++]!;
                  if (promptTokens + request.maxOutputTokens > s.window) throw new ModelCallError('context_length_exceeded', { status: 400, retryable: false, refusal: { promptTokens, maxOutputTokens: request.maxOutputTokens, contextWindowTokens: s.window } });
                }
                return model.call(request);
              },
            };
          };
          const real = figures(await runTraceDriven(t, settings, { model: windowed }));
          expect(real).toEqual(replayFigures(t, settings));
          if (real.stopDetail.includes('summary call')) seen[real.stopReason === 'provider_refused' ? 'refused' : 'braked'] += 1;
          if (real.summaryCalls > 0) seen.made += 1;
        },
      ),
      { numRuns: 300, seed: 5151 },
    );
    expect(Math.min(seen.refused, seen.braked, seen.made), JSON.stringify(seen)).toBeGreaterThan(10);
  });
});

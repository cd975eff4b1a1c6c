/**
 * The real loop's recording of a run its provider refused (a prompt past the window): the recorder writes
 * the refused call with the refusal (failed.contextLengthExceeded), so the recording, read back from its
 * JSONL, replays to the same stop — provider_refused, same steps, calls, cost, time and detail — as the
 * real run; and a trace-driven model refuses where its trace recorded a refusal, so real loop = replay.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import { memoryRecorder } from '../../src/agent/recorder.js';
import type { CallRecord } from '../../src/trace/types.js';
import { parseNativeTraces } from '../../src/trace/parseNative.js';
import { writeNativeTraces } from '../../src/trace/writeNative.js';
import { brakesArb, callArb, pricings } from '../core/arbitraries.js';
import { trace } from '../helpers.js';
import { figures, replayFigures, runTraceDriven } from './traceDriven.js';

const refusedArb = fc
  .record({ latencyMs: fc.integer({ min: 0, max: 3000 }), promptTokens: fc.integer({ min: 1000, max: 50_000 }), maxOutputTokens: fc.option(fc.integer({ min: 1, max: 8192 }), { nil: undefined }), window: fc.integer({ min: 1000, max: 50_000 }) })
  .map(({ latencyMs, promptTokens, maxOutputTokens, window }): CallRecord => ({
    type: 'call',
    outputTokens: 0,
    latencyMs,
    // A refusal's numbers are past the window (prompt + max_tokens > window, src/trace/rules.ts), as a provider's are.
    failed: { status: 400, message: 'context_length_exceeded', contextLengthExceeded: { promptTokens, ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }), contextWindowTokens: maxOutputTokens === undefined ? window : Math.min(window, promptTokens + maxOutputTokens - 1) } },
  }));

describe('the real loop records a provider refusal; its recording replays to the same stop', () => {
  it('on 400 random traces ending in a refusal, under random brakes: real loop = replay, and the recording (JSONL) replays to it again', async () => {
    let refused = 0;
    let timeoutZero = 0;
    await fc.assert(
      // A timeout of 0 included: the recording says timeoutSeconds 0, which the reader takes.
      fc.asyncProperty(fc.array(callArb, { maxLength: 25 }), refusedArb, fc.oneof({ arbitrary: fc.constant({}), weight: 4 }, { arbitrary: brakesArb, weight: 4 }, { arbitrary: brakesArb.map((b) => ({ ...b, timeoutMs: 0 })), weight: 1 }), fc.constantFrom(...pricings), async (calls, refusal, brakes, pricing) => {
        const t = trace([...calls, refusal], { origin: 'recorded', model: pricing.model });
        const settings = { brakes: { ...NO_BRAKES, ...brakes } as BrakeConfig, strategy: { kind: 'full' as const, cache: 'recorded' as const }, pricing };
        const recorder = memoryRecorder('real.jsonl');
        if (settings.brakes.timeoutMs === 0) timeoutZero += 1;
        const real = figures(await runTraceDriven(t, settings, { recorder }));
        expect(real).toEqual(replayFigures(t, settings));
        const [recording] = parseNativeTraces(writeNativeTraces([recorder.trace()]), 'real.jsonl');
        expect(replayFigures(recording!, settings)).toEqual(real);
        if (real.stopReason === 'provider_refused') {
          refused += 1;
          expect(recording!.calls.at(-1)!.failed).toEqual(refusal.failed);
        }
      }),
      { numRuns: 400, seed: 1131 },
    );
    expect(refused).toBeGreaterThan(100);
    expect(timeoutZero).toBeGreaterThan(5);
  });
});

/**
 * A real run whose model gave up (a failed call not retried, or its retries spent) ends right after that
 * call, in trace_end: it asks for no further call, so no brake is checked after it. Its recording, replayed
 * with the run's own brakes — or any others — ends there too, in every engine (the readable loop, the
 * compiled replay call by call, through a run table, call by call for a strategy that rewrites history, a
 * sweep, the real loop driven by the recording), not at a brake that would have stopped a call that never
 * came (kernel/gaveUp.ts). A recording whose run asked for a call and was refused it by a brake, or that
 * is no real loop's (no `live`), still meets the brakes before its end.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { ModelCallError, type Model, type ModelTurn } from '../../src/agent/types.js';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import { layoutShape } from '../../src/cache/compiledCache.js';
import { handedOverCompiled } from '../../src/replay/compiledRuns.js';
import { replayTrace } from '../../src/replay/replay.js';
import { recordedBrakes } from '../../src/replay/whatif.js';
import type { Trace } from '../../src/trace/types.js';
import { tempDir } from '../cli/run.js';
import { pricings } from '../core/arbitraries.js';
import { handTable } from '../helpers.js';
import { everywhere, stopsInEveryEngine, stopsInStepCapSweep } from './everyEngine.js';
import { readTool } from './realLoopRuns.js';
import { readWarm, recordRun } from './recordedRuns.js';
import { figures, replayFigures, runTraceDriven } from './traceDriven.js';

const pricing = pricings[0]!;

/** `steps` steps calling `read` (500 ms each), then a call failing with 500 after 2 s: retryable or not. */
function failingModel(clock: VirtualClock, retryable: boolean, steps = 1): Model {
  let calls = 0;
  return {
    name: pricing.model,
    async call(): Promise<ModelTurn> {
      calls += 1;
      if (calls <= steps) {
        clock.advance(500);
        return { text: null, toolCalls: [{ id: `call_${calls}`, name: 'read', arguments: '{}' }], usage: { inputTokens: 40, outputTokens: 30 } };
      }
      clock.advance(2000);
      throw new ModelCallError('busy', { status: 500, retryable });
    },
  };
}

/** The real run under `brakes` (`retryable`: its failed call may be retried, once) and its recording as read back. */
async function recordedRun(brakes: BrakeConfig, retryable: boolean, path = join(tempDir(), 'run.jsonl'), steps = 1) {
  const clock = new VirtualClock();
  return recordRun({ model: failingModel(clock, retryable, steps), tools: [readTool], brakes, pricing, clock, retry: { maxRetries: 1, backoffMs: () => 0 } }, path);
}

describe('a real run whose model gave up replays to where it gave up', () => {
  it('a failed call not retried, past the step cap and the timeout it then stood at: trace_end in every engine under the recorded brakes, as the run said', async () => {
    const brakes: BrakeConfig = { ...NO_BRAKES, maxSteps: 2, timeoutMs: 1000 };
    const { real, recording } = await recordedRun(brakes, false);
    expect(real.stop).toEqual({ reason: 'trace_end', detail: 'model call failed: 500 busy; not retried' });
    expect([real.steps, real.elapsedMs]).toEqual([2, 2500]);
    expect(recordedBrakes(recording)).toEqual(brakes);
    // Before the fix every engine said max_steps (2 steps taken, limit 2): the brakes of a third call never asked for.
    expect(stopsInEveryEngine(recording, brakes)).toEqual(everywhere('trace_end', 'model call failed: 500 busy; not retried'));
    // Under other brakes too (the model gives up whatever the brakes): a timeout passed only by the failed call, a duplicate-action guard that skips (call by call).
    expect(stopsInEveryEngine(recording, { ...NO_BRAKES, timeoutMs: 1000 })).toEqual(everywhere('trace_end', 'model call failed: 500 busy; not retried'));
    expect(stopsInEveryEngine(recording, { ...brakes, repeatAction: 'skip', maxRepeat: 1 })).toEqual(everywhere('trace_end', 'model call failed: 500 busy; not retried'));
    // A strategy that rewrites history (its summary call before the failed one; call by call in the compiled replay): two steps, one summarised (keep=1).
    const summary: ContextStrategy = { kind: 'summary', summary: { triggerTokens: 1, keepSteps: 1, summaryTokens: 10 } };
    const twoSteps = (await recordedRun({ ...NO_BRAKES, maxSteps: 3 }, false, join(tempDir(), 'two.jsonl'), 2)).recording;
    expect(stopsInEveryEngine(twoSteps, { ...NO_BRAKES, maxSteps: 3 }, summary)).toEqual(everywhere('trace_end', 'model call failed: 500 busy; not retried'));
    expect(replayTrace(twoSteps, { brakes: { ...NO_BRAKES, maxSteps: 3 }, strategy: summary, pricing, prices: handTable(pricing) }).summaryCalls).toBe(1);
  });

  it('a sweep of step caps over the recording: the caps the run did not pass before its end stop it nowhere but where its model gave up', async () => {
    const { recording } = await recordedRun({ ...NO_BRAKES, maxSteps: 2 }, false);
    expect(stopsInStepCapSweep(recording)).toEqual(['max_steps', 'trace_end', 'trace_end', 'trace_end']);
  });

  it('its retries spent: the retry waited behind the brakes, the give-up did not', async () => {
    // The budget is spent by the first step; the retry is behind it, so that run stops `budget` before its retry.
    const spent = await recordedRun({ ...NO_BRAKES, maxCostPico: 1 }, true);
    expect(spent.real.stop.reason).toBe('budget');
    expect(spent.recording.end.outcome).toBe('limit');
    expect(stopsInEveryEngine(spent.recording, recordedBrakes(spent.recording)).compiled[0]).toBe('budget');
    // A step cap of 3: the retry (the third step) is made, fails, and the model gives up — the cap it then stands at is no stop.
    const { real, recording } = await recordedRun({ ...NO_BRAKES, maxSteps: 3 }, true);
    expect(real.stop).toEqual({ reason: 'trace_end', detail: 'model call failed: 500 busy; gave up after 1 retries' });
    expect(real.steps).toBe(3);
    expect(stopsInEveryEngine(recording, recordedBrakes(recording))).toEqual(everywhere('trace_end', 'model call failed: 500 busy; gave up after 1 retries'));
  });

  it('the recording driving the real loop (traceModel, retrying every failure the recording retried): it gives up where the recorded model did, as replay', async () => {
    for (const [brakes, retryable] of [[{ ...NO_BRAKES, maxSteps: 2, timeoutMs: 1000 }, false], [{ ...NO_BRAKES, maxSteps: 3 }, true]] as const) {
      const { real, recording } = await recordedRun(brakes, retryable);
      const settings = { brakes: recordedBrakes(recording), strategy: { kind: 'full' as const, cache: 'recorded' as const }, pricing };
      const driven = figures(await runTraceDriven(recording, settings));
      expect(driven).toEqual(replayFigures(recording, settings));
      expect([driven.stopReason, driven.stopDetail, driven.steps]).toEqual([real.stop.reason, real.stop.detail, real.steps]);
    }
  });

  it('served from the compiled-trace cache (its layout names endsAfterLastCall: an entry of an older layout has another key), a warm replay ends where the model gave up', async () => {
    expect(layoutShape()).toMatch(/refusal:array,endsAfterLastCall:boolean/);
    const brakes: BrakeConfig = { ...NO_BRAKES, maxSteps: 2 };
    const warm = await readWarm((await recordedRun(brakes, false)).path);
    expect(handedOverCompiled(warm)?.endsAfterLastCall).toBe(true);
    const result = replayTrace(warm, { brakes, strategy: { kind: 'full' }, pricing, prices: handTable(pricing) });
    expect([result.stopReason, result.stopDetail, result.steps]).toEqual(['trace_end', 'model call failed: 500 busy; not retried', 2]);
  });

  it('the same calls not written by a real loop (no `live` header): the brakes before a next call still come before the recorded end', async () => {
    const { recording } = await recordedRun({ ...NO_BRAKES, maxSteps: 2 }, false);
    const { live: _live, ...header } = recording.header;
    const imported: Trace = { ...recording, header };
    expect(stopsInEveryEngine(imported, { ...NO_BRAKES, maxSteps: 2 })).toEqual(everywhere('max_steps', '2 steps taken, limit 2'));
  });
});

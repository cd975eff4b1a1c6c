/**
 * A retry the brakes declined — the wait before it (the back-off, or the provider's Retry-After, at most 60 s)
 * counted as the failed call's time would end past the timeout (agent/retryWait.ts) — is named in the timeout's
 * detail (kernel/cutWords.ts notRetriedCall), by the run and by every replay of its recording alike. Before: the
 * detail said only "61.000 s elapsed, limit 30 s", as if the run had spent that time working.
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { memoryRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { ModelCallError } from '../../src/agent/types.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { timeoutWords } from '../../src/kernel/cutWords.js';
import { pricings } from '../core/arbitraries.js';
import { everywhere, stopsInEveryEngine } from './everyEngine.js';
import { answer, ScriptedModel } from './scripted.js';
import { figures, replayFigures, runTraceDriven } from './traceDriven.js';

const pricing = pricings[0]!;
const brakes = { ...NO_BRAKES, timeoutMs: 30_000 };
const settings = { brakes, strategy: { kind: 'full' as const, cache: 'recorded' as const }, pricing };
const NOT_RETRIED = "the failed model call (429) was not retried: its retry would start past the timeout (the wait before it counted in the run's time)";

async function rateLimited(retryAfterMs: number) {
  const clock = new VirtualClock();
  const recorder = memoryRecorder();
  const limited = () => {
    clock.advance(1000);
    throw new ModelCallError('rate limited', { status: 429, retryable: true, retryAfterMs });
  };
  const model = new ScriptedModel([limited, answer('done')], pricing.model);
  const run = await runAgentLoop({ model, tools: [], brakes, context: { system: 's', goal: 'g', countTokens: (t) => t.length }, pricing, clock, retry: { maxRetries: 3, backoffMs: () => 1000 }, recorder });
  return { run, model, recording: recorder.trace() };
}

describe('a retry wait past the timeout, named in the stop', () => {
  it('a 60 s Retry-After past a 30 s timeout: stopped before the retry, the detail naming the retry not made; every replay says the same', async () => {
    const { run, model, recording } = await rateLimited(60_000);
    expect(model.requests).toHaveLength(1);
    expect([run.stop.reason, run.stop.detail]).toEqual(['timeout', `61.000 s elapsed, limit 30 s; ${NOT_RETRIED}`]);
    expect(recording.calls.map((call) => [call.failed?.status, call.latencyMs])).toEqual([[429, 61_000]]);
    expect(stopsInEveryEngine(recording, brakes)).toEqual(everywhere('timeout', run.stop.detail));
    expect(replayFigures(recording, settings)).toEqual(figures(run));
    expect(figures(await runTraceDriven(recording, settings))).toEqual(figures(run));
  });

  it('a wait within the timeout: waited, retried, completed (nothing named)', async () => {
    const { run, model } = await rateLimited(20_000);
    expect(model.requests).toHaveLength(2);
    expect([run.stop.reason, run.elapsedMs]).toEqual(['completed', 21_000]);
  });

  it('a failed call without a status, a refusal and a failed summary call: named without the status, and not at all', () => {
    const at = { elapsedMs: 40_000, timeoutMs: 30_000 };
    expect(timeoutWords({ type: 'call', outputTokens: 0, failed: { message: 'reset' } }, false, at)).toBe(NOT_RETRIED.replace(' (429)', '').replace(/^the /, ''));
    expect(timeoutWords({ type: 'call', outputTokens: 0, compaction: true, failed: { status: 503, message: 'busy' } }, true, at)).toBe('');
    expect(timeoutWords({ type: 'call', outputTokens: 0, failed: { status: 400, message: 'too long', contextLengthExceeded: {} } }, false, at)).toBe('');
  });
});

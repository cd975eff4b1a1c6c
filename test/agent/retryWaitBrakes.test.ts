/**
 * The wait before a retry is decided by the brakes before it is waited: the loop counts it as its failed
 * call's time (agent/retryWait.ts pendingRetryWait), so a wait that would pass the timeout is never waited —
 * the run stops `timeout` right after the failed call — and the recording says so: replayed, and driven back
 * through the loop by traceModel, it stops where the run did, with the same figures. Before, the loop waited
 * (30 s here) and only then checked the brakes, on a time that left the wait out: it retried past its timeout.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { fileRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { traceModel } from '../../src/agent/traceModel.js';
import { ModelCallError, type ModelTurn } from '../../src/agent/types.js';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import { loadTraceFile } from '../../src/import/index.js';
import { recordedBrakes } from '../../src/replay/whatif.js';
import type { Trace } from '../../src/trace/types.js';
import { tempDir } from '../cli/run.js';
import { MINI } from '../helpers.js';
import { figures, replayFigures, TRACE_RETRY } from './traceDriven.js';
import { answer, ScriptedModel } from './scripted.js';

const dir = tempDir();
const busy = () => new ModelCallError('overloaded', { status: 503, retryable: true });

/** A clock that counts what it was asked to wait. */
class WaitingClock extends VirtualClock {
  waitedMs: number[] = [];
  override async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.waitedMs.push(ms);
    return super.sleep(ms, signal);
  }
}

/** A call that takes 1 s on `clock`, then fails (503) or answers. */
const after1s = (clock: VirtualClock, outcome: () => ModelTurn | Error) => () => {
  clock.advance(1000);
  const result = outcome();
  if (result instanceof Error) throw result;
  return result;
};

async function recordedRun(name: string, brakes: BrakeConfig, backoffMs: number) {
  const clock = new WaitingClock();
  const path = join(dir, `${name}.jsonl`);
  const model = new ScriptedModel([after1s(clock, busy), after1s(clock, () => answer('done'))]);
  const run = await runAgentLoop({ model, tools: [], brakes, context: { system: 's', goal: 'g', countTokens: (t) => t.length }, pricing: MINI, clock, retry: { maxRetries: 3, backoffMs: () => backoffMs }, recorder: fileRecorder(path) });
  const [recording] = await loadTraceFile(path);
  return { run, clock, model, recording: recording! };
}

/** The recording driven back through the loop by traceModel (retries without waiting: the wait is in the recorded time). */
async function drivenBack(recording: Trace) {
  const clock = new VirtualClock();
  const driven = traceModel(recording, clock);
  return runAgentLoop({ model: driven.model, tools: driven.tools, brakes: recordedBrakes(recording), context: driven.context, pricing: MINI, clock, retry: TRACE_RETRY, signal: driven.signal, cacheWrites: driven.cacheWrites, reasoningInPrompt: driven.reasoningInPrompt });
}

const settings = (recording: Trace) => ({ brakes: recordedBrakes(recording), strategy: { kind: 'full' as const, cache: 'recorded' as const }, pricing: MINI });

describe('the wait before a retry meets the brakes before it is waited', () => {
  it('a 30 s wait past a 10 s timeout: stopped `timeout` after the failed call, never waited nor retried; the recording replays (and drives back) to the same stop', async () => {
    const { run, clock, model, recording } = await recordedRun('past', { ...NO_BRAKES, timeoutMs: 10_000 }, 30_000);
    expect([run.stop.reason, run.calls, run.failedCalls]).toEqual(['timeout', 1, 1]);
    expect(model.requests).toHaveLength(1);
    expect(clock.waitedMs).toEqual([]);
    expect(clock.now()).toBe(1000);
    // The stop's time is the failed call's 1 s and the wait it would have taken before its retry.
    expect(run.elapsedMs).toBe(31_000);
    expect(run.stop.detail).toBe("31.000 s elapsed, limit 10 s; the failed model call (503) was not retried: its retry would start past the timeout (the wait before it counted in the run's time)");
    expect(recording.calls.map((call) => [call.failed?.status, call.latencyMs])).toEqual([[503, 31_000]]);
    expect(recording.end).toMatchObject({ outcome: 'limit', status: `timeout: ${run.stop.detail}` });
    expect(replayFigures(recording, settings(recording))).toEqual(figures(run));
    expect(figures(await drivenBack(recording))).toEqual(figures(run));
  });

  it('a wait within the timeout: waited, the retry made; the wait is the failed call’s time, and the recording replays to the run’s figures', async () => {
    const { run, clock, recording } = await recordedRun('within', { ...NO_BRAKES, timeoutMs: 60_000 }, 30_000);
    expect([run.stop.reason, run.calls, run.failedCalls, run.elapsedMs]).toEqual(['completed', 2, 1, 32_000]);
    expect(clock.waitedMs).toEqual([30_000]);
    expect(clock.now()).toBe(32_000);
    expect(recording.calls.map((call) => call.latencyMs)).toEqual([31_000, 1000]);
    expect(replayFigures(recording, settings(recording))).toEqual(figures(run));
    expect(figures(await drivenBack(recording))).toEqual(figures(run));
  });

  it('a step cap the failed call reached: stopped before the wait (max_steps), not after it', async () => {
    const { run, clock } = await recordedRun('steps', { ...NO_BRAKES, maxSteps: 1 }, 30_000);
    expect([run.stop.reason, run.calls]).toEqual(['max_steps', 1]);
    expect(clock.waitedMs).toEqual([]);
  });
});

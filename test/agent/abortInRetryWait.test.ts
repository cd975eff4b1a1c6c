/**
 * An abort during the wait before a retry counts only the time actually waited (agent/waitBeforeRetry.ts):
 * the run's elapsedMs and the failed call's recorded latencyMs hold the 0.3 s waited, not the 20 s the
 * provider's Retry-After asked; the recording replays (and drives back through the loop) to the run's
 * figures. Before, both said 20 s more than the run took, so a what-if timeout on the recording stopped a run
 * that never took that long.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { fileRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { ModelCallError, type ModelTurn } from '../../src/agent/types.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { loadTraceFile } from '../../src/import/index.js';
import { recordedBrakes } from '../../src/replay/whatif.js';
import { tempDir } from '../cli/run.js';
import { MINI } from '../helpers.js';
import { figures, replayFigures } from './traceDriven.js';
import { answer, ScriptedModel, toolTurn } from './scripted.js';

const dir = tempDir();
const echo = { name: 'echo', description: 'says it back', parameters: { type: 'object' }, run: () => 'echoed' };

/** A clock whose caller aborts `abortAfterMs` into any wait (the wait then rejects, as a real sleep does). */
class AbortingClock extends VirtualClock {
  readonly controller = new AbortController();
  constructor(private readonly abortAfterMs: number) {
    super();
  }
  override async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (ms <= this.abortAfterMs) return super.sleep(ms, signal);
    this.advance(this.abortAfterMs);
    this.controller.abort();
    signal?.throwIfAborted();
  }
}

/** A call that takes `ms` on `clock`, then gives `outcome`. */
const taking = (clock: VirtualClock, ms: number, outcome: () => ModelTurn | Error) => () => {
  clock.advance(ms);
  const result = outcome();
  if (result instanceof Error) throw result;
  return result;
};

async function abortedInWait(name: string, abortAfterMs: number) {
  const clock = new AbortingClock(abortAfterMs);
  const path = join(dir, `${name}.jsonl`);
  const rateLimited = () => new ModelCallError('rate limited', { status: 429, retryable: true, retryAfterMs: 20_000 });
  const model = new ScriptedModel([taking(clock, 1000, () => toolTurn('echo', {})), taking(clock, 500, rateLimited), taking(clock, 700, () => answer('done'))]);
  const run = await runAgentLoop({
    model,
    tools: [echo],
    brakes: { ...NO_BRAKES, maxSteps: 10 },
    context: { system: 's', goal: 'g', countTokens: (t) => t.length },
    pricing: MINI,
    clock,
    signal: clock.controller.signal,
    retry: { maxRetries: 3, backoffMs: () => 1000 },
    recorder: fileRecorder(path),
  });
  const [recording] = await loadTraceFile(path);
  return { run, model, recording: recording! };
}

describe('an abort during the wait before a retry', () => {
  it('0.3 s into a 20 s Retry-After: the run took 1.8 s (not 21.5 s), its failed call 0.8 s; the recording replays to the same figures', async () => {
    const { run, model, recording } = await abortedInWait('abort-in-wait', 300);
    expect([run.stop.reason, run.calls, run.failedCalls]).toEqual(['aborted', 2, 1]);
    expect(model.requests).toHaveLength(2);
    expect(run.elapsedMs).toBe(1800);
    expect(recording.calls.map((call) => [call.failed?.status, call.latencyMs])).toEqual([
      [undefined, 1000],
      [429, 800],
    ]);
    expect(recording.end).toMatchObject({ aborted: true });
    const replayed = replayFigures(recording, { brakes: recordedBrakes(recording), strategy: { kind: 'full' as const, cache: 'recorded' as const }, pricing: MINI });
    expect(replayed.elapsedMs).toBe(figures(run).elapsedMs);
  });

  it('a wait waited whole is counted whole, as before: the retry is made after it', async () => {
    const { run, recording } = await abortedInWait('waited-whole', 60_000);
    expect([run.stop.reason, run.calls, run.failedCalls, run.elapsedMs]).toEqual(['completed', 3, 1, 1000 + 20_500 + 700]);
    expect(recording.calls.map((call) => call.latencyMs)).toEqual([1000, 20_500, 700]);
  });
});

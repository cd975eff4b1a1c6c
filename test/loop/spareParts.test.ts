/**
 * The parts runLoop passes on from one run to the next (loop/spareParts.ts: the context tracker, the brake
 * limits, the stops' facts) carry nothing over: a run made in the parts of a run that ended — one longer than
 * the tracker's first arrays, under masking, with other brakes, stopped by its recording's end — has the
 * outcome of the same run made in new parts, row for row, and its stop says what its own run did.
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import { ReplaySource } from '../../src/loop/replaySource.js';
import { beforeCall, playCall, runLoop } from '../../src/loop/run.js';
import { LoopSession } from '../../src/loop/session.js';
import { sessionSetupOf } from '../../src/loop/sourceFacts.js';
import type { LoopOptions, RunOutcome, StepSource } from '../../src/loop/types.js';
import { call, MINI, toolCall, trace } from '../helpers.js';

/** The run in a session of its own, new parts and all, played as runLoop plays it (run.ts drive). */
function inNewParts(source: StepSource, options: LoopOptions): RunOutcome {
  const session = new LoopSession(options, sessionSetupOf(source));
  for (;;) {
    const next = beforeCall(session, source);
    if (next.stop) return session.finish(next.stop);
    const ended = playCall(session, next.response, next.view);
    if (ended) return session.finish(ended);
  }
}

const long = trace(
  Array.from({ length: 90 }, (_, k) => call(40 + k, [toolCall('read', { k }, 700 + 13 * k)])),
  { outcome: 'completed', system: 900, goal: 300 },
);
const longOptions: LoopOptions = { brakes: { ...NO_BRAKES, maxSteps: 500, maxRepeat: 5 }, strategy: { kind: 'mask', maskSteps: 3 }, cache: 'on', pricing: MINI, systemTokens: 900, goalTokens: 300 };

const short = trace([...Array.from({ length: 8 }, (_, k) => call(30 - k, [toolCall('grep', { q: k }, 400 - 30 * k)])), call(15)], { system: 500, goal: 80 });
const shortOptions: LoopOptions = { brakes: NO_BRAKES, strategy: FULL_HISTORY, cache: 'off', pricing: MINI, systemTokens: 500, goalTokens: 80, keepSteps: true };

describe('a run in the parts of a run that ended', () => {
  it('has the outcome it has in new parts', () => {
    const first = runLoop(new ReplaySource(long), longOptions);
    expect([first.steps, first.stop.detail]).toEqual([90, 'recorded run completed']);
    const reused = runLoop(new ReplaySource(short), shortOptions);
    expect(reused).toEqual(inNewParts(new ReplaySource(short), shortOptions));
    expect([reused.stop.reason, reused.stop.detail, reused.rows.length]).toEqual(['completed', 'final answer after 9 steps', 9]);
    // And the long run again, in the short one's parts: as in new ones.
    expect(runLoop(new ReplaySource(long), longOptions)).toEqual(inNewParts(new ReplaySource(long), longOptions));
    // The short one under a step cap, in the long one's parts (its limits): stopped at its own cap.
    const capped: LoopOptions = { ...shortOptions, brakes: { ...NO_BRAKES, maxSteps: 7 } };
    const stopped = runLoop(new ReplaySource(short), capped);
    expect(stopped).toEqual(inNewParts(new ReplaySource(short), capped));
    expect([stopped.stop.reason, stopped.stop.detail]).toEqual(['max_steps', '7 steps taken, limit 7']);
  });
});

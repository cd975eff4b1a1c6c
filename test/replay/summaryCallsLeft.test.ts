/**
 * The calls a replayed recording has left (kernel/summaryBeforeCall.ts callsLeft), written once: a call its provider
 * refused (failed.contextLengthExceeded, the recording's last) is a call left to make, so a summary call due right
 * before it is made (then the refused call ends the run provider_refused), in every engine alike — the readable
 * replay, the compiled replay (whose compiled calls leave the refused one out: fast/refusal.ts), the session-tree
 * replay and the real loop driven by the recording; without the refused call, none is left there, and the run ends
 * as its recording does, no summary call billed.
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import { replayTrace, type RunResult } from '../../src/replay/replay.js';
import type { CallRecord, Trace } from '../../src/trace/types.js';
import { replaySessionTree } from '../../src/tree/engine.js';
import { figures, runTraceDriven } from '../agent/traceDriven.js';
import { lcg } from '../agent/strategyRuns.js';
import { call, MINI, MINI_TABLE, toolCall, trace } from '../helpers.js';

const REFUSED: CallRecord = { type: 'call', outputTokens: 0, latencyMs: 700, failed: { status: 400, message: 'context_length_exceeded', contextLengthExceeded: { promptTokens: 130_000, contextWindowTokens: 128_000 } } };

/** 2–13 steps of seeded sizes, prompts unrecorded, then the provider's refusal of the next call: the run ended there, `error`. */
function refusedRecording(next: (n: number) => number): Trace {
  const calls = Array.from({ length: 2 + next(12) }, (_, i) => call(20 + next(200), [toolCall('t', { i }, 100 + next(3000))], { latencyMs: 100 + next(900) }));
  return trace([...calls, REFUSED], { outcome: 'error' });
}

const replay = (t: Trace, strategy: ContextStrategy, engine: 'readable' | 'compiled'): RunResult => replayTrace(t, { brakes: NO_BRAKES, strategy, prices: MINI_TABLE, keepSteps: engine === 'readable', engine });
const tree = (t: Trace, strategy: ContextStrategy) =>
  replaySessionTree({ sessionId: 's', agents: [{ agentId: 'main', kind: 'main', runs: [t] }], notes: [] }, { brakes: NO_BRAKES, strategy, pricingOf: () => MINI, cacheOf: () => 'recorded' }).agents[0]!;

/** Seeded recordings whose readable replay makes a summary call right before the refused call. */
function cases(count: number): { recording: Trace; strategy: ContextStrategy }[] {
  const found: { recording: Trace; strategy: ContextStrategy }[] = [];
  for (let seed = 1; found.length < count && seed < 40 * count; seed++) {
    const next = lcg(seed);
    const recording = refusedRecording(next);
    const strategy: ContextStrategy = { kind: 'summary', cache: 'recorded', summary: { triggerTokens: 1000 + next(12_000), keepSteps: 1 + next(3), summaryTokens: 100 + next(300) } };
    if (replay(recording, strategy, 'readable').rows.at(-2)?.summary === true) found.push({ recording, strategy });
  }
  return found;
}

describe('a call its provider refused is a call left: a summary call due right before it is made, in every engine', () => {
  const found = cases(30);

  it('finds 30 seeded recordings with a summary call due right before their refused call', () => {
    expect(found.length).toBe(30);
  });

  it('readable, compiled and session-tree replay and the trace-driven real loop: the summary call made, then provider_refused, the same figures', async () => {
    for (const { recording, strategy } of found) {
      const readable = replay(recording, strategy, 'readable');
      expect([readable.stopReason, readable.rows.at(-1)!.failed]).toEqual(['provider_refused', true]);
      const expected = figures(readable);
      expect(figures(replay(recording, strategy, 'compiled'))).toEqual(expected);
      const agent = tree(recording, strategy);
      expect([agent.stop?.reason, agent.calls, agent.summaryCalls ?? 0, agent.costPico]).toEqual([expected.stopReason, expected.calls, expected.summaryCalls, expected.costPico]);
      expect(figures(await runTraceDriven(recording, { brakes: NO_BRAKES, strategy, pricing: MINI }))).toEqual(expected);
    }
  });

  it('without the refused call no call is left there: every engine ends trace_end before that summary call, unbilled', async () => {
    for (const { recording, strategy } of found) {
      const cut: Trace = { ...recording, calls: recording.calls.slice(0, -1), end: { type: 'end', outcome: 'limit' } };
      const readable = replay(cut, strategy, 'readable');
      const withRefused = replay(recording, strategy, 'readable');
      expect([readable.stopReason, readable.summaryCalls ?? 0]).toEqual(['trace_end', (withRefused.summaryCalls ?? 0) - 1]);
      expect(figures(replay(cut, strategy, 'compiled'))).toEqual(figures(readable));
      expect(figures(await runTraceDriven(cut, { brakes: NO_BRAKES, strategy, pricing: MINI }))).toEqual(figures(readable));
    }
  });
});

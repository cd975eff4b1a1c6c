/**
 * A summary call is made only before a call the run makes (kernel/summaryBeforeCall.ts): a recording that ends
 * without a final answer right where a summary would be due ends there, no summary call billed — in the readable
 * replay, the compiled replay and the real loop driven by the recording (agent/traceModel.ts), alike to the
 * picodollar; a run its brake stops at its last call makes none either. Each seeded case is found by appending a
 * final answer to a random recording: the appended recording makes a summary call right before that answer.
 * Before the fix every path billed that summary call after the last recorded call (review s25 finding 1).
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import { replayTrace, type RunResult } from '../../src/replay/replay.js';
import type { CallRecord, Trace } from '../../src/trace/types.js';
import { figures, runTraceDriven } from '../agent/traceDriven.js';
import { lcg } from '../agent/strategyRuns.js';
import { call, MINI, MINI_TABLE, toolCall, trace } from '../helpers.js';

/** A recording of 2–13 steps with no final answer; with recorded prompts (framing beyond the tracked context) in some. */
function randomRecording(next: (n: number) => number): Trace {
  const framing = next(2) === 0 ? 0 : 100 + next(900);
  let context = 100;
  const calls: CallRecord[] = Array.from({ length: 2 + next(12) }, (_, i) => {
    const out = 20 + next(200);
    const result = 100 + next(3000);
    const record = call(out, [toolCall('t', { i }, result)], framing > 0 ? { inputTokens: context + framing } : {});
    context += out + result;
    return record;
  });
  return trace(calls, { outcome: next(2) === 0 ? 'limit' : 'unknown', origin: framing > 0 ? 'recorded' : 'synthetic' });
}

const withAnswer = (t: Trace): Trace => ({ ...t, calls: [...t.calls, call(30, undefined, { final: true })], end: { type: 'end', outcome: 'completed' } });
const replay = (t: Trace, strategy: ContextStrategy, brakes: BrakeConfig, engine: 'readable' | 'compiled'): RunResult => replayTrace(t, { brakes, strategy, prices: MINI_TABLE, keepSteps: engine === 'readable', engine });

interface Case {
  recording: Trace;
  strategy: ContextStrategy;
  /** The appended recording, read by the readable replay: its summary call right before the answer. */
  appended: RunResult;
}

/** The seeded cases whose appended recording makes a summary call right before its answer. */
function cases(count: number): Case[] {
  const found: Case[] = [];
  for (let seed = 1; found.length < count && seed < 20 * count; seed++) {
    const next = lcg(seed);
    const recording = randomRecording(next);
    const strategy: ContextStrategy = { kind: 'summary', cache: 'recorded', summary: { triggerTokens: 1000 + next(12_000), keepSteps: 1 + next(3), summaryTokens: 100 + next(300) } };
    const appended = replay(withAnswer(recording), strategy, NO_BRAKES, 'readable');
    if (appended.rows.at(-2)?.summary === true) found.push({ recording, strategy, appended });
  }
  return found;
}

describe('no summary call after a recording’s last call', () => {
  const found = cases(60);

  it('finds 60 seeded recordings that end right where a summary call is due', () => {
    expect(found.length).toBe(60);
  });

  it('readable and compiled replay end trace_end at the last call, billed as the appended recording up to its summary call', () => {
    for (const { recording, strategy, appended } of found) {
      const beforeSummary = appended.rows.at(-3)!;
      for (const engine of ['readable', 'compiled'] as const) {
        const run = replay(recording, strategy, NO_BRAKES, engine);
        expect([run.stopReason, run.modelCalls, run.summaryCalls ?? 0]).toEqual(['trace_end', beforeSummary.call, (appended.summaryCalls ?? 0) - 1]);
        expect(run.costPico).toBe(beforeSummary.cumulativeCostPico);
        if (engine === 'readable') expect(run.rows.at(-1)!.summary).toBeUndefined();
      }
    }
  });

  // The real loop bills what its provider reports: a recording's own prompt sizes are full history's, so it is held to replay on the recordings without them (as test/agent/parity.test.ts is).
  const unrecorded = found.filter(({ recording }) => recording.calls[0]!.inputTokens === undefined);

  it('the real loop driven by the recording makes no summary call there either: its figures are replay’s', async () => {
    expect(unrecorded.length).toBeGreaterThan(20);
    for (const { recording, strategy, appended } of unrecorded) {
      const settings = { brakes: NO_BRAKES, strategy, pricing: MINI };
      const real = figures(await runTraceDriven(recording, settings));
      expect(real).toEqual(figures(replay(recording, strategy, NO_BRAKES, 'readable')));
      expect([real.calls, real.summaryCalls]).toEqual([appended.rows.at(-3)!.call, (appended.summaryCalls ?? 0) - 1]);
    }
  });

  it('a run its step brake stops at its last call makes no summary call after it, in every path', async () => {
    for (const { recording, strategy } of found) {
      const brakes: BrakeConfig = { ...NO_BRAKES, maxSteps: recording.calls.length };
      const [readable, compiled] = [replay(recording, strategy, brakes, 'readable'), replay(recording, strategy, brakes, 'compiled')];
      expect([readable.stopReason, readable.rows.at(-1)!.summary]).toEqual(['max_steps', undefined]);
      expect(figures(compiled)).toEqual(figures(readable));
      if (recording.calls[0]!.inputTokens === undefined) expect(figures(await runTraceDriven(recording, { brakes, strategy, pricing: MINI }))).toEqual(figures(readable));
    }
  });
});

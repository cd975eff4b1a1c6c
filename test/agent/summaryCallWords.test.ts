/**
 * A real run's summary calls, said and counted the same by the run, by every replay of its recording and by
 * the run driven back by it (traceModel): a summary call its provider refused for its length is "the summary
 * call" in every stop detail (the recording marks it a compaction call; replay said "the call"), and a summary
 * call made is a model call in `calls` (the README: compaction calls are paid calls), as its recording's
 * compaction record is in a replay (the live run counted 3 calls where its replay counted 4). Money unchanged.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { memoryRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { defineTool } from '../../src/agent/tools.js';
import { ModelCallError, type ModelRequest, type ModelTurn } from '../../src/agent/types.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import { replayTrace } from '../../src/replay/replay.js';
import { writeNativeTraces } from '../../src/trace/writeNative.js';
import { tempDir } from '../cli/run.js';
import { handTable, MINI } from '../helpers.js';
import { everywhere, stopsInEveryEngine } from './everyEngine.js';
import { readWarm } from './recordedRuns.js';
import { ScriptedModel, type Step } from './scripted.js';
import { figures, replayFigures, runTraceDriven, type Settings } from './traceDriven.js';

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
const echo = defineTool<{ text: string }>({ name: 'echo', description: 'says it back', parameters: { type: 'object' }, run: ({ text }) => text });
/** A step: 50 out, an echo of 3 tokens; system + goal = 2: the prompts are 2, 55, 108, then 161 > 150 — a summary call due. */
const step = (n: number): ModelTurn => ({ text: null, toolCalls: [{ id: `c${n}`, name: 'echo', arguments: JSON.stringify({ text: `r${n} a b` }) }], usage: { outputTokens: 50 } });
const strategy: ContextStrategy = { kind: 'summary', summary: { triggerTokens: 150, keepSteps: 1, summaryTokens: 30 } };
const asRecorded: Settings = { brakes: NO_BRAKES, strategy: { kind: 'full', cache: 'recorded' }, pricing: MINI };

async function liveRun(script: Step[]) {
  const recorder = memoryRecorder();
  const model = new ScriptedModel(script, MINI.model);
  const live = await runAgentLoop({ model, tools: [echo], brakes: NO_BRAKES, unbounded: true, context: { system: 's', goal: 'g', strategy, countTokens: words }, pricing: MINI, clock: new VirtualClock(), recorder });
  return { live, recording: recorder.trace() };
}

describe('a refused summary call: the replay of its recording says what the run said', () => {
  it('"the provider refused the summary call: …" in the run, every replay engine (from a warm compiled-trace cache too) and the run driven by its recording', async () => {
    const refusal = { promptTokens: 170, maxOutputTokens: 30, contextWindowTokens: 190 };
    const { live, recording } = await liveRun([step(1), step(2), step(3), new ModelCallError('too long', { status: 400, retryable: false, refusal })]);
    const detail = 'the provider refused the summary call: prompt of 170 tokens + max_tokens 30 > context window 190';
    expect(live.stop).toEqual({ reason: 'provider_refused', detail });
    expect(recording.calls.at(-1)).toMatchObject({ compaction: true, failed: { contextLengthExceeded: refusal } });
    expect(stopsInEveryEngine(recording, NO_BRAKES)).toEqual(everywhere('provider_refused', detail));
    const driven = figures(await runTraceDriven(recording, asRecorded));
    expect(driven).toEqual(replayFigures(recording, asRecorded));
    expect([driven.stopDetail, driven.calls, driven.costPico]).toEqual([detail, live.calls, live.costPico]);
    const path = join(tempDir(), 'refused-summary.jsonl');
    writeFileSync(path, writeNativeTraces([recording]));
    const warm = replayTrace(await readWarm(path), { brakes: NO_BRAKES, strategy: { kind: 'full', cache: 'recorded' }, prices: handTable(MINI), pricing: MINI });
    expect([warm.stopReason, warm.stopDetail]).toEqual(['provider_refused', detail]);
  });

  it('an ordinary call refused still says "the call"', async () => {
    const refusal = { promptTokens: 120, maxOutputTokens: 30, contextWindowTokens: 140 };
    const { live, recording } = await liveRun([step(1), step(2), new ModelCallError('too long', { status: 400, retryable: false, refusal })]);
    const detail = 'the provider refused the call: prompt of 120 tokens + max_tokens 30 > context window 140';
    expect(live.stop).toEqual({ reason: 'provider_refused', detail });
    expect(stopsInEveryEngine(recording, NO_BRAKES)).toEqual(everywhere('provider_refused', detail));
  });
});

describe('a summary call made is one of the run’s calls, as its recording’s compaction record is in a replay', () => {
  const summaryCall = (_request: ModelRequest): ModelTurn => ({ text: 'echoed r1 and r2', toolCalls: [], usage: { inputTokens: 170, outputTokens: 12 } });
  const done: ModelTurn = { text: 'done', toolCalls: [], usage: { outputTokens: 5 } };

  it('a summary call answered: 5 calls (4 steps + the summary call) in the run, its replay and the run driven by its recording', async () => {
    const { live, recording } = await liveRun([step(1), step(2), step(3), summaryCall, done]);
    expect([live.stop.reason, live.steps, live.calls, live.summaryCalls, live.failedCalls]).toEqual(['completed', 4, 5, 1, 0]);
    const replayed = replayTrace(recording, { brakes: NO_BRAKES, strategy: { kind: 'full', cache: 'recorded' }, prices: handTable(MINI), pricing: MINI });
    expect([replayed.modelCalls, replayed.steps, replayed.costPico]).toEqual([live.calls, live.steps, live.costPico]);
    const driven = figures(await runTraceDriven(recording, asRecorded));
    expect([driven.calls, driven.costPico]).toEqual([live.calls, live.costPico]);
  });

  it('a summary call that failed (the model gave up at it): 4 calls, 1 failed, in the run as in its replay', async () => {
    const { live, recording } = await liveRun([step(1), step(2), step(3), new ModelCallError('overloaded', { status: 529, retryable: true, usage: { inputTokens: 300, outputTokens: 0 } })]);
    const replayed = replayTrace(recording, { brakes: NO_BRAKES, strategy: { kind: 'full', cache: 'recorded' }, prices: handTable(MINI), pricing: MINI });
    expect([live.stop.reason, live.calls, live.failedCalls, live.costPico]).toEqual(['trace_end', 4, 1, replayed.costPico]);
    expect([replayed.modelCalls, replayed.failedCalls]).toEqual([live.calls, live.failedCalls]);
  });

  it('replay under a summary strategy counts the summary calls it makes among its calls, in every engine (the run driven the same)', async () => {
    // The summary call (the 4th) answered with text: one that answers none compacts nothing (emptySummary.test.ts).
    const { live, recording: recorded } = await liveRun([step(1), step(2), step(3), { ...step(4), text: 'so far' }, step(5), done]);
    // Its prompts unrecorded (as parity.test.ts drives summary strategies: sized by the context, the same in both).
    const stripped = { ...recorded, calls: recorded.calls.map(({ inputTokens: _i, cachedInputTokens: _c, ...call }) => call) };
    const settings: Settings = { brakes: NO_BRAKES, strategy: { ...strategy, cache: 'recorded' }, pricing: MINI };
    // Under the strategy its header states, the recording is replayed as its loop ran it: its summary call counted once.
    const asRan = replayFigures(stripped, settings);
    expect([asRan.calls, asRan.summaryCalls]).toEqual([live.calls, 1]);
    expect(replayTrace(stripped, { brakes: NO_BRAKES, strategy: settings.strategy, prices: handTable(MINI), pricing: MINI, engine: 'readable' }).modelCalls).toBe(live.calls);
    // A recording that states no context is full history: the summary strategy then makes its own summary calls, each a call.
    const { context: _context, ...header } = stripped.header;
    const recording = { ...stripped, header };
    const replayed = replayFigures(recording, settings);
    expect(replayed.summaryCalls).toBeGreaterThan(0);
    expect(replayed.calls).toBe(recording.calls.length + replayed.summaryCalls);
    const readable = replayTrace(recording, { brakes: NO_BRAKES, strategy: settings.strategy, prices: handTable(MINI), pricing: MINI, engine: 'readable' });
    expect(readable.modelCalls).toBe(replayed.calls);
    expect(figures(await runTraceDriven(recording, settings))).toEqual(replayed);
  });
});

/**
 * A failed summary call, driven back through the real loop by its recording: the loop that made it paid it
 * as a summary call, no step (loop.ts summarize), and its recorder wrote it as a failed compaction call,
 * which a replay counts as no step either (kernel countsAsStep). Driven through full history by traceModel,
 * the recorded call comes back as a failed model call; before the fix the loop's failed call record
 * dropped its compaction mark, so the driven run counted it as a step and a replay did not (and an abort
 * during it said one step more than the run had taken). Over HTTP (`loopcost serve` answering from the
 * recording, overHttp.ts) the same.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { memoryRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { defineTool } from '../../src/agent/tools.js';
import { ModelCallError, type ModelTurn } from '../../src/agent/types.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import { startServer, type RunningServer } from '../../src/serve/index.js';
import type { CallRecord, Trace } from '../../src/trace/types.js';
import { handTable, MINI, trace } from '../helpers.js';
import { runOverHttp } from './overHttp.js';
import { ScriptedModel, type Step } from './scripted.js';
import { figures, replayFigures, runTraceDriven, type Settings } from './traceDriven.js';
import { asFullHistory } from './fullHistory.js';

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
const echo = defineTool<{ text: string }>({ name: 'echo', description: 'says it back', parameters: { type: 'object' }, run: ({ text }) => text });
/** A step: 50 tokens out, an echo of 3 tokens (the prompt grows 53 a step: 2, 55, 108, then 161 > 150 — a summary due). */
const step = (n: number): ModelTurn => ({ text: null, toolCalls: [{ id: `c${n}`, name: 'echo', arguments: JSON.stringify({ text: `r${n} a b` }) }], usage: { outputTokens: 50 } });
const strategy: ContextStrategy = { kind: 'summary', summary: { triggerTokens: 150, keepSteps: 1, summaryTokens: 30 } };
/** The recording replayed and driven as recorded: full history, the cache as the provider reported it. */
const asRecorded: Settings = { brakes: NO_BRAKES, strategy: { kind: 'full', cache: 'recorded' }, pricing: MINI };

/** A real run under the summary strategy whose summary call is `summary` (after steps 1–3), recorded. */
async function liveRun(summary: Step, signal?: AbortSignal) {
  const recorder = memoryRecorder();
  const model = new ScriptedModel([step(1), step(2), step(3), summary], MINI.model);
  const live = await runAgentLoop({ model, tools: [echo], brakes: NO_BRAKES, unbounded: true, context: { system: 's', goal: 'g', strategy, countTokens: words }, pricing: MINI, clock: new VirtualClock(), recorder, ...(signal ? { signal } : {}) });
  return { live, recording: recorder.trace() };
}

async function drivenAndReplayed(recording: Trace) {
  // Driven under full context: the recording replayed as full history (the replay as the loop ran it, under its summary strategy: summaryRecordedParity.test.ts).
  return { driven: figures(await runTraceDriven(recording, asRecorded)), replayed: replayFigures(asFullHistory(recording), asRecorded) };
}

describe('a failed summary call, driven by its recording = replayed = the run', () => {
  it('the model gave up at it: 3 steps in the run, its replay and the run driven by its recording (4 before the fix)', async () => {
    const { live, recording } = await liveRun(new ModelCallError('overloaded', { status: 529, retryable: true, usage: { inputTokens: 300, outputTokens: 0 } }));
    expect([live.stop.reason, live.stop.detail, live.steps]).toEqual(['trace_end', 'summary call failed: overloaded; not retried', 3]);
    expect(recording.calls.at(-1)).toMatchObject({ compaction: true, inputTokens: 300, failed: { status: 529, message: 'overloaded' } });
    const { driven, replayed } = await drivenAndReplayed(recording);
    expect(driven).toEqual(replayed);
    expect([driven.stopReason, driven.stopDetail, driven.steps, driven.calls, driven.costPico]).toEqual(['trace_end', live.stop.detail, live.steps, 4, live.costPico]);
  });

  it('the model gave up at it after 800 ms: that time recorded (its latency) and counted in the run’s, its replay’s and the driven run’s (before: latency 0, the run 800 ms short)', async () => {
    const clock = new VirtualClock();
    const recorder = memoryRecorder();
    const failing: Step = () => {
      clock.advance(800);
      throw new ModelCallError('overloaded', { status: 529, retryable: true });
    };
    const model = new ScriptedModel([step(1), step(2), step(3), failing], MINI.model);
    const live = await runAgentLoop({ model, tools: [echo], brakes: NO_BRAKES, unbounded: true, context: { system: 's', goal: 'g', strategy, countTokens: words }, pricing: MINI, clock, recorder });
    const recording = recorder.trace();
    expect([live.stop.reason, live.elapsedMs]).toEqual(['trace_end', 800]);
    expect(recording.calls.at(-1)).toMatchObject({ compaction: true, latencyMs: 800, failed: { status: 529 } });
    const { driven, replayed } = await drivenAndReplayed(recording);
    expect(driven).toEqual(replayed);
    expect([replayed.elapsedMs, replayed.costPico]).toEqual([live.elapsedMs, live.costPico]);
  });

  it('aborted while it was made: the driven run is aborted after 3 steps, as the run was, and replays to the same end (not "after 4 steps")', async () => {
    const controller = new AbortController();
    const aborted: Step = () => {
      controller.abort();
      throw new DOMException('This operation was aborted', 'AbortError');
    };
    const { live, recording } = await liveRun(aborted, controller.signal);
    const detail = 'stopped by its AbortSignal after 3 steps';
    expect([live.stop.reason, live.stop.detail, live.steps]).toEqual(['aborted', detail, 3]);
    expect(recording.calls.at(-1)).toMatchObject({ compaction: true, failed: { message: 'aborted by the caller' } });
    const drivenRun = await runTraceDriven(recording, asRecorded);
    expect([drivenRun.stop.reason, drivenRun.stop.detail, drivenRun.steps]).toEqual(['aborted', detail, 3]);
    const { driven, replayed } = await drivenAndReplayed(recording);
    expect({ ...driven, stopReason: 'trace_end' }).toEqual(replayed);
    expect([replayed.stopReason, replayed.stopDetail]).toEqual(['trace_end', detail]);
  });

  it('a failed compaction call mid-run in an imported recording: no step, retried, the run goes on (4 steps, not 5)', async () => {
    const t = midRunFailure();
    const driven = figures(await runTraceDriven(t, asRecorded));
    expect(driven).toEqual(replayFigures(t, asRecorded));
    expect([driven.stopReason, driven.stopDetail, driven.steps, driven.calls]).toEqual(['completed', 'final answer after 4 steps', 4, 5]);
  });
});

/** Two steps, a failed compaction call, a step, an answer: an imported recording (not the real loop's: it goes on after the failure). */
function midRunFailure(): Trace {
  const tool = (out: number): CallRecord => ({ type: 'call', outputTokens: out, latencyMs: 10, toolCalls: [{ name: 'read', arguments: { x: out }, resultTokens: 50 }] });
  const failedSummary: CallRecord = { type: 'call', outputTokens: 0, latencyMs: 0, compaction: true, failed: { status: 500, message: 'busy' } };
  return trace([tool(10), tool(20), failedSummary, tool(30), { type: 'call', outputTokens: 5, latencyMs: 1 }], { outcome: 'completed', model: MINI.model, origin: 'recorded' });
}

describe('a failed summary call over HTTP (the real loop → openai SDK → loopcost serve answering from the recording) = replayed', () => {
  const servers: RunningServer[] = [];
  afterAll(async () => Promise.all(servers.map((server) => server.close())));

  it('the real loop’s recording whose model gave up at it, and an imported one that went on after it', async () => {
    const { recording } = await liveRun(new ModelCallError('overloaded', { status: 529, retryable: true, usage: { inputTokens: 300, outputTokens: 0 } }));
    const traces = [{ ...recording, source: 'gave-up' }, { ...midRunFailure(), source: 'went-on' }];
    const server = await startServer({ sources: { traces }, prices: handTable(MINI), cache: 'recorded' });
    servers.push(server);
    const steps: number[] = [];
    for (let i = 0; i < traces.length; i++) {
      const real = figures(await runOverHttp(server, traces, i, asRecorded));
      expect(real, traces[i]!.source).toEqual(replayFigures(asFullHistory(traces[i]!), asRecorded));
      steps.push(real.steps);
    }
    expect(steps).toEqual([3, 4]);
  });
});

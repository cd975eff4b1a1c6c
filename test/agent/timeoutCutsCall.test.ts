/**
 * The real loop's timeout cuts a call in flight (agent/deadline.ts): each model call and tool call gets a
 * signal that fires once the run's time passes `timeoutMs` (strictly, kernel timedOut), on the loop's clock.
 * Before, the brake was checked between calls only: a model call or a tool that hung ran on past the
 * timeout until it returned (these tests' doubles never return unless cut: they failed by vitest's timeout).
 * The cut call is recorded as it ran until cut (a model call: failed `timed out…`, no usage, no cost; a
 * tool call: the error it threw, the ones after it `unreached`), the brakes before the next call stop the
 * run `timeout`, and the recording replays — in every engine, and driven back through the loop by
 * traceModel — to the same stop, steps and cost.
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { CUT_MESSAGE } from '../../src/agent/deadline.js';
import { memoryRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { defineTool } from '../../src/agent/tools.js';
import type { AgentTool, Model, ModelRequest, ModelTurn } from '../../src/agent/types.js';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import type { Trace } from '../../src/trace/types.js';
import { pricings } from '../core/arbitraries.js';
import { everywhere, stopsInEveryEngine } from './everyEngine.js';
import { readTool } from './realLoopRuns.js';
import { recordRun } from './recordedRuns.js';
import { ScriptedModel, type Step } from './scripted.js';
import { figures, replayFigures, runTraceDriven } from './traceDriven.js';
import { asFullHistory } from './fullHistory.js';

const pricing = pricings[0]!;
const brakes: BrakeConfig = { ...NO_BRAKES, timeoutMs: 3000 };
const FAST = { timeout: 2000 };

/** Waits until `signal` fires (never, without one), then throws its reason, as an HTTP client does. */
function untilAborted(signal: AbortSignal | undefined): Promise<never> {
  return new Promise((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason), { once: true }));
}

/** Call 1 asks for `tools` after 1 s; call 2 runs `hangMs` on `clock` and then hangs until cut; after that, an answer. */
function hangingModel(clock: VirtualClock, tools: ModelTurn['toolCalls'], hangMs: number): Model & { signals: (AbortSignal | undefined)[] } {
  const signals: (AbortSignal | undefined)[] = [];
  return {
    name: pricing.model,
    signals,
    async call(request: ModelRequest): Promise<ModelTurn> {
      signals.push(request.signal);
      if (signals.length === 1) {
        clock.advance(1000);
        return { text: null, toolCalls: tools, usage: { inputTokens: 40, outputTokens: 30 } };
      }
      if (signals.length === 2) {
        clock.advance(hangMs);
        return untilAborted(request.signal);
      }
      return { text: 'done', toolCalls: [], usage: { inputTokens: 90, outputTokens: 5 } };
    },
  };
}

/** A tool that runs 5 s on `clock`, then hangs until cut. */
const slowTool = (clock: VirtualClock): AgentTool => ({
  name: 'slow',
  description: 'hangs',
  parameters: { type: 'object' },
  run: (_args, { signal }) => {
    clock.advance(5000);
    return untilAborted(signal);
  },
});

/** The recording replayed by every engine and driven back through the loop by traceModel: the same stop (its detail naming the call the deadline cut, as the run's did), steps and cost as the run. */
async function replaysAsRun(recording: Trace, real: { stop: { reason: string }; steps: number; costPico: number; elapsedMs: number }, detail: string) {
  expect(stopsInEveryEngine(recording, brakes)).toEqual(everywhere('timeout', detail));
  const settings = { brakes, strategy: { kind: 'full' as const, cache: 'recorded' as const }, pricing };
  const replayed = replayFigures(recording, settings);
  expect([replayed.stopReason, replayed.steps, replayed.costPico, replayed.elapsedMs]).toEqual([real.stop.reason, real.steps, real.costPico, real.elapsedMs]);
  // Driven by traceModel, a recorded tool call the deadline cut says so again; a cut model call is a recorded failure: the detail names either as the run's did.
  const driven = figures(await runTraceDriven(recording, settings));
  // (Driven under full context: the recording replayed as full history; replayed above as its loop ran it, its strategy's summary calls counted.)
  expect(driven).toEqual(replayFigures(asFullHistory(recording), settings));
}

describe('the timeout cuts a call in flight', () => {
  it('a model call that hangs is cut once the run passes its timeout: recorded failed, billed at its prompt estimate (marked estimated), stopped timeout, replayed so', FAST, async () => {
    const clock = new VirtualClock();
    const model = hangingModel(clock, [{ id: 'c1', name: 'read', arguments: '{}' }], 5000);
    const { real, recording } = await recordRun({ model, tools: [readTool], brakes, pricing, clock });
    expect([real.stop.reason, real.stop.detail]).toEqual(['timeout', '6.000 s elapsed, limit 3 s; the model call in flight was cut off at the deadline (no response read)']);
    expect([real.steps, real.calls, real.elapsedMs]).toEqual([2, 2, 6000]);
    // Sent and never answered: billed at the prompt the loop estimated before sending it (its first prompt, 40, and the call's 30 output and its tool result), as the provider may have billed it.
    expect(recording.calls[1]).toMatchObject({ outputTokens: 0, latencyMs: 5000, failed: { message: CUT_MESSAGE, estimated: true } });
    expect(recording.calls[1]!.inputTokens).toBeGreaterThan(40);
    expect(recording.end).toMatchObject({ outcome: 'limit', status: `timeout: ${real.stop.detail}` });
    const first = replayFigures({ ...recording, calls: [recording.calls[0]!] }, { brakes: NO_BRAKES, strategy: { kind: 'full', cache: 'recorded' }, pricing });
    expect(real.costPico).toBe(first.costPico + recording.calls[1]!.inputTokens! * pricing.base.input);
    await replaysAsRun(recording, real, real.stop.detail);
  });

  it('fires only past the timeout (elapsed equal to it is not past), combined with the caller\'s own signal', FAST, async () => {
    const clock = new VirtualClock();
    const controller = new AbortController();
    const seen: boolean[] = [];
    const model: Model = {
      name: pricing.model,
      async call({ signal }) {
        clock.advance(3000);
        seen.push(signal!.aborted);
        clock.advance(0.5);
        seen.push(signal!.aborted);
        return untilAborted(signal);
      },
    };
    const run = await runAgentLoop({ model, tools: [], brakes, pricing, clock, signal: controller.signal, context: { system: 's', goal: 'g', countTokens: (text) => text.length } });
    // At 3 s the deadline has not passed; the first reading past it fires the signal (a microtask later).
    expect(seen).toEqual([false, false]);
    expect([run.stop.reason, run.elapsedMs, run.steps]).toEqual(['timeout', 3000.5, 1]);
    // The caller's signal still stops the run, the call given both.
    const aborting: Model = { name: pricing.model, call: ({ signal }) => (queueMicrotask(() => controller.abort()), untilAborted(signal)) };
    const aborted = await runAgentLoop({ model: aborting, tools: [], brakes, pricing, clock: new VirtualClock(), signal: controller.signal, context: { system: 's', goal: 'g', countTokens: (text) => text.length } });
    expect(aborted.stop.reason).toBe('aborted');
  });

  it('a tool that hangs is cut: its error recorded, the tool calls after it unreached, stopped timeout, replayed so', FAST, async () => {
    const clock = new VirtualClock();
    const model = hangingModel(clock, [{ id: 'c1', name: 'slow', arguments: '{}' }, { id: 'c2', name: 'read', arguments: '{}' }], 0);
    const { real, recording } = await recordRun({ model, tools: [slowTool(clock), readTool], brakes, pricing, clock });
    expect([real.stop.reason, real.stop.detail]).toEqual(['timeout', '6.000 s elapsed, limit 3 s; the tool call slow in flight was cut off at the deadline']);
    expect([real.steps, real.calls, real.toolCalls]).toEqual([1, 1, 1]);
    expect(recording.calls[0]!.toolCalls).toEqual([
      { name: 'slow', arguments: {}, resultTokens: expect.any(Number), latencyMs: 5000, error: `TimeoutError: ${CUT_MESSAGE}`, id: 'c1' },
      { name: 'read', arguments: {}, resultTokens: 0, id: 'c2', unreached: true },
    ]);
    await replaysAsRun(recording, real, real.stop.detail);
  });

  it('a tool, its call\'s last, that throws an error of its own once its signal fired was cut by the brake: recorded as the cut, named cut by the run and by every replay', FAST, async () => {
    const clock = new VirtualClock();
    const model = hangingModel(clock, [{ id: 'c1', name: 'read', arguments: '{}' }, { id: 'c2', name: 'fetch', arguments: '{}' }], 0);
    // As a fetch given the signal fails: its own AbortError, not the deadline's reason.
    const ownError: AgentTool = {
      name: 'fetch',
      description: 'fails its own way once cut',
      parameters: { type: 'object' },
      run: async (_args, { signal }) => {
        clock.advance(5000);
        await untilAborted(signal).catch(() => undefined);
        throw new Error('ECONNRESET: socket closed under the request');
      },
    };
    const { real, recording } = await recordRun({ model, tools: [readTool, ownError], brakes, pricing, clock });
    const detail = '6.000 s elapsed, limit 3 s; the tool call fetch in flight was cut off at the deadline';
    expect([real.stop.reason, real.stop.detail]).toEqual(['timeout', detail]);
    expect(recording.calls[0]!.toolCalls![1]).toEqual({ name: 'fetch', arguments: {}, resultTokens: expect.any(Number), latencyMs: 5000, error: `TimeoutError: ${CUT_MESSAGE}`, id: 'c2' });
    await replaysAsRun(recording, real, detail);
  });

  it('without a timeout nothing is cut: the call is given the caller\'s signal alone', FAST, async () => {
    const clock = new VirtualClock();
    const model = hangingModel(clock, [], 0);
    const run = await runAgentLoop({ model, tools: [], brakes: { ...NO_BRAKES, maxSteps: 3 }, pricing, clock, context: { system: 's', goal: 'g', countTokens: (text) => text.length } });
    expect([run.stop.reason, model.signals]).toEqual(['completed', [undefined]]);
  });
});

/** The summary strategy's run (summaryLive.ts): each step 50 tokens out and an echo of 3 (the prompt 2, 55, 108, then 161 > 150: a summary due after step 3). */
const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
const echo = defineTool<{ text: string }>({ name: 'echo', description: 'says it back', parameters: { type: 'object' }, run: ({ text }) => text });
const summarising: ContextStrategy = { kind: 'summary', summary: { triggerTokens: 150, keepSteps: 1, summaryTokens: 30 } };

/** A real run under the summary strategy, recorded: three steps of 500 ms each on `clock`, then `summary` (the summary call), then an answer. */
async function summaryRun(clock: VirtualClock, summary: Step) {
  const step = (n: number): Step => () => {
    clock.advance(500);
    return { text: null, toolCalls: [{ id: `c${n}`, name: 'echo', arguments: JSON.stringify({ text: `r${n} a b` }) }], usage: { outputTokens: 50 } };
  };
  const model = new ScriptedModel([step(1), step(2), step(3), summary, { text: 'done', toolCalls: [], usage: { outputTokens: 5 } }], pricing.model);
  const recorder = memoryRecorder();
  const real = await runAgentLoop({ model, tools: [echo], brakes, unbounded: true, context: { system: 's', goal: 'g', strategy: summarising, countTokens: words }, pricing, clock, recorder });
  return { real, recording: recorder.trace(), model };
}

describe('the summary call under the timeout (liveSummary.ts)', () => {
  // Before: the summary call was given the caller's signal only (one that hung ran on past the timeout: these
  // tests failed by vitest's timeout), recorded with latency 0, and its time counted with the next call's.
  it('a summary call that hangs is cut once the run passes its timeout: recorded a failed compaction call billed at its prompt estimate, with its time, stopped timeout, replayed so', FAST, async () => {
    const clock = new VirtualClock();
    const { real, recording } = await summaryRun(clock, ({ signal }) => {
      clock.advance(2000);
      return untilAborted(signal);
    });
    expect([real.stop.reason, real.stop.detail]).toEqual(['timeout', '3.500 s elapsed, limit 3 s; the summary call in flight was cut off at the deadline (no response read)']);
    expect([real.steps, real.calls, real.summaryCalls, real.elapsedMs]).toEqual([3, 4, 1, 3500]);
    expect(recording.calls).toHaveLength(4);
    // Sent, never read: billed at its prompt estimate (161 tokens), as a cut model call is (before: $0, liveSummary.ts).
    expect(recording.calls[3]).toMatchObject({ compaction: true, inputTokens: 161, outputTokens: 0, latencyMs: 2000, failed: { message: CUT_MESSAGE, estimated: true } });
    expect(real.summaryCostPico).toBe(161 * 150_000); // $0.15 a million tokens in
    await replaysAsRun(recording, real, real.stop.detail);
  });

  it('a summary call that answers past the timeout: its time recorded and counted at it, so the brakes stop the run before the next call (before: latency 0, the next call made, completed)', FAST, async () => {
    const clock = new VirtualClock();
    const { real, recording, model } = await summaryRun(clock, () => {
      clock.advance(2000);
      return { text: 'echoed r1 and r2', toolCalls: [], usage: { inputTokens: 170, outputTokens: 12 } };
    });
    expect([real.stop.reason, real.stop.detail]).toEqual(['timeout', '3.500 s elapsed, limit 3 s']);
    expect([real.steps, real.calls, real.elapsedMs, model.requests.length]).toEqual([3, 4, 3500, 4]);
    expect(recording.calls[3]).toMatchObject({ compaction: true, inputTokens: 170, outputTokens: 12, latencyMs: 2000 });
    expect(recording.calls[3]!.failed).toBeUndefined();
    await replaysAsRun(recording, real, '3.500 s elapsed, limit 3 s');
  });
});

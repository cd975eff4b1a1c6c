/**
 * A real run its AbortSignal stopped, its recording driven back through the real loop by traceModel: the
 * signal traceModel gives (TraceDriven.signal) fires where the run's fired — during the last tool call the run
 * reached, or while its last call was made — so the driven run ends aborted where the run did, with the run's
 * figures and replay's (an abort replays as trace_end with the run's detail). Before, traceModel had no signal:
 * the driven run played the tool calls the run never reached and met the brakes before a call it never asked for.
 *
 * And a run aborted after the last tool call of a response marked final (the loop finds the signal fired
 * before it ends the step, loop.ts runTools): the run said `aborted`; its recording now leaves that final mark
 * out (it completed nothing), so every engine replays it to the abort, not `completed`.
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { traceModel } from '../../src/agent/traceModel.js';
import type { AgentRunResult, ModelTurn } from '../../src/agent/types.js';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import type { Trace } from '../../src/trace/types.js';
import { pricings } from '../core/arbitraries.js';
import { everywhere, stopsInEveryEngine } from './everyEngine.js';
import { readTool } from './realLoopRuns.js';
import { modelByCall, recordRun } from './recordedRuns.js';
import { figures, replayFigures, TRACE_RETRY } from './traceDriven.js';

const pricing = pricings[0]!;
const call = (id: string, name: string, args = '{}') => ({ id, name, arguments: args });
const detail = (steps: number) => `stopped by its AbortSignal after ${steps} step${steps === 1 ? '' : 's'}`;

/** `recording` driven through runAgentLoop by traceModel under `brakes`, with (`withSignal`) the signal traceModel gives. */
async function driven(recording: Trace, brakes: BrakeConfig, withSignal = true): Promise<AgentRunResult> {
  const clock = new VirtualClock();
  const model = traceModel(recording, clock);
  return runAgentLoop({ model: model.model, tools: model.tools, brakes, unbounded: true, context: model.context, pricing, clock, retry: TRACE_RETRY, ...(withSignal ? { signal: model.signal } : {}) });
}

/** The driven run's figures beside replay's: equal, the abort read as replay reads it. */
function expectReplayed(run: AgentRunResult, recording: Trace, brakes: BrakeConfig) {
  const ofRun = figures(run);
  expect({ ...ofRun, stopReason: ofRun.stopReason === 'aborted' ? 'trace_end' : ofRun.stopReason }).toEqual(replayFigures(recording, { brakes, strategy: { kind: 'full' }, pricing }));
}

/** Call 1 reads; call 2 answers `second` (its tool `halt` fires the run's AbortSignal; `during`: the signal fires while call 2 is made instead). */
async function recorded(brakes: BrakeConfig, second: ModelTurn, during = false) {
  const clock = new VirtualClock();
  const controller = new AbortController();
  const model = modelByCall(pricing.model, clock, 1000, (n) => {
    if (n === 1) return { text: null, toolCalls: [call('c1', 'read')], usage: { inputTokens: 40, outputTokens: 30 } };
    if (n === 2 && during) controller.abort();
    if (n === 2) return second;
    return { text: 'done', toolCalls: [], usage: { inputTokens: 120, outputTokens: 5 } };
  });
  return recordRun({ model, tools: [readTool], brakes, pricing, clock, controller });
}

const answer = (toolCalls: ModelTurn['toolCalls'], marks?: ModelTurn['marks']): ModelTurn => ({ text: null, toolCalls, usage: { inputTokens: 90, outputTokens: 20 }, ...(marks ? { marks } : {}) });

describe('traceModel stops a recording of an aborted run where the run was aborted', () => {
  it('aborted between the tool calls of its second call ([halt, read] under maxRepeat 1): driven, it ends aborted after 2 steps, not at a repeat of the read it never reached', async () => {
    const brakes: BrakeConfig = { ...NO_BRAKES, maxRepeat: 1 };
    const { real, recording } = await recorded(brakes, answer([call('c2', 'halt'), call('c3', 'read')]));
    expect([real.stop.reason, real.stop.detail]).toEqual(['aborted', detail(2)]);
    const run = await driven(recording, brakes);
    expect([run.stop.reason, run.stop.detail, run.steps, run.toolCalls, run.costPico]).toEqual(['aborted', detail(2), 2, 2, real.costPico]);
    expectReplayed(run, recording, brakes);
    // Without the signal (as before), the read never reached is played and stopped as a repeat.
    expect((await driven(recording, brakes, false)).stop.reason).toBe('repeat');
  });

  it('aborted after its last tool call, under a step cap due then: aborted, not max_steps', async () => {
    const brakes: BrakeConfig = { ...NO_BRAKES, maxSteps: 2 };
    const { real, recording } = await recorded(brakes, answer([call('c2', 'read', '{"a":1}'), call('c3', 'halt')]));
    expect([real.stop.reason, real.stop.detail]).toEqual(['aborted', detail(2)]);
    const run = await driven(recording, brakes);
    expect([run.stop.reason, run.stop.detail, run.steps]).toEqual(['aborted', detail(2), 2]);
    expectReplayed(run, recording, brakes);
  });

  it.each<[string, ModelTurn]>([
    ['tool calls it never reached', answer([call('c2', 'read', '{"a":1}'), call('c3', 'read', '{"a":2}')])],
    ['an unparseable response', answer([], { unparseable: true })],
    ['a backtrack, whose tool calls never run', answer([call('c2', 'read', '{"a":1}')], { backtrack: true })],
  ])('aborted while its second call was made, answered with %s: aborted there too, under a step cap due then', async (_what, second) => {
    const brakes: BrakeConfig = { ...NO_BRAKES, maxSteps: 2 };
    const { real, recording } = await recorded(brakes, second, true);
    expect(real.stop.reason).toBe('aborted');
    const run = await driven(recording, brakes);
    expect([run.stop.reason, run.stop.detail, run.steps, run.calls]).toEqual(['aborted', real.stop.detail, real.steps, 2]);
    expectReplayed(run, recording, brakes);
  });

  it('aborted before its first call: no call recorded, and driven it makes none', async () => {
    const clock = new VirtualClock();
    const controller = new AbortController();
    controller.abort();
    const model = modelByCall(pricing.model, clock, 1000, () => answer([call('c1', 'read')]));
    const { real, recording } = await recordRun({ model, tools: [readTool], brakes: NO_BRAKES, pricing, clock, controller });
    expect([real.stop.reason, recording.calls.length]).toEqual(['aborted', 0]);
    const run = await driven(recording, NO_BRAKES);
    expect([run.stop.reason, run.stop.detail, run.calls]).toEqual(['aborted', detail(0), 0]);
    expectReplayed(run, recording, NO_BRAKES);
  });
});

describe('a run aborted after the last tool call of a response marked final replays to its abort', () => {
  it.each<[string, ModelTurn['toolCalls']]>([
    ['[read, halt]', [call('c2', 'read', '{"a":1}'), call('c3', 'halt')]],
    ['[halt]', [call('c2', 'halt')]],
  ])('final %s: the run said aborted; recorded without the final mark, every engine says trace_end with its detail, and traceModel aborted', async (_what, toolCalls) => {
    const { real, recording } = await recorded(NO_BRAKES, answer(toolCalls, { final: true }));
    expect([real.stop.reason, real.stop.detail, real.steps]).toEqual(['aborted', detail(2), 2]);
    expect(recording.end).toEqual({ type: 'end', outcome: 'unknown', status: detail(2), aborted: true, recordedCostUsd: expect.any(Number) });
    // Before, the call was recorded final and every engine completed the run there.
    expect(stopsInEveryEngine(recording, NO_BRAKES)).toEqual(everywhere('trace_end', detail(2)));
    expect(recording.calls[1]!.final).toBeUndefined();
    expect(recording.calls[1]!.toolCalls!.some((tool) => tool.unreached)).toBe(false);
    const run = await driven(recording, NO_BRAKES);
    expect([run.stop.reason, run.stop.detail, run.steps, run.costPico]).toEqual(['aborted', detail(2), 2, real.costPico]);
    expectReplayed(run, recording, NO_BRAKES);
  });

  it('a final response whose tool calls all ran, not aborted: still recorded final, and completes', async () => {
    const { real, recording } = await recorded(NO_BRAKES, answer([call('c2', 'read', '{"a":1}')], { final: true }));
    expect(real.stop.reason).toBe('completed');
    expect(recording.calls[1]!.final).toBe(true);
    expect(stopsInEveryEngine(recording, NO_BRAKES)).toEqual(everywhere('completed', 'final answer after 2 steps'));
  });
});

/**
 * A timeout's stop detail says what happened to the call just before it (kernel/cutWords.ts timeoutWords),
 * live and replayed alike. Before: the real loop named a call its deadline cut ("…; the model call in flight
 * was cut off at the deadline …") while every replay of its recording said the brake's words alone; and a
 * tool that ignored its signal and ran on past the timeout was told nowhere ("6.000 s elapsed, limit 3 s").
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { CUT_TOOL_ERROR } from '../../src/kernel/cutWords.js';
import type { AgentTool, Model, ModelRequest, ModelTurn } from '../../src/agent/types.js';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import type { Trace } from '../../src/trace/types.js';
import { pricings } from '../core/arbitraries.js';
import { everywhere, stopsInEveryEngine } from './everyEngine.js';
import { readTool } from './realLoopRuns.js';
import { recordRun } from './recordedRuns.js';
import { figures, replayFigures, runTraceDriven } from './traceDriven.js';

const pricing = pricings[0]!;
const brakes: BrakeConfig = { ...NO_BRAKES, timeoutMs: 3000 };
const FAST = { timeout: 2000 };
const settings = { brakes, strategy: { kind: 'full' as const, cache: 'recorded' as const }, pricing };

/** Call 1 (1 s) asks for `tools`; any call after it answers. */
function toolsThenAnswer(clock: VirtualClock, tools: ModelTurn['toolCalls']): Model {
  let calls = 0;
  return {
    name: pricing.model,
    async call(_request: ModelRequest): Promise<ModelTurn> {
      calls += 1;
      clock.advance(1000);
      return calls === 1 ? { text: null, toolCalls: tools, usage: { inputTokens: 40, outputTokens: 30 } } : { text: 'done', toolCalls: [], usage: { inputTokens: 90, outputTokens: 5 } };
    },
  };
}

/** A tool that runs `ranMs` on `clock` and answers, its signal or not (`throws`: throws what its signal fired with, as fetch does, if it fired). */
const tool = (clock: VirtualClock, name: string, ranMs: number, throws = false): AgentTool => ({
  name,
  description: 'runs',
  parameters: { type: 'object' },
  run: async (_args, { signal }) => {
    clock.advance(ranMs);
    await Promise.resolve(); // The deadline fires a microtask after the clock passes it.
    if (throws && signal?.aborted) throw signal.reason;
    return 'ok';
  },
});

/** Every replay engine, and the loop driven back by the recording, say the run's stop detail. */
async function everyReplaySays(recording: Trace, detail: string) {
  expect(stopsInEveryEngine(recording, brakes)).toEqual(everywhere('timeout', detail));
  expect(replayFigures(recording, settings).stopDetail).toBe(detail);
  expect(figures(await runTraceDriven(recording, settings)).stopDetail).toBe(detail);
}

describe('a timeout names the call just before it, live and replayed alike', () => {
  it('a tool that ignores its signal and runs on past the timeout: "…; the tool call slow ran on past the deadline (it was not cut)"', FAST, async () => {
    const clock = new VirtualClock();
    const model = toolsThenAnswer(clock, [{ id: 'c1', name: 'read', arguments: '{}' }, { id: 'c2', name: 'slow', arguments: '{}' }]);
    const { real, recording } = await recordRun({ model, tools: [readTool, tool(clock, 'slow', 5000)], brakes, pricing, clock });
    expect([real.stop.reason, real.stop.detail]).toEqual(['timeout', '6.000 s elapsed, limit 3 s; the tool call slow ran on past the deadline (it was not cut)']);
    expect(recording.calls[0]!.toolCalls!.map((call) => [call.latencyMs, call.error])).toEqual([[0, undefined], [5000, undefined]]);
    await everyReplaySays(recording, real.stop.detail);
  });

  it('a last tool call that threw its deadline\'s reason: named cut, though no tool call after it was left unreached', FAST, async () => {
    const clock = new VirtualClock();
    const model = toolsThenAnswer(clock, [{ id: 'c1', name: 'slow', arguments: '{}' }]);
    const { real, recording } = await recordRun({ model, tools: [tool(clock, 'slow', 5000, true)], brakes, pricing, clock });
    expect([real.stop.reason, real.stop.detail]).toEqual(['timeout', '6.000 s elapsed, limit 3 s; the tool call slow in flight was cut off at the deadline']);
    expect(recording.calls[0]!.toolCalls).toMatchObject([{ name: 'slow', error: CUT_TOOL_ERROR }]);
    await everyReplaySays(recording, real.stop.detail);
  });

  it('the time passed the limit before the last tool call, not during it: the brake\'s words alone', FAST, async () => {
    const clock = new VirtualClock();
    // The model call ends at 4 s, past the limit; the tool then runs 1 s (its signal fired as it started).
    const model: Model = { name: pricing.model, call: async () => (clock.advance(4000), { text: null, toolCalls: [{ id: 'c1', name: 'quick', arguments: '{}' }], usage: { inputTokens: 40, outputTokens: 30 } }) };
    const { real, recording } = await recordRun({ model, tools: [tool(clock, 'quick', 1000)], brakes, pricing, clock });
    expect([real.stop.reason, real.stop.detail]).toEqual(['timeout', '5.000 s elapsed, limit 3 s']);
    await everyReplaySays(recording, real.stop.detail);
  });

  it('replayed under another timeout, the tool call is named only where its time crossed that limit', FAST, async () => {
    const clock = new VirtualClock();
    const model = toolsThenAnswer(clock, [{ id: 'c1', name: 'slow', arguments: '{}' }]);
    const { recording } = await recordRun({ model, tools: [tool(clock, 'slow', 5000)], brakes, pricing, clock });
    const detailAt = (timeoutMs: number) => replayFigures(recording, { ...settings, brakes: { ...NO_BRAKES, timeoutMs } }).stopDetail;
    // 0.5 s: passed during the model call (1 s), before the tool call ran.
    expect(detailAt(500)).toBe('6.000 s elapsed, limit 0.5 s');
    expect(detailAt(5999)).toBe('6.000 s elapsed, limit 5.999 s; the tool call slow ran on past the deadline (it was not cut)');
  });
});

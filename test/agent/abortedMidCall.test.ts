/**
 * A run aborted between the tool calls of one call: the tool calls it never reached ran nothing and met
 * no brake. The recorder marks them `unreached` (kept: they are what the model asked for, and a call
 * whose tool calls were left out would read as a final answer), and every engine plays a call's tool
 * calls up to the first unreached one — so the replay ends where the run did (trace_end, with its
 * detail), not at a brake on a tool call that never ran. Before, they were recorded with 0 tokens and
 * a replay played them past the tool brakes: `[halt, read]` under maxRepeat 1 replayed as `repeat`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import type { ModelTurn } from '../../src/agent/types.js';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import { replayTrace } from '../../src/replay/replay.js';
import { writeNativeTraces } from '../../src/trace/writeNative.js';
import { tempDir } from '../cli/run.js';
import { pricings } from '../core/arbitraries.js';
import { handTable } from '../helpers.js';
import { everywhere, stopsInEveryEngine } from './everyEngine.js';
import { readTool } from './realLoopRuns.js';
import { modelByCall, readWarm, recordRun } from './recordedRuns.js';

const pricing = pricings[0]!;
const call = (id: string, name: string, args = '{}') => ({ id, name, arguments: args });

/** Call 1 reads; call 2 asks for `second` (halt among them fires the run's AbortSignal); recorded. */
async function abortedMidCall(brakes: BrakeConfig, second: ModelTurn['toolCalls']) {
  const clock = new VirtualClock();
  const model = modelByCall(pricing.model, clock, 1000, (n) => {
    if (n === 1) return { text: null, toolCalls: [call('c1', 'read')], usage: { inputTokens: 40, outputTokens: 30 } };
    if (n === 2) return { text: null, toolCalls: second, usage: { inputTokens: 90, outputTokens: 20 } };
    return { text: 'done', toolCalls: [], usage: { inputTokens: 120, outputTokens: 5 } };
  });
  return recordRun({ model, tools: [readTool], brakes, pricing, clock, controller: new AbortController() });
}

const DETAIL = 'stopped by its AbortSignal after 2 steps';

describe('a run aborted between the tool calls of one call replays to its abort', () => {
  it('[halt, read] under maxRepeat 1: the read never ran, is recorded unreached, and no engine stops it as a repeat', async () => {
    const brakes: BrakeConfig = { ...NO_BRAKES, maxRepeat: 1 };
    const { real, recording } = await abortedMidCall(brakes, [call('c2', 'halt'), call('c3', 'read')]);
    expect([real.stop.reason, real.stop.detail, real.toolCalls]).toEqual(['aborted', DETAIL, 2]);
    expect(recording.calls[1]!.toolCalls).toEqual([
      { name: 'halt', arguments: {}, resultTokens: 8, latencyMs: 0, id: 'c2' },
      { name: 'read', arguments: {}, resultTokens: 0, id: 'c3', unreached: true },
    ]);
    expect(stopsInEveryEngine(recording, brakes)).toEqual(everywhere('trace_end', DETAIL));
    const replayed = replayTrace(recording, { brakes, strategy: { kind: 'full' }, pricing, prices: handTable(pricing) });
    expect([replayed.steps, replayed.costPico, replayed.toolCalls]).toEqual([real.steps, real.costPico, real.toolCalls]);
  });

  it('every tool call after the halt unreached; all of them unreached (the signal fired while the model answered) is no answer, and a final mark on the call completes nothing', async () => {
    const brakes: BrakeConfig = { ...NO_BRAKES, maxRepeat: 1 };
    const { real, recording } = await abortedMidCall(brakes, [call('c2', 'halt'), call('c3', 'read'), call('c4', 'read', '{"a":1}')]);
    expect(real.stop.reason).toBe('aborted');
    expect(recording.calls[1]!.toolCalls!.map((tool) => tool.unreached === true)).toEqual([false, true, true]);
    const allUnreached = { ...recording, calls: [recording.calls[0]!, { ...recording.calls[1]!, toolCalls: recording.calls[1]!.toolCalls!.map((tool) => ({ name: tool.name, arguments: tool.arguments, resultTokens: 0, unreached: true })) }] };
    expect(stopsInEveryEngine(allUnreached, brakes)).toEqual(everywhere('trace_end', DETAIL));
    // A final mark on the call the run stopped inside completes nothing: its step never ended.
    const final = { ...recording, calls: [recording.calls[0]!, { ...recording.calls[1]!, final: true }] };
    expect(stopsInEveryEngine(final, brakes)).toEqual(everywhere('trace_end', DETAIL));
  });

  it('from a warm compiled-trace cache too (format /8)', async () => {
    const dir = tempDir();
    const brakes: BrakeConfig = { ...NO_BRAKES, maxRepeat: 1 };
    const { recording } = await abortedMidCall(brakes, [call('c2', 'halt'), call('c3', 'read')]);
    const path = join(dir, 'run.jsonl');
    writeFileSync(path, writeNativeTraces([recording]));
    const result = replayTrace(await readWarm(path), { brakes, strategy: { kind: 'full' }, pricing, prices: handTable(pricing) });
    expect([result.stopReason, result.stopDetail, result.steps]).toEqual(['trace_end', DETAIL, 2]);
  });
});

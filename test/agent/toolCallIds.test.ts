/**
 * A tool call the model sent without an id (`""`: openaiResponse.ts reads a missing one so) is named by the
 * loop (records.ts withCallIds: `call_<call>_<j>`, apart from every id the run used), and that one name is
 * what the conversation sends back (`tool_call_id`), what the tools are given and what the recording holds.
 * Before: the next request carried `tool_call_id: ""` (a strict provider refuses it) and the recording no id.
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { memoryRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { defineTool } from '../../src/agent/tools.js';
import type { AgentMessage, ModelToolCall, ModelTurn } from '../../src/agent/types.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { MINI } from '../helpers.js';
import { answer, ScriptedModel } from './scripted.js';
import { figures, replayFigures, runTraceDriven } from './traceDriven.js';

const seenIds: string[] = [];
const echo = defineTool<{ text: string }>({
  name: 'echo',
  description: 'says it back',
  parameters: { type: 'object' },
  run: ({ text }, { callId }) => {
    seenIds.push(callId);
    return text;
  },
});
const calls = (...ids: string[]): ModelTurn => ({ text: null, toolCalls: ids.map((id, i): ModelToolCall => ({ id, name: 'echo', arguments: JSON.stringify({ text: `r${i}` }) })), usage: { inputTokens: 100, outputTokens: 10 } });

async function run(script: ModelTurn[]) {
  seenIds.length = 0;
  const recorder = memoryRecorder();
  const model = new ScriptedModel(script, MINI.model);
  const result = await runAgentLoop({ model, tools: [echo], brakes: { ...NO_BRAKES, maxSteps: 10 }, context: { system: 's', goal: 'g', countTokens: () => 1 }, pricing: MINI, clock: new VirtualClock(), recorder });
  return { result, model, recording: recorder.trace() };
}

/** Every id the last request sends: its assistant messages' tool calls, and its tool results'. */
function sentIds(messages: readonly AgentMessage[]) {
  return {
    asked: messages.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []).map((c) => c.id) : [])),
    answered: messages.flatMap((m) => (m.role === 'tool' ? [m.toolCallId] : [])),
  };
}

describe('a tool call sent without an id', () => {
  it('is named call_<call>_<j>, the same in the request sent back, the tools, the transcript and the recording (before: tool_call_id "")', async () => {
    const { result, model, recording } = await run([calls('', ''), calls('x1', ''), answer('done')]);
    expect(result.stop.reason).toBe('completed');
    const ids = ['call_0_0', 'call_0_1', 'x1', 'call_1_1'];
    expect(sentIds(model.requests[2]!.messages)).toEqual({ asked: ids, answered: ids });
    expect(seenIds).toEqual(ids);
    expect(sentIds(result.messages)).toEqual({ asked: ids, answered: ids });
    expect(recording.calls.flatMap((call) => (call.toolCalls ?? []).map((tool) => tool.id))).toEqual(ids);
  });

  it('an id the provider gave is never given again: a name it already used is suffixed', async () => {
    const { model, recording } = await run([calls('call_1_0', 'call_0_1', ''), calls(''), answer('done')]);
    const ids = ['call_1_0', 'call_0_1', 'call_0_2', 'call_1_0_2'];
    expect(sentIds(model.requests[2]!.messages)).toEqual({ asked: ids, answered: ids });
    expect(new Set(ids).size).toBe(ids.length);
    expect(recording.calls.flatMap((call) => (call.toolCalls ?? []).map((tool) => tool.id))).toEqual(ids);
  });

  it('the recording replays, and drives the loop back, to the run’s figures', async () => {
    const { result, recording } = await run([calls('', ''), calls(''), answer('done')]);
    const settings = { brakes: { ...NO_BRAKES, maxSteps: 10 }, strategy: { kind: 'full' as const, cache: 'recorded' as const }, pricing: MINI };
    expect(replayFigures(recording, settings)).toEqual(figures(result));
    expect(figures(await runTraceDriven(recording, settings))).toEqual(figures(result));
  });
});

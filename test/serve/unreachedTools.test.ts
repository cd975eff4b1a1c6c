/**
 * serve plays a recorded call's tool calls as replay plays them (loop/run.ts playCall): up to the first one
 * the live run never reached (`unreached`: its AbortSignal fired between them, agent/loop.ts). The response
 * still names every tool call the recorded model asked for (a response without them would read as a final
 * answer; `loopcost.record` carries the marks), and the session's summary counts the tool calls replay
 * counts. Before, serve played the unreached ones too: its session counted 4 tool calls where replay counts 2.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import { replayTrace } from '../../src/replay/replay.js';
import { startServer, type RunningServer } from '../../src/serve/index.js';
import { handTable } from '../helpers.js';
import { pricings } from '../core/arbitraries.js';
import { readTool } from '../agent/realLoopRuns.js';
import { modelByCall, recordRun } from '../agent/recordedRuns.js';
import { post } from './client.js';

const pricing = pricings[0]!;
const servers: RunningServer[] = [];
afterAll(() => Promise.all(servers.map((server) => server.close())));

/** Call 1 reads; call 2 asks for [halt, read, read], the halt firing the run's AbortSignal: the two reads are recorded unreached. */
async function abortedMidCall() {
  const clock = new VirtualClock();
  const model = modelByCall(pricing.model, clock, 1000, (n) => {
    const toolCalls = n === 1 ? [{ id: 'c1', name: 'read', arguments: '{}' }] : [{ id: 'c2', name: 'halt', arguments: '{}' }, { id: 'c3', name: 'read', arguments: '{"a":1}' }, { id: 'c4', name: 'read', arguments: '{"a":2}' }];
    return { text: null, toolCalls, usage: { inputTokens: 40 * n, outputTokens: 30 } };
  });
  return recordRun({ model, tools: [readTool], brakes: NO_BRAKES, pricing, clock, controller: new AbortController() });
}

describe('serve: tool calls the recorded run never reached', () => {
  it('are answered as recorded but not played: the session counts the tool calls replay counts, and its totals are replay’s', async () => {
    const { real, recording } = await abortedMidCall();
    expect([real.stop.reason, real.toolCalls]).toEqual(['aborted', 2]);
    expect(recording.calls[1]!.toolCalls!.map((tool) => tool.unreached === true)).toEqual([false, true, true]);
    const replayed = replayTrace(recording, { brakes: NO_BRAKES, strategy: FULL_HISTORY, pricing, prices: handTable(pricing) });
    expect([replayed.stopReason, replayed.toolCalls]).toEqual(['trace_end', 2]);
    const server = await startServer({ sources: { traces: [recording] }, prices: handTable(pricing) });
    servers.push(server);
    const ask = () => post(server.url, { model: pricing.model, messages: [{ role: 'user', content: 'go' }] }, { 'x-loopcost-session': 's', 'x-loopcost-trace': '0' });
    expect((await ask()).status).toBe(200);
    const second = await ask();
    expect(second.status).toBe(200);
    // The response names the three tool calls the model asked for; the record says which the run reached.
    expect(second.json.choices[0].message.tool_calls.map((call: { id: string }) => call.id)).toEqual(['c2', 'c3', 'c4']);
    expect(second.json.loopcost.record.toolCalls.map((tool: { unreached?: boolean }) => tool.unreached === true)).toEqual([false, true, true]);
    const session = server.sessions().sessions.find((s) => s.id === 's')!;
    expect(session).toMatchObject({ ended: true, calls: replayed.modelCalls, steps: replayed.steps, inputTokens: replayed.inputTokens, outputTokens: replayed.outputTokens, costPico: String(replayed.costPico) });
    // Before, 4: the two reads never reached were played.
    expect(session.toolCalls).toBe(replayed.toolCalls);
  });
});

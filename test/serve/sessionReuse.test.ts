/**
 * A session its header names is one run (src/serve/newRun.ts). Once its run has ended with its recording, a
 * second run under the same header is refused (409 `loopcost_session_reused`), which the real loop's adapter
 * ends the run with (`trace_end`, the message naming the session and what to do): before, the recording's end
 * answered it, and a recording that completed made a run that called no model `completed` (0 steps, 0 calls).
 * The request the same run sends after the recording's end (its answers sent back) still gets the recording's end.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAgentLoop } from '../../src/agent/run.js';
import { openAIChatModel } from '../../src/agent/openaiChat.js';
import type { AgentTool } from '../../src/agent/types.js';
import { loadTraceFile } from '../../src/import/index.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { startServer, type RunningServer } from '../../src/serve/index.js';
import type { Trace } from '../../src/trace/types.js';
import { call, handPriced, handTable, toolCall, trace as traceOf } from '../helpers.js';
import { post } from './client.js';

/** Three calls: tool calls, tool calls, final answer; recorded as completed (DeepSeek). */
const DEEPSEEK = '../shared/traces/cassettes/models__test_deepseek__test_deepseek_deferred_capability_with_thinking.yaml';

const prices = loadPriceTable();
let trace: Trace;
let server: RunningServer;
beforeAll(async () => {
  trace = ((await loadTraceFile(DEEPSEEK)) as Trace[])[0]!;
  server = await startServer({ sources: { traces: [trace] }, prices });
});
afterAll(() => server.close());

const tool = (name: string): AgentTool => ({ name, description: name, parameters: { type: 'object' }, run: () => 'ok' });

/** The real loop against serve under the header `session`, as a user's script runs it. */
function run(session: string) {
  return runAgentLoop({
    model: openAIChatModel({ model: trace.header.model, baseURL: `${server.url}/v1`, apiKey: 'unused', headers: { 'x-loopcost-session': session } }),
    tools: [tool('load_capability'), tool('search_tools')],
    brakes: { maxSteps: 12 },
    context: { system: 'You are careful.', goal: 'Roll the dice.' },
    pricing: loadPriceTable().resolve(trace.header.model),
  });
}

describe('serve: a session is one run', () => {
  it('a second run under the header of a session whose recording completed is refused, not reported completed', async () => {
    expect(trace.end.outcome).toBe('completed');
    const first = await run('own-0');
    expect([first.stop.reason, first.calls]).toEqual(['completed', 3]);
    const second = await run('own-0');
    expect([second.stop.reason, second.steps, second.calls]).toEqual(['trace_end', 0, 0]);
    expect(second.stop.detail).toContain('session own-0 has ended');
    expect(second.stop.detail).toContain('name a new session for each run (another x-loopcost-session header), or restart loopcost serve');
    // A new session is a new run of the recording.
    const third = await run('own-1');
    expect([third.stop.reason, third.calls]).toEqual(['completed', 3]);
  });

  it('the same run’s request after the end (its answers sent back) still gets the recording’s end; another run’s, the 409 naming the session', async () => {
    const opening = [{ role: 'user', content: 'roll the dice' }];
    let messages: unknown[] = opening;
    for (let call = 1; call <= 3; call++) {
      const answer = await post(server.url, { model: 'x', messages }, { 'x-loopcost-session': 'curl-1' });
      expect(answer.json.loopcost.call).toBe(call);
      const message = answer.json.choices[0].message;
      const results = (message.tool_calls ?? []).map((c: { id: string }) => ({ role: 'tool', tool_call_id: c.id, content: 'ok' }));
      messages = [...messages, message, ...results];
    }
    const next = await post(server.url, { model: 'x', messages }, { 'x-loopcost-session': 'curl-1' });
    expect([next.status, next.json.error.code, next.json.error.loopcost]).toEqual([409, 'loopcost_trace_ended', { recordedOutcome: 'completed', recordedCalls: 3 }]);
    const another = await post(server.url, { model: 'x', messages: opening }, { 'x-loopcost-session': 'curl-1' });
    expect([another.status, another.json.error.code, another.json.error.loopcost]).toEqual([409, 'loopcost_session_reused', { calls: 3 }]);
    expect(another.headers.get('x-should-retry')).toBe('false');
  });

  it('the retry of a failed last call is no other run: it gets the recording’s end', async () => {
    const mini = handPriced('mini', { input: 0.15, output: 0.6 });
    const failedLast = { ...traceOf([call(50, [toolCall('a', {}, 100)]), call(0, undefined, { failed: { status: 500, message: 'boom' } })], { outcome: 'error' }), source: 'failed-last' };
    const failing = await startServer({ sources: { traces: [failedLast] }, prices: handTable(mini) });
    try {
      const header = { 'x-loopcost-session': 'retrying' };
      const first = await post(failing.url, { model: 'mini', messages: [{ role: 'user', content: 'go' }] }, header);
      const goingOn = [{ role: 'user', content: 'go' }, first.json.choices[0].message, { role: 'tool', tool_call_id: first.json.choices[0].message.tool_calls[0].id, content: 'ok' }];
      expect((await post(failing.url, { model: 'mini', messages: goingOn }, header)).status).toBe(500);
      // A client that sends its opening alone each time (as curl does) retrying the failed call: still that run's.
      const retried = await post(failing.url, { model: 'mini', messages: [{ role: 'user', content: 'go' }] }, header);
      expect([retried.status, retried.json.error.code]).toEqual([409, 'loopcost_trace_ended']);
    } finally {
      await failing.close();
    }
  });
});

/**
 * After a recording's last call no summary call is made: a loop summarises only before a call it makes
 * (kernel/summaryBeforeCall.ts), and the recording made none after it. Replay ends the run there, no summary
 * call billed; serve answers a summary request after it as any request past the end, the 409 (ending the
 * session), which the real loop's adapter ends the run with (trace_end), as replay does. (Before the fix, serve
 * answered and billed that summary call, as replay billed one the run never made.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { startServer, type RunningServer } from '../../src/serve/index.js';
import type { Trace } from '../../src/trace/types.js';
import { runOverHttp } from '../agent/overHttp.js';
import { figures, replayFigures, type Settings } from '../agent/traceDriven.js';
import { call, handPriced, handTable, toolCall, trace } from '../helpers.js';
import { post } from './client.js';

const pricing = handPriced('mini', { input: 0.15, output: 0.6 }, 128_000);
const named = (source: string, t: Trace): Trace => ({ ...t, source });
/** Three steps, the last with a large tool result; recorded until the run was stopped (no final answer). */
const OPEN = named('open', trace([call(50, [toolCall('a', { i: 0 }, 100)]), call(50, [toolCall('b', { i: 1 }, 100)]), call(50, [toolCall('c', { i: 2 }, 3000)])], { outcome: 'limit' }));
/** Two steps and a final answer. */
const FINAL = named('final', trace([call(50, [toolCall('a', { i: 0 }, 100)]), call(50, [toolCall('b', { i: 1 }, 100)]), call(50, undefined, { final: true })], { outcome: 'completed' }));
/** Two steps and a call that failed at the provider. */
const FAILED = named('failed', trace([call(50, [toolCall('a', { i: 0 }, 100)]), call(50, [toolCall('b', { i: 1 }, 100)]), call(0, undefined, { failed: { status: 500, message: 'boom' } })], { outcome: 'error' }));
const traces = [OPEN, FINAL, FAILED];
let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ sources: { traces }, prices: handTable(pricing) });
});
afterAll(() => server.close());

/** A run's requests, an answer sent back (once a session has ended, a request sending none is another run's first, refused: sessionReuse.test.ts). */
const GOING_ON = [
  { role: 'user', content: 'go' },
  { role: 'assistant', content: 'a step' },
];
const ask = (session: string, trace: number, purpose?: 'summary') =>
  post(server.url, { model: 'mini', messages: GOING_ON, max_tokens: 200 }, { 'x-loopcost-session': session, 'x-loopcost-trace': String(trace), ...(purpose ? { 'x-loopcost-purpose': purpose } : {}) });
const state = (id: string) => {
  const s = server.sessions().sessions.find((session) => session.id === id)!;
  return { calls: s.calls, remainingCalls: s.remainingCalls, ended: s.ended };
};

describe('serve: a summary call after a recording’s last call', () => {
  it('is the 409 when the last call was no final answer, which ends the session: no call is billed after the last', async () => {
    for (let i = 0; i < 3; i++) expect((await ask('open', 0)).status).toBe(200);
    expect(state('open')).toEqual({ calls: 3, remainingCalls: 0, ended: false });
    const summary = await ask('open', 0, 'summary');
    expect([summary.status, summary.json.error.code]).toEqual([409, 'loopcost_trace_ended']);
    expect(summary.json.error.message).toMatch(/has no call 4 \(it recorded 3 calls and ended 'limit'\)/);
    expect(state('open')).toEqual({ calls: 3, remainingCalls: 0, ended: true });
    const past = await ask('open', 0);
    expect([past.status, past.json.error.code]).toEqual([409, 'loopcost_trace_ended']);
  });

  it('is the 409 once the last call was a final answer or a failed call: the session ended with it', async () => {
    for (const [index, id] of [[1, 'final'], [2, 'failed']] as const) {
      for (let i = 0; i < 3; i++) await ask(id, index);
      expect(state(id)).toEqual({ calls: 3, remainingCalls: 0, ended: true });
      const summary = await ask(id, index, 'summary');
      expect([summary.status, summary.json.error.code]).toEqual([409, 'loopcost_trace_ended']);
      expect(state(id).calls).toBe(3);
    }
  });

  it('the real loop over HTTP makes no summary call after the last call and ends trace_end, as replay does, to the picodollar', async () => {
    const settings: Settings = { brakes: NO_BRAKES, strategy: { kind: 'summary', cache: 'recorded', summary: { triggerTokens: 2000, keepSteps: 1, summaryTokens: 200 } }, pricing };
    const replayed = replayFigures(OPEN, settings);
    // The 3 recorded calls: the summary due after the last one is not made (was 4 calls, 1 summary call).
    expect([replayed.stopReason, replayed.calls, replayed.summaryCalls]).toEqual(['trace_end', 3, 0]);
    const real = figures(await runOverHttp(server, traces, 0, settings));
    expect(real).toEqual(replayed);
    const served = server.sessions().sessions.at(-1)!;
    expect([served.calls, served.costPico, served.ended]).toEqual([real.calls, String(real.costPico), true]);
  });
});

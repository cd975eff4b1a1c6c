/**
 * A client whose own brakes stop it exactly at a recording's last call, when that call was no final answer:
 * the session has given its recording whole, and stays in progress only for the summary call a loop may
 * make before its next call (summaryAfterLastCall.test.ts). It sends none, nor the request past the end.
 * Such a session no longer holds a place under --max-sessions: a new session takes it, and it ends as the
 * request past its end would have ended it (its totals exact, a later request its 409). (One that made the
 * summary call ends with it, all that could follow being the request past the end: summaryAfterLastCall.test.ts.)
 * Ended by its client or its idle time, it ends the same way: it finished its recording, so it is not marked
 * `endedBy` as a run stopped short of it is.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { startServer, type RunningServer } from '../../src/serve/index.js';
import type { Trace } from '../../src/trace/types.js';
import { runOverHttp } from '../agent/overHttp.js';
import { figures, replayFigures, type Settings } from '../agent/traceDriven.js';
import { call, handPriced, handTable, toolCall, trace } from '../helpers.js';
import { get, post } from './client.js';

const pricing = handPriced('mini', { input: 0.15, output: 0.6 }, 128_000);
/** Three steps, the last with a large tool result; recorded until its run's step cap stopped it (no final answer). */
const OPEN: Trace = { ...trace([call(50, [toolCall('a', { i: 0 }, 100)]), call(50, [toolCall('b', { i: 1 }, 100)]), call(50, [toolCall('c', { i: 2 }, 3000)])], { outcome: 'limit' }), source: 'open' };
/** The client's own step cap stops it after the recording's third call, before a fourth. */
const BRAKES = { ...NO_BRAKES, maxSteps: 3 };
const FULL: Settings = { brakes: BRAKES, strategy: { kind: 'full', cache: 'recorded' }, pricing };

const servers: RunningServer[] = [];
afterAll(() => Promise.all(servers.map((server) => server.close())));
async function serving(maxSessions: number, more: { sessionIdleSeconds?: number; nowMs?: () => number } = {}): Promise<RunningServer> {
  const server = await startServer({ sources: { traces: [OPEN] }, prices: handTable(pricing), maxSessions, ...more });
  servers.push(server);
  return server;
}

interface Listed {
  id: string;
  calls: number;
  costPico: string;
  ended: boolean;
  endedBy?: string;
  remainingCalls: number;
}
/** `POST /loopcost/sessions/<id>/end`. */
async function endSession(server: RunningServer, id: string): Promise<{ status: number; json: Listed }> {
  const response = await fetch(`${server.url}/loopcost/sessions/${encodeURIComponent(id)}/end`, { method: 'POST' });
  return { status: response.status, json: (await response.json()) as Listed };
}
const listed = async (server: RunningServer): Promise<Listed[]> => (await get(server.url, '/loopcost/sessions')).json.sessions;
/** A later request of the run: an answer sent back (one sending none, once the session has ended, is another run's first: sessionReuse.test.ts). */
const LATER = [
  { role: 'user', content: 'go' },
  { role: 'assistant', content: 'a step' },
];

describe('serve: a client its own brakes stop at a recording’s last call (no final answer)', () => {
  it('--max-sessions 1: the next run takes its place, and it ends as at the request past its end, totals exact', async () => {
    const server = await serving(1);
    const first = await runOverHttp(server, [OPEN], 0, FULL);
    expect([first.stop.reason, first.calls]).toEqual(['max_steps', 3]);
    expect(figures(first)).toEqual(replayFigures(OPEN, FULL));
    const [held] = await listed(server);
    // In progress for the summary call a loop may still make there: the request past the end would end it.
    expect(held).toMatchObject({ calls: 3, remainingCalls: 0, ended: false, costPico: String(first.costPico) });

    const second = await runOverHttp(server, [OPEN], 0, FULL);
    expect(figures(second)).toEqual(figures(first));
    const [a, b] = await listed(server);
    expect(a).toEqual({ ...held, ended: true });
    expect(a!.endedBy).toBeUndefined();
    expect(b).toMatchObject({ calls: 3, remainingCalls: 0, ended: false, costPico: String(second.costPico) });
    const late = await post(server.url, { model: 'mini', messages: LATER }, { 'x-loopcost-session': a!.id });
    expect([late.status, late.json.error.code]).toEqual([409, 'loopcost_trace_ended']);
    expect((await get(server.url, '/loopcost/sessions')).json.totals).toMatchObject({ sessions: 2, calls: 6, costPico: String(first.costPico + second.costPico) });
  });

  it('a session still short of its last call keeps its place: the next is the 503', async () => {
    const server = await serving(1);
    const header = { 'x-loopcost-session': 'midway' };
    for (let i = 0; i < 2; i++) expect((await post(server.url, { model: 'mini', messages: [{ role: 'user', content: 'go' }] }, header)).status).toBe(200);
    const next = await post(server.url, { model: 'mini', messages: [{ role: 'user', content: 'go' }] }, { 'x-loopcost-session': 'next' });
    expect([next.status, next.json.error.code]).toEqual([503, 'loopcost_too_many_sessions']);
    expect(next.json.error.message).toMatch(/else at the next request past it, or when a new session needs its place\)/);
  });

  // It had finished its recording: retired by its client or its idle time, it ends as at the request past its
  // end (no endedBy, which marks a run cut short of its recording; the 409 of the recording's end), not as a
  // run stopped midway.
  it('ended by its client: listed as ended with its recording, no endedBy; a later request gets the recording’s 409', async () => {
    const server = await serving(2);
    const run = await runOverHttp(server, [OPEN], 0, FULL);
    const [held] = await listed(server);
    expect(held).toMatchObject({ calls: 3, remainingCalls: 0, ended: false });
    const ended = await endSession(server, held!.id);
    expect(ended.status).toBe(200);
    expect(ended.json).toEqual({ ...held, ended: true });
    const [after] = await listed(server);
    expect(after).toEqual({ ...held, ended: true });
    expect(after!.endedBy).toBeUndefined();
    expect(after!.costPico).toBe(String(run.costPico));
    const late = await post(server.url, { model: 'mini', messages: LATER }, { 'x-loopcost-session': held!.id });
    expect([late.status, late.json.error.code]).toEqual([409, 'loopcost_trace_ended']);
  });

  it('retired by its idle time: the same', async () => {
    let now = 0;
    const server = await serving(2, { sessionIdleSeconds: 5, nowMs: () => now });
    await runOverHttp(server, [OPEN], 0, FULL);
    const [held] = await listed(server);
    expect(held!.ended).toBe(false);
    now += 6000;
    const [after] = await listed(server);
    expect(after).toEqual({ ...held, ended: true });
    const late = await post(server.url, { model: 'mini', messages: LATER }, { 'x-loopcost-session': held!.id });
    expect([late.status, late.json.error.code]).toEqual([409, 'loopcost_trace_ended']);
  });

  it('a session stopped short of its recording still ends by its client or idle time, marked so', async () => {
    let now = 0;
    const server = await serving(3, { sessionIdleSeconds: 5, nowMs: () => now });
    for (const id of ['short-client', 'short-idle']) expect((await post(server.url, { model: 'mini', messages: [{ role: 'user', content: 'go' }] }, { 'x-loopcost-session': id })).status).toBe(200);
    expect((await endSession(server, 'short-client')).json).toMatchObject({ ended: true, endedBy: 'client', remainingCalls: 2 });
    now += 6000;
    const sessions = await listed(server);
    expect(sessions.find((s) => s.id === 'short-idle')).toMatchObject({ ended: true, endedBy: 'idle', remainingCalls: 2 });
  });
});

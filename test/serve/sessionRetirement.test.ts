/**
 * A run its own brakes stop before its recording ends stops calling: its session is retired, totals
 * exact, when its client ends it (POST /loopcost/sessions/<id>/end) or after `sessionIdleSeconds`
 * without a request (read from the injected clock: no sleep). Retired so, it no longer counts toward
 * `maxSessions`, and a later request to it is a 409 that says how it was retired.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { loadTraceFile } from '../../src/import/index.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { resolveTracePricing } from '../../src/replay/replay.js';
import { startServer, type RunningServer, type ServeOptions } from '../../src/serve/index.js';
import type { Trace } from '../../src/trace/types.js';
import { runOverHttp } from '../agent/overHttp.js';
import type { Settings } from '../agent/traceDriven.js';
import { get, post, type Answer } from './client.js';

/** Three calls: tool calls, tool calls, answer (DeepSeek). */
const DEEPSEEK = '../shared/traces/cassettes/models__test_deepseek__test_deepseek_deferred_capability_with_thinking.yaml';

const prices = loadPriceTable();
let deepseek: Trace;
const servers: RunningServer[] = [];
beforeAll(async () => {
  deepseek = ((await loadTraceFile(DEEPSEEK)) as Trace[])[0]!;
});
afterAll(() => Promise.all(servers.map((server) => server.close())));

async function serving(options: Partial<ServeOptions> = {}): Promise<RunningServer> {
  const server = await startServer({ sources: { traces: [deepseek] }, prices, ...options });
  servers.push(server);
  return server;
}

const opening = [{ role: 'user', content: 'roll the dice' }];
const ask = (url: string, session: string) => post(url, { model: 'x', messages: opening }, { 'x-loopcost-session': session });
const sessions = async (url: string) => (await get(url, '/loopcost/sessions')).json;
const end = (url: string, id: string) => fetch(`${url}/loopcost/sessions/${encodeURIComponent(id)}/end`, { method: 'POST' }).then(async (r) => ({ status: r.status, json: (await r.json()) as Answer['json'] }));
const where = (answer: Answer) => [answer.status, answer.json.loopcost?.call ?? answer.json.error?.code];

/** The real loop over HTTP, stopped by its step cap after one step of the recording's three. */
const braked = (server: RunningServer) => {
  const settings: Settings = { brakes: { ...NO_BRAKES, maxSteps: 1 }, strategy: { kind: 'full', cache: 'recorded' }, pricing: resolveTracePricing(deepseek, { prices }) };
  return runOverHttp(server, [deepseek], 0, settings);
};

describe('serve: sessions of runs stopped by their own brakes are retired', () => {
  it('--max-sessions 1, two braked runs in a row: ending the first frees its place; totals exact', async () => {
    const server = await serving({ maxSessions: 1 });
    const first = await braked(server);
    expect([first.stop.reason, first.calls]).toEqual(['max_steps', 1]);
    const [open] = (await sessions(server.url)).sessions;
    expect(open).toMatchObject({ calls: 1, ended: false, remainingCalls: 2, costPico: String(first.costPico) });
    // Before it is ended, the braked run's session holds the only place.
    expect(where(await ask(server.url, 'other'))).toEqual([503, 'loopcost_too_many_sessions']);

    const ended = await end(server.url, open.id);
    expect(ended.status).toBe(200);
    expect(ended.json).toEqual({ ...open, ended: true, endedBy: 'client' });
    const second = await braked(server);
    expect([second.stop.reason, second.calls]).toEqual(['max_steps', 1]);
    await end(server.url, (await sessions(server.url)).sessions[1].id);

    const report = await sessions(server.url);
    expect(report.sessions.map((s: { ended: boolean; endedBy: string; costPico: string }) => [s.ended, s.endedBy, s.costPico])).toEqual([
      [true, 'client', String(first.costPico)],
      [true, 'client', String(second.costPico)],
    ]);
    expect(report.totals).toMatchObject({ sessions: 2, calls: 2, costPico: String(first.costPico + second.costPico) });
  });

  it('a request to an ended session is a 409 naming its end, and changes nothing; ending again answers the same; an unknown id is a 404', async () => {
    const server = await serving();
    expect(where(await ask(server.url, 'a/b'))).toEqual([200, 1]);
    const ended = await end(server.url, 'a/b');
    const after = await ask(server.url, 'a/b');
    expect(where(after)).toEqual([409, 'loopcost_session_ended']);
    expect(after.json.error.message).toMatch(/^session a\/b was ended by its client \(POST \/loopcost\/sessions\/a%2Fb\/end\) after 1 call, its totals kept; start a new session/);
    expect(after.json.error.loopcost).toEqual({ endedBy: 'client', calls: 1 });
    expect(after.headers.get('x-should-retry')).toBe('false');
    expect(await end(server.url, 'a/b')).toEqual(ended);
    expect((await sessions(server.url)).sessions).toEqual([ended.json]);
    const unknown = await end(server.url, 'nobody');
    expect([unknown.status, unknown.json.error.code]).toEqual([404, 'loopcost_unknown_session']);
    expect((await fetch(`${server.url}/loopcost/sessions/a%2Fb/end`)).status).toBe(405);
  });

  it('a session started without the header is ended by the id its response header gave', async () => {
    const server = await serving();
    const firstCall = await post(server.url, { model: 'x', messages: opening });
    const id = firstCall.headers.get('x-loopcost-session')!;
    expect(id).toBe('conversation-1');
    expect((await end(server.url, id)).json).toMatchObject({ id, calls: 1, ended: true, endedBy: 'client' });
    const message = firstCall.json.choices[0].message;
    const results = message.tool_calls.map((call: { id: string }) => ({ role: 'tool', tool_call_id: call.id, content: 'ok' }));
    const next = await post(server.url, { model: 'x', messages: [...opening, message, ...results] });
    expect([next.headers.get('x-loopcost-session'), ...where(next)]).toEqual([id, 409, 'loopcost_session_ended']);
  });

  it('--session-idle-seconds: a session with no request for that long is retired (injected clock), least recently asked first', async () => {
    let nowMs = 0;
    const server = await serving({ maxSessions: 2, sessionIdleSeconds: 30, nowMs: () => nowMs });
    const costA = Number((await ask(server.url, 'a')).json.loopcost.costPico);
    nowMs = 20_000;
    expect(where(await ask(server.url, 'b'))).toEqual([200, 1]);
    nowMs = 29_999;
    const costA2 = Number((await ask(server.url, 'a')).json.loopcost.costPico); // a request starts a's idle time again
    expect(where(await ask(server.url, 'c'))).toEqual([503, 'loopcost_too_many_sessions']);
    nowMs = 50_000; // b idle 30 s, a 20 s
    const report = await sessions(server.url);
    expect(report.sessions.map((s: { id: string; ended: boolean; endedBy?: string }) => [s.id, s.ended, s.endedBy])).toEqual([
      ['a', false, undefined],
      ['b', true, 'idle'],
    ]);
    const late = await ask(server.url, 'b');
    expect(where(late)).toEqual([409, 'loopcost_session_idle']);
    expect(late.json.error.message).toMatch(/^session b was retired after 30 seconds without a request \(--session-idle-seconds 30\) after 1 call, its totals kept/);
    expect(late.json.error.loopcost).toEqual({ endedBy: 'idle', calls: 1, idleSeconds: 30 });
    expect(where(await ask(server.url, 'c'))).toEqual([200, 1]); // b's place is free
    nowMs = 80_000;
    const after = await sessions(server.url);
    expect(after.sessions.map((s: { id: string; ended: boolean }) => [s.id, s.ended])).toEqual([
      ['a', true],
      ['b', true],
      ['c', true],
    ]);
    expect(after.sessions[0]).toMatchObject({ calls: 2, costPico: String(costA + costA2), endedBy: 'idle' });
    expect(after.totals).toMatchObject({ sessions: 3, calls: 4 });
  });
});

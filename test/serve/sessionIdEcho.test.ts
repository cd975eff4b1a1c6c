/**
 * The session id a response echoes names the same session sent back, in the header or in
 * `POST /loopcost/sessions/<id>/end` (README "Sessions"). An ASCII id holding a character a URL path
 * segment does not hold as itself (`/`, `?`, `#`, a space) or a space at either end (`%20abc`, which an
 * HTTP client trims from the header it reads) was echoed as itself: sent back, the end route found another
 * URL (`/loopcost/sessions/a/b/end`, a 404) and the header another session (`abc`). Such an id is echoed
 * URL-encoded, as an id that is not ASCII is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTraceFile } from '../../src/import/index.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { headerValueOf } from '../../src/serve/headers.js';
import { startServer, type RunningServer } from '../../src/serve/index.js';
import type { Trace } from '../../src/trace/types.js';

let server: RunningServer;
beforeAll(async () => {
  const traces = (await loadTraceFile('scenarios/reference-sum-of-squares.jsonl')) as Trace[];
  server = await startServer({ sources: { traces }, prices: loadPriceTable(), port: 0 });
});
afterAll(() => server.close());

const BODY = JSON.stringify({ model: 'x', messages: [{ role: 'user', content: 'sum' }] });
const named = (header: string) => fetch(`${server.url}/v1/chat/completions`, { method: 'POST', headers: { 'x-loopcost-session': header }, body: BODY });
const sessions = async () => ((await (await fetch(`${server.url}/loopcost/sessions`)).json()) as { sessions: { id: string; calls: number }[] }).sessions;

describe('serve: the echoed session id names the session it came from', () => {
  it.each([
    ['a%2Fb', 'a/b'],
    ['a?b', 'a?b'],
    ['a%23b', 'a#b'],
    ['two words', 'two words'],
    ['%20padded', ' padded'],
    ['padded%20', 'padded '],
  ])('%s (the session %j): its echo continues it in the header and ends it in the end route', async (header, id) => {
    const first = await named(header);
    expect(first.status).toBe(200);
    const echo = first.headers.get('x-loopcost-session')!;
    const again = await named(echo);
    expect([again.status, again.headers.get('x-loopcost-session')]).toEqual([200, echo]);
    expect((await sessions()).filter((s) => s.id === id).map((s) => s.calls)).toEqual([2]);
    const ended = await fetch(`${server.url}/loopcost/sessions/${echo}/end`, { method: 'POST' });
    expect([ended.status, ((await ended.json()) as { id?: string }).id]).toEqual([200, id]);
  });

  it('an id a path segment holds as itself is echoed unchanged', () => {
    expect(['demo', 'run-7', 'a.b_c~d', "x:y@z!$&'()*+,;="].map(headerValueOf)).toEqual(['demo', 'run-7', 'a.b_c~d', "x:y@z!$&'()*+,;="]);
  });

  it('an id longer than 200 characters once decoded is the 400 invalid_session_id, as an id that does not decode is', async () => {
    const answer = await named('%41'.repeat(201));
    const body = (await answer.json()) as { error: { code: string; param: string; message: string } };
    expect([answer.status, body.error.code, body.error.param]).toEqual([400, 'invalid_session_id', 'x-loopcost-session']);
    expect(body.error.message).toBe('x-loopcost-session is longer than 200 characters (once URL-decoded)');
    expect((await named('%41'.repeat(200))).status).toBe(200);
  });
});

/**
 * One rule for a session id, in the `x-loopcost-session` header and in `POST /loopcost/sessions/<id>/end`
 * (src/serve/headers.ts decodedSessionId). The header refused an id longer than 200 characters with the
 * 400 `invalid_session_id`, but the end route only answered 404 `loopcost_unknown_session`; and an id
 * decoding to a control character (`%0A`, `%00`, `%09`, `%C2%85`) was taken by both: a session named with a
 * line feed was started, listed and echoed. Both routes now refuse both with the same 400, saying which
 * character and where.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTraceFile } from '../../src/import/index.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { startServer, type RunningServer } from '../../src/serve/index.js';
import type { Trace } from '../../src/trace/types.js';

let server: RunningServer;
beforeAll(async () => {
  const traces = (await loadTraceFile('scenarios/reference-sum-of-squares.jsonl')) as Trace[];
  server = await startServer({ sources: { traces }, prices: loadPriceTable(), port: 0 });
});
afterAll(() => server.close());

interface ErrorBody {
  error: { code: string; param: string; message: string };
}
const BODY = JSON.stringify({ model: 'x', messages: [{ role: 'user', content: 'sum' }] });
const named = (header: string) => fetch(`${server.url}/v1/chat/completions`, { method: 'POST', headers: { 'x-loopcost-session': header }, body: BODY });
const end = (written: string) => fetch(`${server.url}/loopcost/sessions/${written}/end`, { method: 'POST' });
const sessionCount = async () => ((await (await fetch(`${server.url}/loopcost/sessions`)).json()) as { sessions: unknown[] }).sessions.length;

async function refusal(answer: Response): Promise<[number, string, string, string]> {
  const body = (await answer.json()) as ErrorBody;
  return [answer.status, body.error.code, body.error.param, body.error.message];
}

describe('serve: a session id too long, in the header and in the end route', () => {
  it('201 characters once decoded: the 400 invalid_session_id on both routes (the end route answered 404)', async () => {
    expect(await refusal(await end('%41'.repeat(201)))).toEqual([400, 'invalid_session_id', 'id', 'id is longer than 200 characters (once URL-decoded)']);
    expect(await refusal(await end('a'.repeat(201)))).toEqual([400, 'invalid_session_id', 'id', 'id is longer than 200 characters (once URL-decoded)']);
    expect(await refusal(await named('a'.repeat(201)))).toEqual([400, 'invalid_session_id', 'x-loopcost-session', 'x-loopcost-session is longer than 200 characters (once URL-decoded)']);
  });

  it('200 characters is an id: started by the header, ended by the end route', async () => {
    const id = 'b'.repeat(200);
    expect((await named(id)).status).toBe(200);
    const ended = await end(id);
    expect([ended.status, ((await ended.json()) as { id: string }).id]).toEqual([200, id]);
    expect((await end('c'.repeat(200))).status).toBe(404);
  });
});

describe('serve: a session id holding a control character', () => {
  it.each([
    ['run%0A7', 'U+000A', '%0A', 4],
    ['%00', 'U+0000', '%00', 1],
    ['tab%09bed', 'U+0009', '%09', 4],
    ['del%7F', 'U+007F', '%7F', 4],
    ['c1%C2%85', 'U+0085', '%C2%85', 3],
  ])('%s: the 400 invalid_session_id naming %s on both routes, nothing started', async (written, code, escape, at) => {
    const before = await sessionCount();
    const said = (param: string) => `${param} holds a control character, ${code} (written ${escape}), at character ${at} once URL-decoded: a session id is text, listed and echoed as written; leave the character out`;
    expect(await refusal(await named(written))).toEqual([400, 'invalid_session_id', 'x-loopcost-session', said('x-loopcost-session')]);
    expect(await refusal(await end(written))).toEqual([400, 'invalid_session_id', 'id', said('id')]);
    expect(await sessionCount()).toBe(before);
  });

  it('a tab inside the header as sent (not URL-encoded) is refused too', async () => {
    expect(await refusal(await named('a\tb'))).toEqual([400, 'invalid_session_id', 'x-loopcost-session', expect.stringContaining('U+0009 (written %09), at character 2')]);
  });

  it('printable text beyond ASCII is no control character: é (%C3%A9) and U+00A0 (%C2%A0) are ids', async () => {
    for (const written of ['caf%C3%A9', 'nb%C2%A0sp']) {
      expect((await named(written)).status, written).toBe(200);
      expect((await end(written)).status, written).toBe(200);
    }
  });
});

/**
 * A session id that is not ASCII: node:http gives header bytes as latin1, so `x-loopcost-session: éééé`
 * sent as UTF-8 (curl) was kept as `Ã©Ã©Ã©Ã©`, listed so, and `POST /loopcost/sessions/<id>/end` with the
 * id URL-encoded found no session. Now the header is read as UTF-8 text (bytes that are not UTF-8 as
 * latin1, what fetch sends for é): the listing and the end route agree on the id, and the response header
 * echoes it in ASCII, URL-encoded as the end route takes it (an ASCII id without % unchanged). The header
 * is read URL-decoded once, as the end route is: `caf%C3%A9` is `café`, not a second session whose echo
 * would read the same, and the echo sent back names the session it came from.
 */
import { connect } from 'node:net';
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

interface RawAnswer {
  status: number;
  /** The response's header lines as bytes. */
  head: Buffer;
  body: string;
}

/** One request with the session header's exact bytes (as curl sends what a terminal types), the answer as bytes. */
function rawPost(path: string, sessionBytes?: Buffer): Promise<RawAnswer> {
  const body = JSON.stringify({ model: 'x', messages: [{ role: 'user', content: 'sum' }] });
  const head = Buffer.concat([
    Buffer.from(`POST ${path} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n`, 'latin1'),
    ...(sessionBytes ? [Buffer.from('x-loopcost-session: ', 'latin1'), sessionBytes, Buffer.from('\r\n', 'latin1')] : []),
    Buffer.from('\r\n', 'latin1'),
  ]);
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const all = Buffer.concat(chunks);
      const split = all.indexOf('\r\n\r\n');
      resolve({ status: Number(all.subarray(9, 12).toString()), head: all.subarray(0, split), body: all.subarray(split + 4).toString('utf8') });
    });
    socket.end(Buffer.concat([head, Buffer.from(body)]));
  });
}

/** The bytes of the session header in a response. */
function echoed(answer: RawAnswer): Buffer | undefined {
  const line = answer.head
    .toString('latin1')
    .split('\r\n')
    .find((l) => l.toLowerCase().startsWith('x-loopcost-session:'));
  return line === undefined ? undefined : Buffer.from(line.slice('x-loopcost-session:'.length).trim(), 'latin1');
}

const sessions = async () => ((await (await fetch(`${server.url}/loopcost/sessions`)).json()) as { sessions: { id: string; calls: number; retired?: unknown }[] }).sessions;
const end = (id: string) => fetch(`${server.url}/loopcost/sessions/${encodeURIComponent(id)}/end`, { method: 'POST' });

describe('serve: a session id that is not ASCII', () => {
  it('sent as UTF-8: listed as written, echoed URL-encoded, ended by that id', async () => {
    const answer = await rawPost('/v1/chat/completions', Buffer.from('éééé', 'utf8'));
    expect(answer.status, answer.body).toBe(200);
    expect(echoed(answer)?.toString('latin1')).toBe('%C3%A9%C3%A9%C3%A9%C3%A9');
    expect((await sessions()).map((s) => s.id)).toContain('éééé');
    const ended = await end('éééé');
    expect(ended.status).toBe(200);
    expect(((await ended.json()) as { id: string }).id).toBe('éééé');
  });

  it('the same id sent as fetch sends it (é as the one byte 0xE9) is the same session', async () => {
    const first = await rawPost('/v1/chat/completions', Buffer.from('ñandú', 'utf8'));
    expect(first.status).toBe(200);
    const second = await fetch(`${server.url}/v1/chat/completions`, { method: 'POST', headers: { 'x-loopcost-session': 'ñandú' }, body: JSON.stringify({ model: 'x', messages: [{ role: 'user', content: 'sum' }] }) });
    expect(second.status).toBe(200);
    expect(second.headers.get('x-loopcost-session')).toBe(encodeURIComponent('ñandú'));
    const listed = (await sessions()).filter((s) => s.id === 'ñandú');
    expect(listed).toHaveLength(1);
    expect(listed[0]!.calls).toBe(2);
  });

  it('beyond latin1 (CJK, emoji): listed and ended as text, echoed URL-encoded', async () => {
    const id = '会话-🚀';
    const answer = await rawPost('/v1/chat/completions', Buffer.from(id, 'utf8'));
    expect(answer.status, answer.body).toBe(200);
    const echo = echoed(answer)!.toString('latin1');
    expect(echo).toBe(encodeURIComponent(id));
    expect((await fetch(`${server.url}/loopcost/sessions/${echo}/end`, { method: 'POST' })).status).toBe(200);
    expect((await sessions()).map((s) => s.id)).toContain(id);
  });

  it('an ASCII id is unchanged, and a session without the header is echoed its conversation id', async () => {
    const named = await rawPost('/v1/chat/completions', Buffer.from('run-7', 'latin1'));
    expect(echoed(named)?.toString('latin1')).toBe('run-7');
    const unnamed = await rawPost('/v1/chat/completions');
    expect(echoed(unnamed)?.toString('latin1')).toMatch(/^conversation-\d+$/);
  });
});

/** A request naming its session by `id` as fetch sends a header (ASCII, or latin1 bytes). */
const named = (id: string) => fetch(`${server.url}/v1/chat/completions`, { method: 'POST', headers: { 'x-loopcost-session': id }, body: JSON.stringify({ model: 'x', messages: [{ role: 'user', content: 'sum' }] }) });

describe('serve: a session id is read URL-decoded exactly once, in the header as in the end route', () => {
  it('`caf%C3%A9` is `café`: one session whichever way it is written, the echo sent back continues it, the end route takes it', async () => {
    const raw = await rawPost('/v1/chat/completions', Buffer.from('café', 'utf8'));
    const echo = echoed(raw)!.toString('latin1');
    expect(echo).toBe('caf%C3%A9');
    const sentBack = await named(echo);
    expect([sentBack.status, sentBack.headers.get('x-loopcost-session')]).toEqual([200, 'caf%C3%A9']);
    const listed = (await sessions()).filter((s) => s.id.startsWith('caf'));
    expect(listed.map((s) => [s.id, s.calls])).toEqual([['café', 2]]);
    const ended = await fetch(`${server.url}/loopcost/sessions/${echo}/end`, { method: 'POST' });
    expect([ended.status, ((await ended.json()) as { id: string }).id]).toEqual([200, 'café']);
  });

  it('a literal % is written %25: the id `50%` is echoed `50%25`, which names it again', async () => {
    const first = await named('50%25');
    expect([first.status, first.headers.get('x-loopcost-session')]).toEqual([200, '50%25']);
    expect((await named(first.headers.get('x-loopcost-session')!)).status).toBe(200);
    expect((await sessions()).filter((s) => s.id === '50%').map((s) => s.calls)).toEqual([2]);
    expect((await end('50%')).status).toBe(200);
  });

  it('a % that starts no escape, or escapes that are not UTF-8, are a 400 naming the header; nothing is started', async () => {
    const before = (await sessions()).length;
    for (const id of ['50%done', 'caf%E9', '100%']) {
      const answer = await named(id);
      const body = (await answer.json()) as { error: { code: string; param: string; message: string } };
      expect([answer.status, body.error.code, body.error.param], id).toEqual([400, 'invalid_session_id', 'x-loopcost-session']);
      expect(body.error.message).toContain(`x-loopcost-session: '${id}' is not a URL-encoded session id (a session id is read URL-decoded once: write a % of it as %25`);
    }
    const badPath = await fetch(`${server.url}/loopcost/sessions/50%done/end`, { method: 'POST' });
    expect([badPath.status, ((await badPath.json()) as { error: { code: string } }).error.code]).toEqual([400, 'invalid_session_id']);
    expect((await sessions()).length).toBe(before);
  });
});

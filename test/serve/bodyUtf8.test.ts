/**
 * A request body that is not valid UTF-8 (a byte 0xE9 where `é` was meant, Latin-1 text, a cut multi-byte
 * character): a 400 as for every other bad body, not a 200 answered from U+FFFD characters put in its place.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTraceFile } from '../../src/import/index.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { startServer, type RunningServer } from '../../src/serve/index.js';
import type { Trace } from '../../src/trace/types.js';

let server: RunningServer;
let sessions = 0;

beforeAll(async () => {
  const traces = (await loadTraceFile('scenarios/reference-sum-of-squares.jsonl')) as Trace[];
  server = await startServer({ sources: { traces }, prices: loadPriceTable(), port: 0 });
});
afterAll(() => server.close());

/** `bytes` posted as the body, in a session of its own. */
async function sendBytes(bytes: Uint8Array): Promise<{ status: number; json: { error?: { message: string; code: string | null; param: string | null; type: string } } }> {
  const response = await fetch(`${server.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-loopcost-session': `u${++sessions}` }, body: bytes });
  return { status: response.status, json: (await response.json()) as { error?: { message: string; code: string | null; param: string | null; type: string } } };
}

const body = (content: string) => `{"model":"gpt-4o-mini","messages":[{"role":"user","content":"${content}"}]}`;

describe('serve: a request body that is not UTF-8', () => {
  it('is a 400 invalid_utf8 saying what to send: a Latin-1 é, a lone continuation byte, a cut character', async () => {
    const utf8 = Buffer.from(body('caf\u00e9'));
    const latin1 = Buffer.from(body('caf\u00e9'), 'latin1');
    const cut = Buffer.concat([Buffer.from(body('x').slice(0, -4)), Buffer.from([0xe2, 0x82]), Buffer.from('"}]}')]);
    const stray = Buffer.from(body('a\u0000b').replace('\u0000', '\u0080'), 'latin1');
    for (const bytes of [latin1, cut, stray]) {
      const answer = await sendBytes(bytes);
      expect(answer.status, JSON.stringify(answer.json)).toBe(400);
      expect(answer.json.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_utf8', param: null });
      expect(answer.json.error!.message).toBe('the request body is not valid UTF-8: send the JSON encoded as UTF-8 (as JSON requires), with Content-Type: application/json');
    }
    // The same text sent as UTF-8 is answered, and the server goes on answering.
    expect((await sendBytes(utf8)).status).toBe(200);
  });
});

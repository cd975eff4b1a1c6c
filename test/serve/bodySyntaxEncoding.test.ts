/**
 * A request body that is no JSON is named where it breaks (line, column, the field as `param`), a bare
 * NaN or Infinity said to be no JSON number; a body sent with `Content-Encoding: gzip` is refused as
 * compressed (415), not called "not valid UTF-8". The server answers normally afterwards.
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { expectOpenAiError, post } from './client.js';
import { referenceServer } from './referenceServer.js';

const BODY = '{"model":"gpt-4o-mini","messages":[{"role":"user","content":"sum"}]';
const { url, send } = referenceServer();

describe('serve: a body that is not JSON', () => {
  it('a bare NaN or -Infinity is named at its line, column and field, as no JSON number', async () => {
    for (const token of ['NaN', '-Infinity']) {
      const answer = await send(`${BODY},"max_tokens":${token}}`);
      expect(answer.status).toBe(400);
      expectOpenAiError(answer);
      expect(answer.json.error).toMatchObject({ param: 'max_tokens', code: 'invalid_json' });
      expect(answer.json.error.message).toBe(`the request body is not valid JSON at line 1, column ${BODY.length + 15} (max_tokens): ${token} is not a JSON number (JSON has no NaN or Infinity): send a number, or null`);
    }
  });

  it('a syntax error is named at its line and column, not a character position', async () => {
    const answer = await send(`{\n  "model": "m",\n  "messages": [{"role": "user",}]\n}`);
    expect(answer.status).toBe(400);
    expect(answer.json.error.message).toMatch(/^the request body is not valid JSON at line 3, column 32 \(messages\[0\]\): Expected double-quoted property name$/);
    expect(answer.json.error.param).toBe('messages[0]');
  });

  it('a short body V8 quotes whole is placed too, and a NaN after its fault is not called the fault', async () => {
    const whole = await send('{"model": }');
    expect(whole.json.error).toMatchObject({ param: 'model', message: "the request body is not valid JSON at line 1, column 11 (model): Unexpected token '}'" });
    const nanAfter = await send('[{"a": }, NaN]');
    expect(nanAfter.json.error).toMatchObject({ param: '[0].a', message: "the request body is not valid JSON at line 1, column 8 ([0].a): Unexpected token '}'" });
  });

  it("a long body's fault is said without the text V8 quotes around it", async () => {
    const answer = await send(`${BODY},"max_tokens": ,"n": 1}`);
    expect(answer.json.error).toMatchObject({ param: 'max_tokens', message: `the request body is not valid JSON at line 1, column ${BODY.length + 16} (max_tokens): Unexpected token ','` });
  });
});

describe('serve: a compressed body', () => {
  it('Content-Encoding: gzip is refused as compressed (415), with what to send; identity is read', async () => {
    const body = `${BODY}}`;
    const response = await fetch(`${url()}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', 'x-loopcost-session': 'gz' }, body: gzipSync(body) });
    expect(response.status).toBe(415);
    const json = (await response.json()) as { error: { message: string; code: string; type: string } };
    expect(json.error).toMatchObject({ type: 'invalid_request_error', code: 'unsupported_content_encoding' });
    expect(json.error.message).toBe('the request body is sent with Content-Encoding: gzip, and loopcost serve accepts no compressed body: send it uncompressed (no Content-Encoding header)');
    expect((await post(url(), body, { 'content-encoding': 'identity', 'x-loopcost-session': 'plain' })).status).toBe(200);
  });
});

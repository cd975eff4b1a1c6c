/**
 * Hostile request bodies: a key given twice (JSON.parse would keep the last silently), nesting past the
 * limit, a `__proto__` key smuggling fields past the checks, and malformed bodies — each a 400 naming the
 * field, never a 500 or a silent default; the server answers normally afterwards.
 */
import { describe, expect, it } from 'vitest';
import { expectOpenAiError, type Answer } from './client.js';
import { referenceServer } from './referenceServer.js';

const { send } = referenceServer();
const USER = '{"role":"user","content":"sum"}';
const withFields = (fields: string) => `{"model":"gpt-4o-mini","messages":[${USER}],${fields}}`;

function expectBadRequest(answer: Answer, param: string | null, message: RegExp, code?: string): void {
  expect(answer.status, JSON.stringify(answer.json)).toBe(400);
  expectOpenAiError(answer);
  expect(answer.json.error.type).toBe('invalid_request_error');
  expect(answer.json.error.param).toBe(param);
  expect(answer.json.error.message).toMatch(message);
  if (code !== undefined) expect(answer.json.error.code).toBe(code);
}

describe('serve: a key given twice in a request body', () => {
  it('is a 400 naming the key path, at any depth', async () => {
    const cases: [string, string, RegExp][] = [
      ['{"model":"a","model":"gpt-4o-mini","messages":[{"role":"user","content":"sum"}]}', 'model', /^model: key "model" is given twice in the same object \(send each key once/],
      [withFields('"max_tokens":-5,"max_tokens":40'), 'max_tokens', /^max_tokens: key "max_tokens" is given twice/],
      ['{"model":"m","messages":[{"role":"system","content":"a"},{"role":"user","content":"b","role":"assistant"}]}', 'messages[1].role', /^messages\[1\]\.role: key "role" is given twice/],
      [withFields('"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object","type":"array"}}}]'), 'tools[0].function.parameters.type', /key "type" is given twice/],
      // The same key written with an escape is the same key.
      ['{"mod\\u0065l":"a","model":"gpt-4o-mini","messages":[{"role":"user","content":"sum"}]}', 'model', /key "model" is given twice/],
    ];
    for (const [body, param, message] of cases) expectBadRequest(await send(body), param, message, 'duplicate_key');
  });

  it('is found in a large body too (the quick check falls back to the full scan)', async () => {
    const filler = Array.from({ length: 3000 }, (_, i) => `{"role":"tool","tool_call_id":"c${i}","content":"${'x: y, '.repeat(50)}"}`);
    const body = `{"model":"m","messages":[${USER},${filler.join(',')},{"role":"user","content":"a","content":"b"}]}`;
    expect(body.length).toBeGreaterThan(1_000_000);
    expectBadRequest(await send(body), 'messages[3001].content', /key "content" is given twice/, 'duplicate_key');
    const clean = body.replace('"content":"a","content":"b"', '"content":"a"');
    expect((await send(clean)).status).toBe(200);
  });

  it('is not confused by the same key in sibling objects, keys inside strings, or pretty-printing', async () => {
    const bodies = [
      '{"model":"m","messages":[{"role":"system","content":"a"},{"role":"user","content":"b"}]}',
      '{"model":"m","messages":[{"role":"user","content":"\\"role\\": 1, \\"role\\": 2, {\\"model\\":\\"x\\"}"}]}',
      JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'a : b' }], max_tokens: 500 }, null, 2).replace(/": /g, '" : '),
    ];
    for (const body of bodies) expect((await send(body)).status, body).toBe(200);
  });
});

describe('serve: malformed bodies', () => {
  it('each is a 400 naming the field and what is wrong', async () => {
    const cap = /must be a whole number of tokens from 1 to 9007199254740991, not /;
    const cases: [string, string, string | null, RegExp][] = [
      ['not JSON', 'model: gpt-4o-mini', null, /^the request body is not valid JSON/],
      ['empty', '', null, /^the request body is empty: send the request as one JSON object$/],
      ['a JSON array', `[${USER}]`, null, /^the request body: .*expected object, received array/],
      ['null', 'null', null, /^the request body: .*expected object, received null/],
      ['no model', `{"messages":[${USER}]}`, 'model', /^model: is missing \(expected string\)/],
      ['messages not an array', '{"model":"m","messages":{"role":"user"}}', 'messages', /^messages: .*expected array, received object/],
      ['messages empty', '{"model":"m","messages":[]}', 'messages', /^messages: .*>=1 items/],
      ['a message that is null', '{"model":"m","messages":[null]}', 'messages[0]', /^messages\[0\]: .*expected object, received null/],
      ['a message without role', '{"model":"m","messages":[{"content":"sum"}]}', 'messages[0].role', /^messages\[0\]\.role: is missing \(expected one of "system", "developer", "user", "assistant", "tool", "function"\)/],
      ['an unknown role', '{"model":"m","messages":[{"role":"robot","content":"x"}]}', 'messages[0].role', /^messages\[0\]\.role: .*expected one of "system"/],
      ['content of the wrong shape', '{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":5}]}]}', 'messages[0].content', /^messages\[0\]\.content: must be a string, null, or an array of parts/],
      ['a tool call without function', '{"model":"m","messages":[{"role":"assistant","tool_calls":[{"id":"a"}]}]}', 'messages[0].tool_calls[0].function', /is missing \(expected object\)/],
      ['max_tokens 1e400', withFields('"max_tokens":1e400'), 'max_tokens', new RegExp(`^max_tokens: ${cap.source}Infinity \\(a number past what JSON holds\\)`)],
      ['max_tokens -1e400', withFields('"max_tokens":-1e400'), 'max_tokens', new RegExp(`${cap.source}-Infinity`)],
      ['max_completion_tokens 1e400', withFields('"max_completion_tokens":1e400'), 'max_completion_tokens', new RegExp(`${cap.source}Infinity`)],
      ['max_tokens past 2^53', withFields('"max_tokens":1e300'), 'max_tokens', new RegExp(`${cap.source}1e\\+300$`)],
      ['max_tokens negative', withFields('"max_tokens":-5'), 'max_tokens', new RegExp(`${cap.source}-5$`)],
      ['max_tokens zero', withFields('"max_tokens":0'), 'max_tokens', new RegExp(`${cap.source}0$`)],
      ['max_tokens a fraction', withFields('"max_tokens":2.5'), 'max_tokens', new RegExp(`${cap.source}2\\.5$`)],
      ['max_tokens a string', withFields('"max_tokens":"40"'), 'max_tokens', new RegExp(`${cap.source}"40"$`)],
      ['stream not a boolean', withFields('"stream":"yes"'), 'stream', /^stream: .*expected boolean/],
      ['nesting past 256 levels', withFields(`"metadata":${'['.repeat(300)}${']'.repeat(300)}`), 'metadata[0][0][0][0][0][0][0]…', /nests deeper than 256 levels/],
    ];
    for (const [what, body, param, message] of cases) {
      const answer = await send(body);
      expect(answer.status, what).toBe(400);
      expectBadRequest(answer, param, message);
      expect(answer.headers.get('x-should-retry'), what).toBe('false');
    }
    expect((await send(withFields('"max_tokens":null'))).status).toBe(200);
  });

  it('a "__proto__" key cannot slip fields past the checks', async () => {
    const capped = await send(withFields('"__proto__":{"max_tokens":-5,"max_completion_tokens":-5}'));
    expect(capped.status).toBe(200);
    expect(capped.json.usage.completion_tokens).toBe(150);
    expect(capped.json.choices[0].finish_reason).not.toBe('length');
    const streamed = await send(withFields('"__proto__":{"stream":true}'));
    expect(streamed.status).toBe(200);
    expect(streamed.headers.get('content-type')).toMatch(/^application\/json/);
    expect(streamed.json.object).toBe('chat.completion');
  });
});

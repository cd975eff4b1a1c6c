/**
 * openAIChatModel checks its options before it makes a client (src/agent/openaiOptions.ts). Before, it
 * checked none: `{ model: 5 }` made a model named 5, `{ timeoutMs: -1 }` and `{ timeoutMs: '5' }` were
 * handed to the SDK, `{ outputCapField: 'max' }` sent the cap in a field no provider reads (no output cap),
 * `{ baseUrl }` (misspelt baseURL) was ignored and every request went to api.openai.com at real cost, and a
 * missing key was a plain Error. Each is now a UserError naming the option in `<openAIChatModel options>`.
 */
import OpenAI from 'openai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openAIChatModel, type OpenAIChatOptions } from '../../src/agent/openaiChat.js';
import type { ModelRequest } from '../../src/agent/types.js';
import { UserError } from '../../src/errors.js';
import { userErrorOf } from '../helpers.js';

const FILE = '<openAIChatModel options>';
const LOCAL = { model: 'm', apiKey: 'k', baseURL: 'http://127.0.0.1:9/v1' };

/** A client whose every request is answered by `answer`, the bodies sent kept in `sent`. */
function clientKeeping(sent: unknown[]): OpenAI {
  const completion = { id: 'x', object: 'chat.completion', created: 0, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }], usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 } };
  const fetchDouble: typeof fetch = async (_url, init) => (sent.push(JSON.parse(String(init?.body))), new Response(JSON.stringify(completion), { status: 200, headers: { 'content-type': 'application/json' } }));
  return new OpenAI({ apiKey: 'k', baseURL: 'http://127.0.0.1:9/v1', maxRetries: 0, fetch: fetchDouble });
}

const request: ModelRequest = { messages: [{ role: 'user', content: 'g' }], tools: [], maxOutputTokens: 100 };

afterEach(() => void vi.unstubAllEnvs());

/** Options and the field (with its code) each is refused at. */
const BAD: [string, unknown, string, string][] = [
  ['not an object', null, '', 'invalid_value'],
  ['a model that is no name', { ...LOCAL, model: 5 }, 'model', 'invalid_model'],
  ['no model', { apiKey: 'k' }, 'model', 'invalid_model'],
  ['a negative timeout', { ...LOCAL, timeoutMs: -1 }, 'timeoutMs', 'invalid_number'],
  ['a timeout as text', { ...LOCAL, timeoutMs: '5' }, 'timeoutMs', 'invalid_number'],
  ['a timeout of 0 (every attempt would time out)', { ...LOCAL, timeoutMs: 0 }, 'timeoutMs', 'invalid_number'],
  ['a timeout past what a timer holds (it would fire at once)', { ...LOCAL, timeoutMs: 2 ** 31 }, 'timeoutMs', 'invalid_number'],
  ['a cap field no provider reads', { ...LOCAL, outputCapField: 'max' }, 'outputCapField', 'invalid_value'],
  ['baseUrl, a misspelt baseURL', { model: 'm', apiKey: 'k', baseUrl: 'http://127.0.0.1:9/v1' }, 'baseUrl', 'unrecognized_keys'],
  ['a base URL that is no http(s) URL', { ...LOCAL, baseURL: 'localhost:8080' }, 'baseURL', 'invalid_value'],
  ['an empty key', { ...LOCAL, apiKey: '' }, 'apiKey', 'invalid_value'],
  ['a provider that is no text', { ...LOCAL, provider: 5 }, 'provider', 'invalid_input'],
  ['a header that is no text', { ...LOCAL, headers: { 'x-loopcost-session': 5 } }, 'headers.x-loopcost-session', 'invalid_value'],
  ['a context window of 1.5 tokens', { ...LOCAL, contextWindowTokens: 1.5 }, 'contextWindowTokens', 'invalid_number'],
  ['a client with no chat completions', { model: 'm', client: {} }, 'client', 'invalid_value'],
  ['a base URL beside a client, which would not read it', { model: 'm', client: clientKeeping([]), baseURL: 'http://127.0.0.1:9/v1' }, 'baseURL', 'conflicting_options'],
];

describe('openAIChatModel options', () => {
  it.each(BAD)('refuses %s, naming the option', (_, options, field, code) => {
    const error = userErrorOf(() => openAIChatModel(options as OpenAIChatOptions));
    expect(error.issues).toContainEqual(expect.objectContaining({ file: FILE, ...(field === '' ? {} : { field }), code }));
  });

  it('says what a misspelt option was meant to be', () => {
    const error = userErrorOf(() => openAIChatModel({ model: 'm', apiKey: 'k', baseUrl: 'http://127.0.0.1:9/v1' } as never));
    expect(error.message).toBe(`${FILE} field 'baseUrl': unknown option "baseUrl" (did you mean baseURL?)`);
  });

  it('refuses a missing key as a UserError, not a plain Error', () => {
    vi.stubEnv('OPENAI_API_KEY', '');
    const error = userErrorOf(() => openAIChatModel({ model: 'm' }));
    expect(error.issues).toEqual([expect.objectContaining({ file: FILE, field: 'apiKey', code: 'missing_field' })]);
    expect(error.message).toContain('pass apiKey or set OPENAI_API_KEY');
  });

  it('names every bad option at once', () => {
    const error = userErrorOf(() => openAIChatModel({ model: 5, timeoutMs: -1, outputCapField: 'max', baseUrl: 'x', apiKey: 'k' } as never));
    expect(error.issues.map((issue) => issue.field)).toEqual(['baseUrl', 'model', 'timeoutMs', 'outputCapField']);
  });

  it('takes valid options as before: the key from the environment, every option set, or a client of your own', async () => {
    vi.stubEnv('OPENAI_API_KEY', 'from-env');
    expect(openAIChatModel({ model: 'gpt-4o-mini' }).name).toBe('gpt-4o-mini');
    const full = openAIChatModel({ ...LOCAL, provider: 'openai', timeoutMs: 60_000, outputCapField: 'max_tokens', headers: { 'x-loopcost-session': 's' }, contextWindowTokens: 128_000 });
    expect([full.name, full.provider]).toEqual(['m', 'openai']);
    const sent: unknown[] = [];
    const turn = await openAIChatModel({ model: 'm', client: clientKeeping(sent), outputCapField: 'max_tokens' }).call(request);
    expect(turn.text).toBe('ok');
    expect(sent).toEqual([expect.objectContaining({ model: 'm', max_tokens: 100 })]);
  });

  it('throws nothing but UserErrors for any options value', () => {
    for (const options of [undefined, 5, 'gpt-4o', [], { model: '' }]) expect(() => openAIChatModel(options as never)).toThrow(UserError);
  });
});

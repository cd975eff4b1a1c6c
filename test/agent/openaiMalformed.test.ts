/**
 * What openAIChatModel makes of a 200 that is no chat completion (a fetch double answers it): a
 * ModelCallError with the status, what the server sent (clipped), the usage it reports, retried as a 5xx
 * unless the error names a status that is not; and what the loop makes of arguments that are no text, from
 * a Model of one's own (tools.ts parseArguments): an error observation, not a TypeError out of the run.
 */
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { openAIChatModel } from '../../src/agent/openaiChat.js';
import { QUOTED_BODY_CHARS } from '../../src/agent/openaiResponse.js';
import { memoryRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { parseArguments } from '../../src/agent/tools.js';
import { ModelCallError, type ModelRequest } from '../../src/agent/types.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { pricings } from '../core/arbitraries.js';
import { answer, ScriptedModel } from './scripted.js';

const request: ModelRequest = { messages: [{ role: 'user', content: 'g' }], tools: [], maxOutputTokens: 10 };

async function failure(body: string, contentType = 'application/json'): Promise<ModelCallError> {
  const fetchDouble: typeof fetch = async () => new Response(body, { status: 200, headers: { 'content-type': contentType } });
  const client = new OpenAI({ apiKey: 'k', baseURL: 'http://127.0.0.1:9/v1', maxRetries: 0, fetch: fetchDouble });
  const error = await openAIChatModel({ model: 'm', client }).call(request).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ModelCallError);
  return error as ModelCallError;
}

describe('a 200 that is no chat completion', () => {
  it('is a ModelCallError: status 200, what the server sent, retryable, the usage it reports', async () => {
    const error = await failure(JSON.stringify({ id: 'r', usage: { prompt_tokens: 50, completion_tokens: 5 } }));
    expect(error.message).toBe('the response is no chat completion: the body has no choices list: {"id":"r","usage":{"prompt_tokens":50,"completion_tokens":5}}');
    expect(error.options).toMatchObject({ status: 200, retryable: true, usage: { inputTokens: 50, outputTokens: 5 } });
    expect((await failure('<html>\n  <body>bad gateway</body>\n</html>', 'text/html')).message).toBe('the response is no chat completion: the body is not JSON: <html> <body>bad gateway</body> </html>');
    expect((await failure('[1,2]')).message).toBe('the response is no chat completion: the body is JSON but no object: [1,2]');
    expect((await failure('{"error":{"type":"x"}}')).message).toBe('the response is no chat completion: the body is an error: {"type":"x"}');
  });

  it('quotes at most QUOTED_BODY_CHARS of the body, on one line', async () => {
    const error = await failure(`<html>${'x'.repeat(5000)}</html>`);
    const quoted = error.message.slice('the response is no chat completion: the body is not JSON: '.length);
    expect(quoted).toHaveLength(QUOTED_BODY_CHARS);
    expect(quoted.endsWith('x…')).toBe(true);
  });

  it('an error naming a status (OpenRouter puts it in `code`) is retried as that status is: a 400 not, a 502 yes', async () => {
    const named = (code: number) => failure(JSON.stringify({ error: { message: 'no', code } }));
    expect((await named(400)).options.retryable).toBe(false);
    expect((await named(502)).options.retryable).toBe(true);
    expect((await named(502)).message).toBe('the response is no chat completion: the body is an error: no (code 502)');
  });

  it('a usage no call can have is the server’s error there too: not retried, billed nothing', async () => {
    const error = await failure(JSON.stringify({ id: 'r', usage: { prompt_tokens: 1e15, completion_tokens: 5 } }));
    expect(error.options).toMatchObject({ status: 200, retryable: false });
    expect(error.options.usage).toBeUndefined();
    expect(error.message).toMatch(/^the server reported usage\.prompt_tokens = 1000000000000000/);
  });
});

describe('an empty answer', () => {
  const turnOf = async (message: object) => {
    const body = { id: 'r', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: 'stop' }], usage: { prompt_tokens: 5, completion_tokens: 1 } };
    const fetchDouble: typeof fetch = async () => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
    return openAIChatModel({ model: 'm', client: new OpenAI({ apiKey: 'k', baseURL: 'http://127.0.0.1:9/v1', maxRetries: 0, fetch: fetchDouble }) }).call(request);
  };

  it('is unparseable; a refusal beside empty content is the answer', async () => {
    expect(await turnOf({ content: '' })).toMatchObject({ text: '', toolCalls: [], marks: { unparseable: true } });
    const refused = await turnOf({ content: '', refusal: 'I cannot help with that.' });
    expect([refused.text, refused.marks]).toEqual(['I cannot help with that.', undefined]);
  });
});

describe('arguments that are no text (a Model of one’s own)', () => {
  it('parseArguments refuses them instead of throwing', () => {
    expect(parseArguments(null as never)).toBe('arguments are not JSON text');
    expect(parseArguments({ a: 1 } as never)).toBe('arguments are not JSON text');
    expect(parseArguments(' ')).toEqual({});
  });

  it('the run takes them as an error observation and goes on: billed, recorded', async () => {
    const calls = { text: null, toolCalls: [{ id: 'c1', name: 'echo', arguments: null as never }], usage: { inputTokens: 100, outputTokens: 10 } };
    const model = new ScriptedModel([calls, answer('done')], pricings[0]!.model);
    const echo = { name: 'echo', description: 'e', parameters: { type: 'object' }, run: () => 'ran' };
    const recorder = memoryRecorder();
    const pricing = pricings[0]!;
    const run = await runAgentLoop({ model, tools: [echo], brakes: { ...NO_BRAKES, maxSteps: 5 }, context: { system: 's', goal: 'g', countTokens: (t) => t.length }, pricing, clock: new VirtualClock(), recorder });
    expect([run.stop.reason, run.steps, run.toolCalls]).toEqual(['completed', 2, 1]);
    expect(run.messages.find((m) => m.role === 'tool')).toMatchObject({ content: 'refused: arguments are not JSON text' });
    expect(recorder.trace().calls[0]!.toolCalls).toMatchObject([{ name: 'echo', error: 'arguments are not JSON text' }]);
  });
});

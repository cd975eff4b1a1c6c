/**
 * What openAIChatModel makes of answers that say the run's setup is wrong (agent/providerSetup.ts), on the
 * SDK's own errors: a connection error names the URL and its cause (before: "Connection error." alone, for
 * nothing listening and an unresolvable host alike); a 401, 403 or 404 is a UserError naming the option to
 * fix, thrown out of runAgentLoop with the figures so far, never retried (before: a failed call, and the
 * run ended trace_end after one step as if the agent had stopped).
 */
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { openAIChatModel } from '../../src/agent/openaiChat.js';
import { connectionErrorMessage, providerSetupError } from '../../src/agent/providerSetup.js';
import { memoryRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import type { ErrorWithPartialRun } from '../../src/agent/thrownRun.js';
import { ModelCallError, type Model } from '../../src/agent/types.js';
import { UserError } from '../../src/errors.js';
import { MINI } from '../helpers.js';
import { closedPort } from './netDoubles.js';


/** What the SDK throws for one request to `baseURL` (answered by `fetchDouble` when given). */
async function sdkError(baseURL: string, fetchDouble?: typeof fetch): Promise<Error> {
  const client = new OpenAI({ apiKey: 'k', baseURL, maxRetries: 0, ...(fetchDouble ? { fetch: fetchDouble } : {}) });
  return client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }).then(
    () => expect.unreachable('the request should fail') as never,
    (error: Error) => error,
  );
}

const answering = (status: number, body: object, code?: string): typeof fetch => async () =>
  new Response(JSON.stringify({ error: { message: (body as { message: string }).message, type: 'invalid_request_error', param: null, code: code ?? null } }), { status, headers: { 'content-type': 'application/json' } });

describe('a request that never reached the server names the URL and the cause', () => {
  it('nothing listening: ECONNREFUSED, with what to check', async () => {
    const baseURL = `http://127.0.0.1:${await closedPort()}/v1`;
    const error = await sdkError(baseURL);
    expect(error.message).toBe('Connection error.');
    const said = connectionErrorMessage(error, { baseURL });
    expect(said).toContain(`Connection error. (POST ${baseURL}/chat/completions: ECONNREFUSED`);
    expect(said).toContain('nothing listens there');
  });

  it('a host that does not resolve: ENOTFOUND (or EAI_AGAIN where the lookup itself fails), never the same words as a refused connection', async () => {
    const baseURL = 'http://loopcost-test.invalid/v1';
    const said = connectionErrorMessage(await sdkError(baseURL), { baseURL });
    expect(said).toMatch(/^Connection error\. \(POST http:\/\/loopcost-test\.invalid\/v1\/chat\/completions: (ENOTFOUND|EAI_AGAIN)/);
    expect(said).not.toContain('ECONNREFUSED');
  });

  it('an error with no cause beneath it keeps its words', () => {
    expect(connectionErrorMessage(new Error('Connection error.'), { baseURL: 'http://h/v1' })).toBe('Connection error. (POST http://h/v1/chat/completions)');
  });
});

describe('401, 403, 404: the setup is wrong, a UserError naming what to fix', () => {
  const target = { baseURL: 'https://api.example.com/v1', model: 'gpt-4o-mni' };

  it('each names its option and says what to do; any other status, and serve replaying a recorded failure, is none', async () => {
    const cases = [
      [401, 'Incorrect API key provided.', 'apiKey', 'provider_refused_key', /give a key it accepts/],
      [403, 'Country, region, or territory not supported', 'model', 'provider_refused_access', /allowed to call gpt-4o-mni/],
      [404, 'The model `gpt-4o-mni` does not exist', 'model', 'provider_unknown_model', /GET https:\/\/api\.example\.com\/v1\/models/],
    ] as const;
    for (const [status, message, field, code, hint] of cases) {
      const error = providerSetupError((await sdkError(target.baseURL, answering(status, { message }))) as never, target)!;
      expect(error).toBeInstanceOf(UserError);
      expect(error.issues).toMatchObject([{ file: '<openAIChatModel options>', field, code }]);
      expect(error.issues[0]!.message).toContain(`${target.baseURL} answered ${status} ${message}`);
      expect(error.issues[0]!.hint).toMatch(hint);
    }
    expect(providerSetupError((await sdkError(target.baseURL, answering(429, { message: 'slow down' }))) as never, target)).toBeUndefined();
    expect(providerSetupError((await sdkError(target.baseURL, answering(404, { message: 'recorded' }, 'loopcost_recorded_failure'))) as never, target)).toBeUndefined();
  });

  it('through runAgentLoop: openAIChatModel throws a 401 at the first call, not retried, its figures and recording kept', async () => {
    let calls = 0;
    const refuse = answering(401, { message: 'Incorrect API key provided.' });
    const counted: typeof fetch = (...args) => (calls++, refuse(...args));
    const model: Model = openAIChatModel({ model: 'gpt-4o-mini', client: new OpenAI({ apiKey: 'bad', baseURL: 'http://127.0.0.1:9/v1', maxRetries: 0, fetch: counted }) });
    const recorder = memoryRecorder();
    const thrown = await runAgentLoop({ model, tools: [], brakes: { maxSteps: 5 }, context: { system: 's', goal: 'g' }, pricing: { ...MINI, requested: 'gpt-4o-mini' }, clock: new VirtualClock(), recorder }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(thrown).toBeInstanceOf(UserError);
    expect((thrown as UserError).issues[0]!.field).toBe('apiKey');
    expect(calls).toBe(1);
    expect((thrown as ErrorWithPartialRun).partialRun).toMatchObject({ stop: { reason: 'trace_end' }, calls: 0 });
    expect(recorder.trace().end).toMatchObject({ outcome: 'error' });
  });

  it('through openAIChatModel: nothing listening is a retryable failed call naming the URL and ECONNREFUSED', async () => {
    const baseURL = `http://127.0.0.1:${await closedPort()}/v1`;
    const model = openAIChatModel({ model: 'gpt-4o-mini', client: new OpenAI({ apiKey: 'k', baseURL, maxRetries: 0 }) });
    const error = await model.call({ messages: [{ role: 'user', content: 'hi' }], tools: [], maxOutputTokens: 10 } as never).then(
      () => expect.unreachable('the call should fail') as never,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ModelCallError);
    expect((error as ModelCallError).message).toContain(`${baseURL}/chat/completions: ECONNREFUSED`);
    expect((error as ModelCallError).options.retryable).toBe(true);
  });
});

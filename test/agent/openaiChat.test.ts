/** The Chat Completions adapter against a fetch double: what it sends, what it reads, how it fails. */
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { openAIChatModel } from '../../src/agent/openaiChat.js';
import { ModelCallError, ModelExhausted, type ModelRequest } from '../../src/agent/types.js';
import { UserError } from '../../src/errors.js';

function clientAnswering(status: number, body: unknown, sent: unknown[] = [], headers: Headers[] = []): OpenAI {
  const fetchDouble: typeof fetch = async (_url, init) => {
    sent.push(JSON.parse(String(init?.body)));
    headers.push(new Headers(init?.headers));
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  };
  return new OpenAI({ apiKey: 'k', baseURL: 'http://127.0.0.1:9/v1', maxRetries: 0, fetch: fetchDouble });
}

const request: ModelRequest = {
  messages: [
    { role: 'system', content: 's' },
    { role: 'user', content: 'g' },
    { role: 'assistant', content: null, toolCalls: [{ id: 'c1', name: 'run', arguments: '{"x":1}' }] },
    { role: 'tool', toolCallId: 'c1', content: 'ok' },
  ],
  tools: [{ name: 'run', description: 'runs', parameters: { type: 'object' } }],
  maxOutputTokens: 321,
};

const completion = (message: object, finish: string, usage?: object) => ({ id: 'x', object: 'chat.completion', created: 0, model: 'm', choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }], ...(usage ? { usage } : {}) });

describe('openAIChatModel', () => {
  it('sends the messages, tools and max_completion_tokens = the bound’s output cap; reads usage with cached and reasoning tokens', async () => {
    const sent: any[] = [];
    const usage = { prompt_tokens: 1200, completion_tokens: 80, total_tokens: 1280, prompt_tokens_details: { cached_tokens: 1024 }, completion_tokens_details: { reasoning_tokens: 30 } };
    const client = clientAnswering(200, completion({ content: null, tool_calls: [{ id: 'c2', type: 'function', function: { name: 'run', arguments: '{"x":2}' } }] }, 'tool_calls', usage), sent);
    const turn = await openAIChatModel({ model: 'gpt-4o-mini', client }).call(request);
    expect(sent[0]).toMatchObject({
      model: 'gpt-4o-mini',
      max_completion_tokens: 321,
      tools: [{ type: 'function', function: { name: 'run', description: 'runs', parameters: { type: 'object' } } }],
      messages: [{ role: 'system' }, { role: 'user' }, { role: 'assistant', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'run', arguments: '{"x":1}' } }] }, { role: 'tool', tool_call_id: 'c1', content: 'ok' }],
    });
    expect(turn.toolCalls).toEqual([{ id: 'c2', name: 'run', arguments: '{"x":2}' }]);
    expect(turn.usage).toEqual({ inputTokens: 1200, cachedInputTokens: 1024, outputTokens: 80, reasoningTokens: 30 });
    expect(turn.marks).toBeUndefined();
  });

  it('a summary request carries x-loopcost-purpose: summary (loopcost serve answers it without a recorded call); other requests do not', async () => {
    const headers: Headers[] = [];
    const client = clientAnswering(200, completion({ content: 'short' }, 'stop'), [], headers);
    const model = openAIChatModel({ model: 'm', client });
    await model.call({ ...request, purpose: 'summary' });
    await model.call(request);
    expect(headers.map((h) => h.get('x-loopcost-purpose'))).toEqual(['summary', null]);
  });

  it('max_tokens for older servers; a reply cut off at the cap with no tool call is unparseable; no usage → prompt unknown', async () => {
    const sent: any[] = [];
    const turn = await openAIChatModel({ model: 'm', client: clientAnswering(200, completion({ content: 'partial' }, 'length'), sent), outputCapField: 'max_tokens' }).call(request);
    expect(sent[0].max_tokens).toBe(321);
    expect(sent[0].max_completion_tokens).toBeUndefined();
    expect(turn.marks).toEqual({ unparseable: true });
    expect(turn.usage).toEqual({ outputTokens: 0, outputNotReported: true });
  });

  it('429 and 5xx are retryable failures, 400 is not; serve past the end of its trace ends the run as recorded', async () => {
    const fail = async (status: number, error: object) => openAIChatModel({ model: 'm', client: clientAnswering(status, { error }) }).call(request).catch((e) => e);
    const limited = await fail(429, { message: 'slow down', type: 'rate_limit_error' });
    expect(limited).toBeInstanceOf(ModelCallError);
    expect([limited.options.status, limited.options.retryable]).toEqual([429, true]);
    expect((await fail(503, { message: 'busy' })).options.retryable).toBe(true);
    expect((await fail(400, { message: 'bad' })).options.retryable).toBe(false);
    // The outcome is read from the structured field, not the message's wording.
    const ended = await fail(409, { message: 'the trace has ended', code: 'loopcost_trace_ended', loopcost: { recordedOutcome: 'completed', recordedCalls: 3 } });
    expect(ended).toEqual(new ModelExhausted('completed'));
    const cut = await fail(409, { message: "ended 'completed' (a wording that must not decide)", code: 'loopcost_trace_ended', loopcost: { recordedOutcome: 'error', recordedCalls: 3 } });
    expect(cut).toEqual(new ModelExhausted('trace_end', 'recorded trace ended without completing (outcome error)'));
    // What the recording's end says (its status) is what the run's stop says, as a replay of it says.
    const said = await fail(409, { message: 'the trace has ended', code: 'loopcost_trace_ended', loopcost: { recordedOutcome: 'unknown', recordedStatus: 'stopped by its AbortSignal after 2 steps', recordedCalls: 3 } });
    expect(said).toEqual(new ModelExhausted('trace_end', 'stopped by its AbortSignal after 2 steps'));
    // A synthetic agent that has ended: not a failure to retry (409 otherwise is), the source is spent.
    expect(await fail(409, { message: 'the synthetic agent has ended', code: 'loopcost_agent_ended', loopcost: { agentEnding: 'cut_off' } })).toEqual(new ModelExhausted('trace_end', 'the synthetic agent has ended'));
    // A session its client ended, or serve retired as idle: nothing more will be answered, so no retries; the run says why.
    const idle = 'session b was retired after 30 seconds without a request (--session-idle-seconds 30) after 1 call, its totals kept';
    expect(await fail(409, { message: idle, code: 'loopcost_session_idle', loopcost: { endedBy: 'idle', calls: 1, idleSeconds: 30 } })).toEqual(new ModelExhausted('trace_end', idle));
    const byClient = 'session a was ended by its client (POST /loopcost/sessions/a/end) after 1 call, its totals kept';
    expect(await fail(409, { message: byClient, code: 'loopcost_session_ended', loopcost: { endedBy: 'client', calls: 1 } })).toEqual(new ModelExhausted('trace_end', byClient));
  });

  it("serve's 422 (a scenario that cannot answer) is the scenario file's UserError, not a model failure; any other 422 is a failure", async () => {
    const fail = async (status: number, error: object) => openAIChatModel({ model: 'm', client: clientAnswering(status, { error }) }).call(request).catch((e) => e);
    const issue = { file: 's.yaml', field: 'population[0].outputTokens', code: 'draw_too_large', message: 'run 3 (seed 1) drew 1e300', hint: 'narrow it' };
    const scenario = await fail(422, { message: 's.yaml …', code: 'draw_too_large', loopcost: { issues: [issue] } });
    expect(scenario).toBeInstanceOf(UserError);
    expect(scenario.issues).toEqual([issue]);
    const other = await fail(422, { message: 'unprocessable', code: 'x' });
    expect(other).toBeInstanceOf(ModelCallError);
    expect(other.options).toMatchObject({ status: 422, retryable: false });
    expect(await fail(422, { message: 'odd', loopcost: { issues: [{ code: 1 }] } })).toBeInstanceOf(ModelCallError);
  });

  it('a timeout is a retryable failure', async () => {
    const slow: typeof fetch = (_url, init) => new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' }))));
    const client = new OpenAI({ apiKey: 'k', baseURL: 'http://127.0.0.1:9/v1', maxRetries: 0, timeout: 50, fetch: slow });
    const error = await openAIChatModel({ model: 'm', client }).call(request).catch((e) => e);
    expect(error).toBeInstanceOf(ModelCallError);
    expect(error.options.retryable).toBe(true);
  });
});

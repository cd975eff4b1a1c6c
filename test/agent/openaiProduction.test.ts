/** openAIChatModel in the real loop against a fetch double: what production endpoints send that a scripted model never does. */
import OpenAI from 'openai';
import { afterAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { openAIChatModel, type OpenAIChatOptions } from '../../src/agent/openaiChat.js';
import { runAgentLoop } from '../../src/agent/run.js';
import type { AgentLoopOptions } from '../../src/agent/types.js';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { loadScenarioFile } from '../../src/scenario/load.js';
import { startServer, type RunningServer } from '../../src/serve/index.js';
import { MINI } from '../helpers.js';

interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** A client whose every request gets the next reply (the last one repeats); `times` keeps each request's virtual time. */
function clientAnswering(replies: Reply[], clock?: VirtualClock, times: number[] = []): OpenAI {
  let n = 0;
  const fetchDouble: typeof fetch = async () => {
    times.push(clock?.now() ?? 0);
    const reply = replies[Math.min(n++, replies.length - 1)]!;
    return new Response(JSON.stringify(reply.body), { status: reply.status, headers: { 'content-type': 'application/json', ...reply.headers } });
  };
  return new OpenAI({ apiKey: 'k', baseURL: 'http://127.0.0.1:9/v1', maxRetries: 0, fetch: fetchDouble });
}

const completion = (message: object, finish: string) => ({
  id: 'x',
  object: 'chat.completion',
  created: 0,
  model: 'gpt-4o-mini',
  choices: [{ index: 0, message: { role: 'assistant', refusal: null, ...message }, finish_reason: finish }],
  usage: { prompt_tokens: 100, completion_tokens: 0, total_tokens: 100 },
});

function loopOptions(model: OpenAIChatOptions, brakes: Partial<BrakeConfig>, clock = new VirtualClock()): AgentLoopOptions {
  return {
    model: openAIChatModel(model),
    tools: [],
    brakes: { ...NO_BRAKES, ...brakes },
    context: { system: 's', goal: 'g', countTokens: () => 1 },
    pricing: { ...MINI, requested: model.model },
    clock,
    retry: { maxRetries: 3, backoffMs: (attempt) => 500 * 2 ** (attempt - 1) },
  };
}

describe('openAIChatModel: finish reasons', () => {
  it('a content filter that withholds the answer is no final answer: an unusable step, the run goes on to its step cap', async () => {
    const client = clientAnswering([{ status: 200, body: completion({ content: null }, 'content_filter') }]);
    const run = await runAgentLoop(loopOptions({ model: 'gpt-4o-mini', client }, { maxSteps: 3 }));
    expect(run.stop.reason).toBe('max_steps');
    expect([run.steps, run.calls, run.finalText]).toEqual([3, 3, null]);
  });

  it('a content filter that withholds the answer after a usable one: the filtered step is not the answer', async () => {
    const client = clientAnswering([
      { status: 200, body: completion({ content: null }, 'content_filter') },
      { status: 200, body: completion({ content: 'done' }, 'stop') },
    ]);
    const run = await runAgentLoop(loopOptions({ model: 'gpt-4o-mini', client }, { maxSteps: 5 }));
    expect(run.stop).toEqual({ reason: 'completed', detail: 'final answer after 2 steps' });
    expect(run.finalText).toBe('done');
  });

  it("a refusal is the model's answer: the run completes with the refusal's words as its final text", async () => {
    const client = clientAnswering([{ status: 200, body: completion({ content: null, refusal: 'I cannot help with that.' }, 'stop') }]);
    const run = await runAgentLoop(loopOptions({ model: 'gpt-4o-mini', client }, { maxSteps: 5 }));
    expect(run.stop).toEqual({ reason: 'completed', detail: 'final answer after 1 step' });
    expect(run.finalText).toBe('I cannot help with that.');
  });
});

describe('openAIChatModel: headers', () => {
  const servers: RunningServer[] = [];
  afterAll(() => Promise.all(servers.map((server) => server.close())));

  it('sends `headers` on every request: a `loopcost serve` session named by x-loopcost-session, whatever the conversation', async () => {
    const server = await startServer({ sources: { scenario: { scenario: loadScenarioFile('scenarios/weekly-report.yaml') } }, prices: loadPriceTable() });
    servers.push(server);
    const model = openAIChatModel({ model: 'gpt-4o-mini', baseURL: `${server.url}/v1`, apiKey: 'k', headers: { 'x-loopcost-session': 'named-by-header' } });
    const messages = [
      { role: 'system' as const, content: 'You write.' },
      { role: 'user' as const, content: 'Report.' },
    ];
    await model.call({ messages, tools: [], maxOutputTokens: 500 });
    await model.call({ messages: [{ role: 'system', content: 'other' }, { role: 'user', content: 'conversation' }], tools: [], maxOutputTokens: 500 });
    const sessions = server.sessions().sessions;
    expect(sessions.map((s) => [s.id, s.calls])).toEqual([['named-by-header', 2]]);
  });

  it('merges `headers` with the summary mark on a client of your own', async () => {
    const seen: Headers[] = [];
    const fetchDouble: typeof fetch = async (_url, init) => {
      seen.push(new Headers(init?.headers));
      return new Response(JSON.stringify(completion({ content: 'short' }, 'stop')), { status: 200, headers: { 'content-type': 'application/json' } });
    };
    const client = new OpenAI({ apiKey: 'k', baseURL: 'http://127.0.0.1:9/v1', maxRetries: 0, fetch: fetchDouble });
    const model = openAIChatModel({ model: 'm', client, headers: { 'x-loopcost-session': 's1' } });
    await model.call({ messages: [{ role: 'user', content: 'g' }], tools: [], maxOutputTokens: 10, purpose: 'summary' });
    await model.call({ messages: [{ role: 'user', content: 'g' }], tools: [], maxOutputTokens: 10 });
    expect(seen.map((h) => [h.get('x-loopcost-session'), h.get('x-loopcost-purpose')])).toEqual([
      ['s1', 'summary'],
      ['s1', null],
    ]);
  });
});

describe('openAIChatModel: a 429 that says when to retry', () => {
  const limited = (headers: Record<string, string>): Reply => ({ status: 429, body: { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } }, headers });
  /** The virtual times the attempts were made at, the loop's back-off 500, 1000, 2000 ms. */
  async function attemptTimes(reply: Reply): Promise<{ times: number[]; detail: string }> {
    const clock = new VirtualClock();
    const times: number[] = [];
    const client = clientAnswering([reply], clock, times);
    const run = await runAgentLoop(loopOptions({ model: 'gpt-4o-mini', client }, { maxSteps: 5 }, clock));
    return { times, detail: run.stop.detail };
  }

  it('retry-after: 5 → each retry waits 5 s, not the shorter back-off (p12)', async () => {
    const { times, detail } = await attemptTimes(limited({ 'retry-after': '5' }));
    expect(times).toEqual([0, 5000, 10_000, 15_000]);
    expect(detail).toMatch(/gave up after 3 retries/);
  });

  it('retry-after-ms wins over retry-after; a back-off longer than the ask is kept', async () => {
    expect((await attemptTimes(limited({ 'retry-after-ms': '1500', 'retry-after': '9' }))).times).toEqual([0, 1500, 3000, 5000]);
  });

  it('retry-after as an HTTP date, read against the response’s own date', async () => {
    const { times } = await attemptTimes(limited({ date: 'Sun, 06 Dec 2026 05:00:00 GMT', 'retry-after': 'Sun, 06 Dec 2026 05:00:07 GMT' }));
    expect(times).toEqual([0, 7000, 14_000, 21_000]);
  });

  it('an ask past 60 s is waited 60 s (MAX_RETRY_AFTER_MS); nonsense is ignored', async () => {
    expect((await attemptTimes(limited({ 'retry-after': '3600' }))).times).toEqual([0, 60_000, 120_000, 180_000]);
    expect((await attemptTimes(limited({ 'retry-after': 'soon' }))).times).toEqual([0, 500, 1500, 3500]);
  });
});

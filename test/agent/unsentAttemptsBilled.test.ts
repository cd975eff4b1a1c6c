/**
 * What a failed attempt that received no response is billed (user review, round 31). The rule
 * (failedCalls.ts, providerSetup.ts mayHaveBeenSent): an attempt that never reached the provider is billed
 * nothing, as the provider bills nothing; one sent whose response was never read (a timeout, a connection
 * made and then lost) is billed at the loop's prompt estimate, marked `estimated`; a response received with
 * an error status is billed as the provider bills it (its usage, else nothing). Before, a `fetch` of the
 * user's own that threw ('proxy down') was billed at the estimate on each attempt (4 attempts, 20,000,000
 * pico for gpt-4o) while ECONNREFUSED was billed $0, as was a TLS handshake that failed at the estimate.
 */
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { openAIChatModel } from '../../src/agent/openaiChat.js';
import { memoryRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { MINI } from '../helpers.js';
import { closedPort, unhandledRejections } from './netDoubles.js';

const unhandled = unhandledRejections();
afterEach(() => expect(unhandled.reasons).toEqual([]));


/** A prompt the loop's counter sizes at 1,000 tokens (system 999 characters + goal 1), priced $0.15 a million. */
const PROMPT_ESTIMATE_PICO = 1000 * 150_000;

/** A run through an SDK client (`fetch` its own when given), 3 retries without waits; its figures and recorded calls. */
async function runThrough(options: { baseURL?: string; fetch?: typeof fetch }) {
  const client = new OpenAI({ apiKey: 'k', baseURL: options.baseURL ?? 'http://127.0.0.1:9/v1', maxRetries: 0, ...(options.fetch ? { fetch: options.fetch } : {}) });
  const recorder = memoryRecorder();
  const run = await runAgentLoop({
    model: openAIChatModel({ model: 'gpt-4o-mini', client }),
    tools: [],
    brakes: { maxSteps: 10 },
    context: { system: 'x'.repeat(999), goal: 'g', countTokens: (text) => text.length },
    pricing: { ...MINI, requested: 'gpt-4o-mini' },
    clock: new VirtualClock(),
    retry: { maxRetries: 3, backoffMs: () => 0 },
    recorder,
  });
  await new Promise((resolve) => setTimeout(resolve, 20));
  return { run, calls: recorder.trace().calls };
}

const throwing = (error: unknown): typeof fetch => async () => Promise.reject(error);
const networkError = (code: string) => new TypeError('fetch failed', { cause: Object.assign(new Error(`${code} (test)`), { code }) });

describe('an attempt that never reached the provider: billed nothing, whatever said so', () => {
  it("a fetch of the user's own that throws ('proxy down') is billed as ECONNREFUSED is: $0 on each of the 4 attempts, none estimated", async () => {
    const proxyDown = await runThrough({ fetch: throwing(new Error('proxy down')) });
    const refused = await runThrough({ baseURL: `http://127.0.0.1:${await closedPort()}/v1` });
    for (const { run, calls } of [proxyDown, refused]) {
      expect([run.stop.reason, run.calls, run.failedCalls, run.costPico]).toEqual(['trace_end', 4, 4, 0]);
      expect(calls.map((call) => [call.inputTokens, call.failed?.estimated])).toEqual(Array(4).fill([undefined, undefined]));
      expect(run.stop.detail).toMatch(/^model call failed: Connection error\. .*gave up after 3 retries$/);
    }
    expect(proxyDown.run.stop.detail).toContain('proxy down');
    expect(refused.run.stop.detail).toContain('ECONNREFUSED');
  });

  it('a fetch that throws synchronously, and a TLS handshake that failed (CERT_HAS_EXPIRED): $0', async () => {
    const sync: typeof fetch = () => {
      throw new TypeError('bad');
    };
    for (const fetch of [sync, throwing(networkError('CERT_HAS_EXPIRED'))]) {
      const { run, calls } = await runThrough({ fetch });
      expect([run.failedCalls, run.costPico, calls.some((call) => call.failed?.estimated)]).toEqual([4, 0, false]);
    }
  });
});

describe('an attempt sent and never read, and a response with an error status: as before', () => {
  it('a connection made and then lost (ECONNRESET, a socket closed) and a timeout: each attempt billed at the prompt estimate, estimated', async () => {
    for (const error of [networkError('ECONNRESET'), networkError('UND_ERR_SOCKET'), new Error('Request timed out')]) {
      const { run, calls } = await runThrough({ fetch: throwing(error) });
      expect([run.failedCalls, run.costPico]).toEqual([4, 4 * PROMPT_ESTIMATE_PICO]);
      expect(calls.map((call) => [call.inputTokens, call.failed?.estimated])).toEqual(Array(4).fill([1000, true]));
    }
  });

  it('a 500 the provider answered without usage: billed nothing, not estimated', async () => {
    const answer500: typeof fetch = async () => new Response(JSON.stringify({ error: { message: 'boom', type: 'server_error' } }), { status: 500, headers: { 'content-type': 'application/json' } });
    const { run, calls } = await runThrough({ fetch: answer500 });
    expect([run.failedCalls, run.costPico]).toEqual([4, 0]);
    expect(calls.map((call) => [call.failed?.status, call.failed?.estimated])).toEqual(Array(4).fill([500, undefined]));
  });
});

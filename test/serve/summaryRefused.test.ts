/**
 * `serve` refuses a summary call (`x-loopcost-purpose: summary`) as a provider refuses any request: its
 * prompt + the max_tokens it asks for past the model's window is a 400 `context_length_exceeded`, billed
 * nothing; and the real loop that sent it ends provider_refused at its summary call, with serve's numbers,
 * its stop in the session's summary (GET /loopcost/sessions, the end route) as the CLI says it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { openAIChatModel } from '../../src/agent/openaiChat.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { defineTool } from '../../src/agent/tools.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import type { RunningServer } from '../../src/serve/index.js';
import { serveClient } from '../agent/serveClient.js';
import { expectOpenAiError, post } from './client.js';
import { startSmallWindow, tinyPricing } from './smallWindow.js';

const WINDOW = 1500;
const pricing = tinyPricing(WINDOW);
let server: RunningServer;

beforeAll(async () => {
  server = await startSmallWindow(pricing, 8);
});
afterAll(() => server.close());

const SUMMARY = { 'x-loopcost-purpose': 'summary' };
const messages = [{ role: 'user', content: 'word '.repeat(400) }];

describe('serve: a summary call past the window', () => {
  it('is refused as any call is (400 context_length_exceeded, billed nothing); within the window it is answered', async () => {
    const fits = await post(server.url, { model: 'tiny', messages, max_tokens: 100 }, { 'x-loopcost-session': 'fits', 'x-loopcost-run': '1', ...SUMMARY });
    expect(fits.status).toBe(200);
    const prompt = fits.json.usage.prompt_tokens as number;
    expect(prompt).toBeGreaterThan(300);
    const past = await post(server.url, { model: 'tiny', messages, max_tokens: WINDOW - prompt + 1 }, { 'x-loopcost-session': 'past', 'x-loopcost-run': '1', ...SUMMARY });
    expect(past.status).toBe(400);
    expectOpenAiError(past);
    expect(past.json.error.code).toBe('context_length_exceeded');
    expect(past.json.error.message).toContain(`maximum context length is ${WINDOW} tokens. However, you requested ${WINDOW + 1} tokens (${prompt} in the messages, ${WINDOW - prompt + 1} in the completion)`);
    const session = server.sessions().sessions.find((s) => s.id === 'past')!;
    expect([session.calls, session.failedCalls, session.costPico]).toEqual([1, 1, '0']);
  });

  it('the real loop over HTTP ends provider_refused at its summary call, with the numbers serve counted', async () => {
    const { client } = serveClient(server, { session: 'loop' });
    const http = openAIChatModel({ model: 'tiny', client });
    const tool = defineTool<Record<string, unknown>>({ name: 'run', description: 'run', parameters: { type: 'object' }, run: () => `out: ${'lorem ipsum '.repeat(40)}` });
    // Agent calls ask for 100 tokens (they fit); a summary asks for 1,400: with any prompt past the trigger, past the window.
    const result = await runAgentLoop({
      model: http,
      tools: [tool],
      brakes: { ...NO_BRAKES, maxOutputTokens: 100 },
      unbounded: true,
      context: { system: 'You run things.', goal: 'Run them.', strategy: { kind: 'summary', summary: { triggerTokens: 300, keepSteps: 1, summaryTokens: 1400 } } },
      pricing,
      clock: new VirtualClock(),
    });
    expect(result.stop.reason).toBe('provider_refused');
    expect(result.stop.detail).toMatch(new RegExp(`^the provider refused the summary call: prompt of \\d+ tokens \\+ max_tokens 1400 > context window ${WINDOW}$`));
    const served = server.sessions().sessions.find((s) => s.id === 'loop')!;
    expect([result.calls, result.failedCalls, result.summaryCalls ?? 0, String(result.costPico)]).toEqual([served.calls, 1, 0, served.costPico]);
    // The session's summary, listed and as the end route answers it: the run's stop, word for word.
    expect(served.stop).toEqual(result.stop);
    const ended = await fetch(`${server.url}/loopcost/sessions/loop/end`, { method: 'POST' });
    expect(ended.status).toBe(200);
    expect(((await ended.json()) as { stop?: unknown }).stop).toEqual(result.stop);
  });
});

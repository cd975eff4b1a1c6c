/**
 * A summary call sent to another model (`summary:…,model=X`: the real loop names X in the request's
 * `model`) is answered by X, as replay answers it (kernel/providerWindow.ts, loop/summary.ts): refused at
 * X's window, billed at X's prices. A request naming the session's model, or a model the price table does
 * not know, is answered by the session's model, as every other request is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { openAIChatModel } from '../../src/agent/openaiChat.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { defineTool } from '../../src/agent/tools.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { usdPerMillionToPico } from '../../src/money.js';
import { parseScenario } from '../../src/scenario/load.js';
import { startServer, type RunningServer } from '../../src/serve/index.js';
import { serveClient } from '../agent/serveClient.js';
import { handPriced, handTable } from '../helpers.js';
import { expectOpenAiError, post } from './client.js';
import { smallWindowScenario, tinyPricing } from './smallWindow.js';

const WINDOW = 1500;
const tiny = tinyPricing(WINDOW);
/** A summary model with a smaller window than the session's, and one with a larger window and other prices. */
const cramped = handPriced('cramped', { input: 3, output: 6 }, 600);
const roomy = handPriced('roomy', { input: 5, output: 10 }, 100_000);
let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ sources: { scenario: { scenario: parseScenario(smallWindowScenario(8), 'small.yaml') } }, prices: handTable(tiny, cramped, roomy) });
});
afterAll(() => server.close());

const messages = [{ role: 'user', content: 'word '.repeat(400) }];
let sessions = 0;
/** A summary call of a new session, to `model`, asking for `maxTokens`. */
const summary = (model: string, maxTokens: number) => post(server.url, { model, messages, max_tokens: maxTokens }, { 'x-loopcost-session': `s${++sessions}`, 'x-loopcost-run': '1', 'x-loopcost-purpose': 'summary' });
const served = (answer: { headers: Headers }) => server.sessions().sessions.find((s) => s.id === answer.headers.get('x-loopcost-session'))!;

describe('serve: a summary call is answered by the model it names', () => {
  it("a summary model with a smaller window refuses it at that window, though it fits the session's", async () => {
    const fits = await summary('tiny', 300);
    expect(fits.status).toBe(200);
    const prompt = fits.json.usage.prompt_tokens as number;
    expect(prompt + 300).toBeLessThanOrEqual(WINDOW);
    expect(prompt + 300).toBeGreaterThan(600);
    const refused = await summary('cramped', 300);
    expect(refused.status).toBe(400);
    expectOpenAiError(refused);
    expect(refused.json.error.code).toBe('context_length_exceeded');
    expect(refused.json.error.message).toContain(`maximum context length is 600 tokens. However, you requested ${prompt + 300} tokens (${prompt} in the messages, 300 in the completion)`);
    expect([served(refused).calls, served(refused).failedCalls, served(refused).costPico]).toEqual([1, 1, '0']);
  });

  it("a summary model with a larger window answers it past the session's window, billed at its own prices", async () => {
    const past = await summary('tiny', WINDOW);
    expect(past.status).toBe(400);
    expect(past.json.error.message).toContain(`maximum context length is ${WINDOW} tokens`);
    const answered = await summary('roomy', WINDOW);
    expect(answered.status).toBe(200);
    expect(answered.json.model).toBe('roomy');
    const { prompt_tokens: input, completion_tokens: output } = answered.json.usage;
    expect(output).toBe(WINDOW);
    const pico = input * usdPerMillionToPico(5) + output * usdPerMillionToPico(10);
    expect(answered.json.loopcost.costPico).toBe(String(pico));
    expect(served(answered).costPico).toBe(String(pico));
  });

  it("a request naming the session's model, or one the price table does not know, is answered by the session's model", async () => {
    for (const model of ['tiny', 'no-such-model']) {
      const past = await summary(model, WINDOW);
      expect([past.status, past.json.error.code]).toEqual([400, 'context_length_exceeded']);
      expect(past.json.error.message).toContain(`maximum context length is ${WINDOW} tokens`);
      const fits = await summary(model, 100);
      expect(fits.status).toBe(200);
      expect(fits.json.model).toBe('tiny');
      expect(fits.json.loopcost.costPico).toBe(String(fits.json.usage.prompt_tokens * usdPerMillionToPico(1) + 100 * usdPerMillionToPico(2)));
    }
  });

  it("a client that names one model for every call (a known one, not the session's) has its summary calls answered by the session's model", async () => {
    const headers = { 'x-loopcost-session': 'one-name', 'x-loopcost-run': '1' };
    expect((await post(server.url, { model: 'roomy', messages: [{ role: 'user', content: 'go' }] }, headers)).status).toBe(200);
    const past = await post(server.url, { model: 'roomy', messages, max_tokens: WINDOW }, { ...headers, 'x-loopcost-purpose': 'summary' });
    expect([past.status, past.json.error.code]).toEqual([400, 'context_length_exceeded']);
    expect(past.json.error.message).toContain(`maximum context length is ${WINDOW} tokens`);
  });

  it('the real loop with summary:…,model=roomy bills what serve bills, to the picodollar', async () => {
    const { client } = serveClient(server, { session: 'loop' });
    const http = openAIChatModel({ model: 'tiny', client });
    const tool = defineTool<Record<string, unknown>>({ name: 'run', description: 'run', parameters: { type: 'object' }, run: () => `out: ${'lorem ipsum '.repeat(40)}` });
    const run = await runAgentLoop({
      model: http,
      tools: [tool],
      brakes: { ...NO_BRAKES, maxOutputTokens: 100 },
      unbounded: true,
      context: { system: 'You run things.', goal: 'Run them.', strategy: { kind: 'summary', summary: { triggerTokens: 300, keepSteps: 1, summaryTokens: 200, model: 'roomy' } } },
      pricing: tiny,
      summaryPricing: roomy,
      clock: new VirtualClock(),
    });
    expect(run.stop.reason).toBe('completed');
    expect(run.summaryCalls).toBeGreaterThan(1);
    const session = server.sessions().sessions.find((s) => s.id === 'loop')!;
    // Its summary calls among its calls, in the run as in serve's session.
    expect([session.calls, session.costPico]).toEqual([run.calls, String(run.costPico)]);
  });
});

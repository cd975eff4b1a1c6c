/**
 * `serve` refuses a request it would otherwise answer wrongly, with a 400 naming the header or field and
 * starting no session: an `x-loopcost-purpose` it does not know (it was answered as an ordinary call), a
 * summary call without an output cap (it was answered and billed as 0 output tokens), `x-loopcost-trace`
 * on a server of a scenario and `x-loopcost-run` on one of traces (each ignored there), and
 * `max_tokens` and `max_completion_tokens` that differ (which a provider obeys differs).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTraceFile } from '../../src/import/index.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { parseScenario } from '../../src/scenario/load.js';
import { startServer, type RunningServer } from '../../src/serve/index.js';
import type { Trace } from '../../src/trace/types.js';
import { expectOpenAiError, get, post } from './client.js';

const SCENARIO = parseScenario(
  ['scenario: loopcost.scenario/1', 'name: healthy', 'model: gpt-4o-mini', 'systemTokens: 100', 'population:', '  - behaviour: healthy', '    weight: 1', '    steps: 3', '    outputTokens: 40', '    toolResultTokens: 20', ''].join('\n'),
  'healthy.yaml',
);
const REAL_RUN = '../shared/traces/cassettes/models__test_deepseek__test_deepseek_deferred_capability_with_thinking.yaml';

let traces: RunningServer;
let scenario: RunningServer;

beforeAll(async () => {
  const [trace] = (await loadTraceFile(REAL_RUN)) as [Trace];
  traces = await startServer({ sources: { traces: [trace] }, prices: loadPriceTable(), port: 0 });
  scenario = await startServer({ sources: { scenario: { scenario: SCENARIO } }, prices: loadPriceTable(), port: 0 });
});
afterAll(async () => {
  await traces.close();
  await scenario.close();
});

const BODY = { model: 'any', messages: [{ role: 'user', content: 'go' }] };

async function refused(server: RunningServer, body: Record<string, unknown>, headers: Record<string, string>, param: string, message: RegExp) {
  const answer = await post(server.url, body, headers);
  expectOpenAiError(answer);
  expect(answer.status, JSON.stringify(answer.json)).toBe(400);
  expect(answer.json.error.param).toBe(param);
  expect(answer.json.error.message).toMatch(message);
  expect(answer.headers.get('x-should-retry')).toBe('false');
}

describe('serve refuses what it would answer wrongly', () => {
  it('an unknown x-loopcost-purpose: 400 naming the header and the purposes it takes; no session started', async () => {
    const before = (await get(traces.url, '/loopcost/sessions')).json.totals.sessions;
    await refused(traces, { ...BODY, max_tokens: 50 }, { 'x-loopcost-session': 'p1', 'x-loopcost-purpose': 'bogus' }, 'x-loopcost-purpose', /x-loopcost-purpose: 'bogus' is not a purpose loopcost serve knows \(it takes summary/);
    expect((await get(traces.url, '/loopcost/sessions')).json.totals.sessions).toBe(before);
  });

  it('a summary call with no output cap: 400 naming max_completion_tokens (it was billed 0 output tokens)', async () => {
    await refused(scenario, BODY, { 'x-loopcost-session': 's1', 'x-loopcost-purpose': 'summary' }, 'max_completion_tokens', /summary: the request sends no max_completion_tokens \(or max_tokens\)/);
    const capped = await post(scenario.url, { ...BODY, max_tokens: 30 }, { 'x-loopcost-session': 's1', 'x-loopcost-purpose': 'summary' });
    expect(capped.status).toBe(200);
    expect(capped.json.usage.completion_tokens).toBe(30);
  });

  it('x-loopcost-trace on a server of a scenario, x-loopcost-run on one of traces: 400 naming the header', async () => {
    await refused(scenario, BODY, { 'x-loopcost-trace': '0' }, 'x-loopcost-trace', /x-loopcost-trace: '0' has no effect: this server answers from a scenario file/);
    await refused(traces, BODY, { 'x-loopcost-run': '0' }, 'x-loopcost-run', /x-loopcost-run: '0' has no effect: this server answers from recorded traces/);
    expect((await post(traces.url, BODY, { 'x-loopcost-trace': '0' })).status).toBe(200);
    expect((await post(scenario.url, BODY, { 'x-loopcost-run': '2' })).status).toBe(200);
  });

  it('max_tokens and max_completion_tokens that differ: 400 naming max_tokens; the same value in both is taken', async () => {
    await refused(traces, { ...BODY, max_tokens: 10, max_completion_tokens: 20 }, { 'x-loopcost-session': 'c1' }, 'max_tokens', /max_tokens: is 10, but max_completion_tokens is 20: send one output cap/);
    const same = await post(traces.url, { ...BODY, max_tokens: 20, max_completion_tokens: 20 }, { 'x-loopcost-session': 'c2' });
    expect(same.status).toBe(200);
    expect(same.json.usage.completion_tokens).toBe(20);
  });
});

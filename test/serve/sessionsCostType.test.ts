/**
 * Every picodollar figure serve writes is one type, a string of digits: `GET /loopcost/sessions` (each
 * session's `costPico` as the totals': a total over sessions can pass 2^53, where a JSON number is no longer
 * exact), the end route's summary, and each answer's `loopcost.costPico` — non-streaming, in the streamed
 * usage chunk, and in `error.loopcost` of a recorded failure. (Before, an answer's was a JSON number.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPriceTable } from '../../src/pricing/index.js';
import { parseScenario } from '../../src/scenario/load.js';
import { startServer, type RunningServer } from '../../src/serve/index.js';
import { call, handPriced, handTable, trace } from '../helpers.js';
import { get, post, sseData } from './client.js';

const scenario = parseScenario(
  `
scenario: loopcost.scenario/1
model: gpt-4o-mini
systemTokens: 100
hardCapSteps: 30
population:
  - behaviour: healthy
    weight: 1
    steps: 4
    outputTokens: 40
    toolResultTokens: 20
`,
  'healthy.yaml',
);
let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ sources: { scenario: { scenario } }, prices: loadPriceTable(), port: 0 });
});
afterAll(() => server.close());

const ask = (session: string) => post(server.url, { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'go' }] }, { 'x-loopcost-session': session });

describe('serve: costPico in every output', () => {
  it('is a string of digits per session, as in the totals, and they add up exactly', async () => {
    const billed: unknown[] = [(await ask('a')).json.loopcost.costPico, (await ask('a')).json.loopcost.costPico, (await ask('b')).json.loopcost.costPico];
    expect(billed.every((pico) => typeof pico === 'string' && /^[1-9][0-9]*$/.test(pico))).toBe(true);
    const [a1, a2, b1] = billed.map((pico) => BigInt(pico as string));
    const report = (await get(server.url, '/loopcost/sessions')).json;
    const costs = report.sessions.map((s: { costPico: unknown }) => s.costPico);
    expect(costs).toEqual([String(a1! + a2!), String(b1)]);
    expect(typeof report.totals.costPico).toBe('string');
    expect(report.totals.costPico).toBe(String(a1! + a2! + b1!));
    // The library's report is the same JSON.
    expect(JSON.parse(JSON.stringify(server.sessions()))).toEqual(report);
    const ended = await fetch(`${server.url}/loopcost/sessions/b/end`, { method: 'POST' });
    expect(((await ended.json()) as { costPico: unknown }).costPico).toBe(String(billed[2]));
  });

  it('is a string of digits in a streamed answer\'s usage chunk and in error.loopcost of a recorded failure', async () => {
    const pricing = handPriced('m', { input: 3, output: 15 });
    const failing = { ...trace([call(40, undefined, { inputTokens: 900 }), call(0, undefined, { inputTokens: 1_000, failed: { status: 529, message: 'overloaded' } })], { model: 'm', origin: 'recorded' }), source: 'failing' };
    const recorded = await startServer({ sources: { traces: [failing] }, prices: handTable(pricing), port: 0 });
    try {
      const go = (extra: Record<string, unknown>) => post(recorded.url, { model: 'm', messages: [{ role: 'user', content: 'go' }], ...extra }, { 'x-loopcost-session': 's' });
      const streamed = JSON.parse(sseData((await go({ stream: true, stream_options: { include_usage: true } })).json as string).at(-2)!);
      expect(streamed.loopcost.costPico).toBe(String(900 * 3_000_000 + 40 * 15_000_000));
      const failed = await go({});
      expect(failed.status).toBe(529);
      expect(failed.json.error.loopcost.costPico).toBe(String(1_000 * 3_000_000));
      expect(failed.json.loopcost.costPico).toBe(String(1_000 * 3_000_000));
    } finally {
      await recorded.close();
    }
  });
});

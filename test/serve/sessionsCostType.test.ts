/**
 * `GET /loopcost/sessions`: every picodollar figure is one type, a string of digits — each session's
 * `costPico` as the totals' (a total over sessions can pass 2^53, where a JSON number is no longer exact).
 * The end route answers with the same summary.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPriceTable } from '../../src/pricing/index.js';
import { parseScenario } from '../../src/scenario/load.js';
import { startServer, type RunningServer } from '../../src/serve/index.js';
import { get, post } from './client.js';

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

describe('serve: costPico in /loopcost/sessions', () => {
  it('is a string of digits per session, as in the totals, and they add up exactly', async () => {
    const billed = [(await ask('a')).json.loopcost.costPico, (await ask('a')).json.loopcost.costPico, (await ask('b')).json.loopcost.costPico];
    expect(billed.every((pico) => pico > 0)).toBe(true);
    const report = (await get(server.url, '/loopcost/sessions')).json;
    const costs = report.sessions.map((s: { costPico: unknown }) => s.costPico);
    expect(costs).toEqual([String(billed[0] + billed[1]), String(billed[2])]);
    expect(typeof report.totals.costPico).toBe('string');
    expect(report.totals.costPico).toBe(String(billed[0] + billed[1] + billed[2]));
    // The library's report is the same JSON.
    expect(JSON.parse(JSON.stringify(server.sessions()))).toEqual(report);
    const ended = await fetch(`${server.url}/loopcost/sessions/b/end`, { method: 'POST' });
    expect(((await ended.json()) as { costPico: unknown }).costPico).toBe(String(billed[2]));
  });
});

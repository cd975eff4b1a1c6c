/** `/loopcost/sessions` says a synthetic agent has ended as soon as it gives its final answer, not only after a 409. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPriceTable } from '../../src/pricing/index.js';
import { parseScenario } from '../../src/scenario/load.js';
import { startServer, type RunningServer } from '../../src/serve/index.js';
import { get, post } from './client.js';

const SCENARIO = `
scenario: loopcost.scenario/1
name: three steps
model: gpt-4o-mini
provider: openai
systemTokens: 100
population:
  - behaviour: healthy
    weight: 1
    steps: 3
    outputTokens: 40
    toolResultTokens: 20
`;
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ sources: { scenario: { scenario: parseScenario(SCENARIO, 'three.yaml') } }, prices: loadPriceTable() });
});
afterAll(() => server.close());

const ended = async () => (await get(server.url, '/loopcost/sessions')).json.sessions[0].ended;

describe('serve: a synthetic session ends with its final answer', () => {
  it('is not ended while the agent works, ended once it answers, and the next call is a 409', async () => {
    const messages: unknown[] = [{ role: 'user', content: 'work' }];
    const states: boolean[] = [];
    for (;;) {
      const answer = await post(server.url, { model: 'gpt-4o-mini', messages }, { 'x-loopcost-session': 'agent' });
      expect(answer.status).toBe(200);
      states.push(await ended());
      const message = answer.json.choices[0].message;
      if (answer.json.loopcost.record.final) break;
      messages.push(message, ...message.tool_calls.map((call: { id: string }) => ({ role: 'tool', tool_call_id: call.id, content: 'ok' })));
    }
    expect(states).toEqual([false, false, true]);
    const after = await post(server.url, { model: 'gpt-4o-mini', messages }, { 'x-loopcost-session': 'agent' });
    expect([after.status, after.json.error.code]).toEqual([409, 'loopcost_agent_ended']);
    expect(await ended()).toBe(true);
  });
});

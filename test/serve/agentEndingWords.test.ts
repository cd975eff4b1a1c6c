/**
 * A synthetic agent's ending is worded once (src/synthetic/endingWords.ts): the 409 serve answers past a
 * synthetic session's end says why in the words the simulated run of the same scenario run gives as its
 * `trace_end` detail — the hard cap of steps (named), its provider failing the last call, a run cut off.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { loadPriceTable } from '../../src/pricing/index.js';
import { parseScenario } from '../../src/scenario/load.js';
import { runScenario } from '../../src/scenario/run.js';
import { startServer, type RunningServer } from '../../src/serve/index.js';
import { endingsScenario } from './endingsScenario.js';
import { post, type Answer } from './client.js';

const PRICES = loadPriceTable();
const servers: RunningServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

const scenarioText = endingsScenario;

/** Calls the session as a loop with no brakes does (a failed call sent again) until serve answers 409. */
async function toTheEnd(url: string): Promise<Answer> {
  const messages: unknown[] = [{ role: 'user', content: 'work' }];
  for (let call = 0; call < 20; call++) {
    const answer = await post(url, { model: 'gpt-4o-mini', messages }, { 'x-loopcost-session': 'agent' });
    if (answer.status === 409) return answer;
    if (answer.status !== 200) continue;
    const message = answer.json.choices[0].message;
    messages.push(message, ...(message.tool_calls ?? []).map((c: { id: string }) => ({ role: 'tool', tool_call_id: c.id, content: 'ok' })));
  }
  throw new Error('no 409 in 20 calls');
}

describe('serve: the 409 past a synthetic agent’s end says why as the simulated run does', () => {
  it.each([
    ['hard cap', 3, 'answer', 'hard_cap', 'no brake stopped it: the synthetic agent reached the hard cap of 3 steps'],
    ['provider error', 60, 'provider-error', 'provider_error', 'the provider failed the last call (synthetic)'],
    ['cut off', 60, 'cut-off', 'cut_off', 'the synthetic run was cut off after its last step, unanswered'],
  ] as const)('%s', async (_name, hardCapSteps, ending, agentEnding, words) => {
    const scenario = parseScenario(scenarioText(hardCapSteps, ending), 'endings.yaml');
    const [simulated] = runScenario(scenario, { prices: PRICES, runs: 1 });
    expect([simulated!.stopReason, simulated!.stopDetail]).toEqual(['trace_end', words]);

    const server = await startServer({ sources: { scenario: { scenario } }, prices: PRICES });
    servers.push(server);
    const ended = await toTheEnd(server.url);
    expect(ended.json.error.code).toBe('loopcost_agent_ended');
    expect(ended.json.error.loopcost.agentEnding).toBe(agentEnding);
    expect(ended.json.error.message).toBe(`session agent (endings.yaml#1) has ended: ${words}; start a new session`);
  });
});

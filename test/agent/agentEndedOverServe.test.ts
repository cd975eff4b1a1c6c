/**
 * The real loop → openAIChatModel → `loopcost serve` answering as a synthetic agent: past the agent's end
 * (serve's 409 loopcost_agent_ended) the run stops trace_end saying why in the simulated run's own words
 * (p10: it said "recorded trace ended without completing", of a trace there never was).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { openAIChatModel } from '../../src/agent/openaiChat.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { defineTool } from '../../src/agent/tools.js';
import { ModelExhausted } from '../../src/agent/types.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { parseScenario } from '../../src/scenario/load.js';
import { runScenario } from '../../src/scenario/run.js';
import { startServer, type RunningServer } from '../../src/serve/index.js';
import { endingsScenario } from '../serve/endingsScenario.js';

const PRICES = loadPriceTable();
const servers: RunningServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

const scenarioText = endingsScenario;

const tools = ['run', 'work', 'read_log', 'web_search', 'judge_sources', 'write_section', 'send_message', 'tool', 'search', 'ask_user'].map((name) =>
  defineTool({ name, description: name, parameters: { type: 'object' }, run: () => 'ok' }),
);

describe('a synthetic agent served by loopcost serve, run to its end by the real loop', () => {
  it.each([
    ['hard cap', 3, 'answer'],
    ['cut off', 60, 'cut-off'],
  ] as const)('%s: the stop is the simulated run’s, trace_end with its detail', async (_name, hardCapSteps, ending) => {
    const scenario = parseScenario(scenarioText(hardCapSteps, ending), 'endings.yaml');
    const [simulated] = runScenario(scenario, { prices: PRICES, runs: 1 });
    const server = await startServer({ sources: { scenario: { scenario } }, prices: PRICES });
    servers.push(server);
    const model = openAIChatModel({ model: 'gpt-4o-mini', baseURL: `${server.url}/v1`, apiKey: 'k', headers: { 'x-loopcost-session': 'agent' } });
    const run = await runAgentLoop({ model, tools, brakes: { ...NO_BRAKES, maxSteps: 30 }, context: { system: 'You are an agent.', goal: 'Do the task.' }, pricing: PRICES.resolve('gpt-4o-mini'), retry: { maxRetries: 0 } });
    expect([run.stop.reason, run.stop.detail]).toEqual(['trace_end', simulated!.stopDetail]);
    expect(run.stop.detail).toMatch(hardCapSteps === 3 ? /hard cap of 3 steps/ : /cut off/);
    expect(run.stop.detail).not.toMatch(/recorded trace/);
  });

  it('a 409 loopcost_agent_ended not worded as serve words it: its whole message is the detail', async () => {
    const fetchDouble: typeof fetch = async () =>
      new Response(JSON.stringify({ error: { message: 'the synthetic agent has ended', code: 'loopcost_agent_ended', loopcost: { agentEnding: 'cut_off' } } }), { status: 409, headers: { 'content-type': 'application/json' } });
    const { default: OpenAI } = await import('openai');
    const client = new OpenAI({ apiKey: 'k', baseURL: 'http://127.0.0.1:9/v1', maxRetries: 0, fetch: fetchDouble });
    const error = await openAIChatModel({ model: 'm', client }).call({ messages: [{ role: 'user', content: 'g' }], tools: [], maxOutputTokens: 10 }).catch((e: unknown) => e);
    expect(error).toEqual(new ModelExhausted('trace_end', 'the synthetic agent has ended'));
  });
});

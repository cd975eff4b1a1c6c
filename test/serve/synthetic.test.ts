/**
 * `serve` answering from a scenario: the synthetic behaviour sees the messages the agent actually sent
 * (a client that keeps only its last steps makes the forgetful agent re-read), usage reports those
 * messages' tokens (the project's tokenizer), and spend is the kernel's cost of that usage.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callCostPico } from '../../src/kernel/cost.js';
import { flattenPrices, tierRow } from '../../src/kernel/prices.js';
import { countChatTokens } from '../../src/import/tokenCount.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { parseScenario } from '../../src/scenario/load.js';
import { resolveScenarioPricing } from '../../src/scenario/run.js';
import { startServer, type RunningServer } from '../../src/serve/index.js';
import { expectOpenAiError, get, post, type Answer } from './client.js';

const SCENARIO = `
scenario: loopcost.scenario/1
name: forgetful writer
model: gpt-4o-mini
provider: openai
systemTokens: 100
hardCapSteps: 30
population:
  - behaviour: forgetful
    weight: 1
    steps: 5
    observationTokens: 500
    outputTokens: 40
    toolResultTokens: 20
`;
const scenario = parseScenario(SCENARIO, 'forgetful.yaml');
const prices = loadPriceTable();
let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ sources: { scenario: { scenario } }, prices, port: 0 });
});
afterAll(() => server.close());

interface Message {
  role: string;
  content: string | null;
  tool_calls?: { id: string; type: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

/** The text the tokenizer counts for a message: its content, and an assistant's tool-call names and arguments. */
function counted(m: Message): { role: string; content: string } {
  const parts = m.content === null ? [] : [m.content];
  for (const call of m.tool_calls ?? []) parts.push(call.function.name, call.function.arguments);
  return { role: m.role, content: parts.join('\n') };
}

/** An agent loop that answers every tool call and sends its last `keepSteps` steps (all: Infinity). */
async function runAgent(session: string, keepSteps: number, url = server.url, system = 'You write the weekly report from the git log.'): Promise<{ answers: Answer[]; sent: Message[][] }> {
  const head: Message[] = [
    { role: 'system', content: system },
    { role: 'user', content: 'Write this week\'s report.' },
  ];
  const steps: Message[][] = [];
  const answers: Answer[] = [];
  const sent: Message[][] = [];
  for (let i = 0; i < 40; i++) {
    const messages = [...head, ...steps.slice(Math.max(0, steps.length - keepSteps)).flat()];
    const answer = await post(url, { model: 'gpt-4o-mini', messages }, { 'x-loopcost-session': session, 'x-loopcost-run': '1' });
    expect(answer.status).toBe(200);
    answers.push(answer);
    sent.push(messages);
    const message = answer.json.choices[0].message as Message;
    if (!message.tool_calls) return { answers, sent };
    steps.push([
      { role: 'assistant', content: message.content, tool_calls: message.tool_calls },
      ...message.tool_calls.map((call) => ({ role: 'tool', tool_call_id: call.id, content: `${call.function.name} done: ${'line '.repeat(30)}` })),
    ]);
  }
  throw new Error('the synthetic agent never answered');
}

const toolNames = (answers: Answer[]) => answers.flatMap((a) => (a.json.choices[0].message.tool_calls ?? []).map((t: { function: { name: string } }) => t.function.name));

describe('serve: a synthetic behaviour on the messages sent', () => {
  it('reports the prompt tokens of the messages actually sent, and bills them with the kernel cost', async () => {
    const { answers, sent } = await runAgent('full', Infinity);
    const pricing = resolveScenarioPricing(scenario, prices);
    const flat = flattenPrices(pricing);
    let total = 0;
    answers.forEach((answer, i) => {
      const promptTokens = countChatTokens(sent[i]!.map(counted), 'gpt-4o-mini');
      expect(answer.json.usage.prompt_tokens).toBe(promptTokens);
      expect(answer.json.usage.prompt_tokens_details.cached_tokens).toBe(0); // the scenario's cache: off
      const { usage } = answer.json;
      const cost = callCostPico(flat.rows, tierRow(flat.rows, flat.tiers, usage.prompt_tokens), usage.prompt_tokens, 0, 0, 0, usage.completion_tokens, 0);
      expect(answer.json.loopcost.costPico).toBe(String(cost));
      total += cost;
    });
    // Prompts grow with the history sent.
    expect(answers[3]!.json.usage.prompt_tokens).toBeGreaterThan(answers[1]!.json.usage.prompt_tokens);
    const summary = (await get(server.url, '/loopcost/sessions')).json.sessions.find((s: { id: string }) => s.id === 'full');
    expect(summary).toMatchObject({ kind: 'synthetic', source: 'forgetful.yaml#1', calls: answers.length, costPico: String(total), inputTokens: answers.reduce((sum, a) => sum + a.json.usage.prompt_tokens, 0) });
    // With the whole history sent, the log is read once; the agent then answers.
    expect(toolNames(answers).filter((name) => name === 'read_log')).toHaveLength(1);
    expect(answers.at(-1)!.json.choices[0].finish_reason).toBe('stop');
  });

  it('reacts to what the agent drops: with only the last step sent, the forgetful agent reads the log again', async () => {
    const full = await runAgent('full-again', Infinity);
    const windowed = await runAgent('window', 1);
    expect(toolNames(windowed.answers).filter((name) => name === 'read_log').length).toBeGreaterThan(1);
    expect(windowed.answers.length).toBeGreaterThan(full.answers.length);
    // Same run, same agent: while the messages sent agree, so do the answers.
    const calls = (answers: Answer[]) => answers.map((a) => [a.json.usage, (a.json.choices[0].message.tool_calls ?? []).map((t: { function: unknown }) => t.function)]);
    expect(calls(windowed.answers.slice(0, 2))).toEqual(calls(full.answers.slice(0, 2)));
  });

  it('with cache on, reports the unchanged leading messages as cached, as the provider rule serves them', async () => {
    const cached = await startServer({ sources: { scenario: { scenario, settings: { seed: 1, strategy: { kind: 'full', cache: 'on' } } } }, prices, port: 0 });
    try {
      const system = `You write the weekly report. ${'Follow the style guide. '.repeat(300)}`;
      const { answers, sent } = await runAgent('cached', Infinity, cached.url, system);
      expect(answers[0]!.json.usage.prompt_tokens_details.cached_tokens).toBe(0);
      for (let i = 1; i < answers.length; i++) {
        // The previous request's messages and the reply are sent again unchanged: the prefix, without the reply priming (3 tokens).
        const prefix = countChatTokens(sent[i - 1]!.map(counted).concat(counted(answers[i - 1]!.json.choices[0].message)), 'gpt-4o-mini') - 3;
        expect(prefix).toBeGreaterThan(1024);
        // OpenAI's rule: from 1,024 tokens, in 128-token increments.
        expect(answers[i]!.json.usage.prompt_tokens_details.cached_tokens).toBe(prefix - (prefix % 128));
      }
    } finally {
      await cached.close();
    }
  });

  it('answers past the agent\'s end with a 409', async () => {
    const { answers } = await runAgent('ended', Infinity);
    expect(answers.at(-1)!.json.choices[0].finish_reason).toBe('stop');
    // The run completed; the behaviour has nothing more to say only at its hard cap, so keep asking until it ends.
    let last: Answer | undefined;
    for (let i = 0; i < 40; i++) {
      // A request of the run going on, an answer sent back (once ended, one sending none is another run's: sessionReuse.test.ts).
      last = await post(server.url, { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'more?' }, { role: 'assistant', content: 'a step' }] }, { 'x-loopcost-session': 'ended' });
      if (last.status !== 200) break;
    }
    expect(last!.status).toBe(409);
    expectOpenAiError(last!);
    expect(last!.json.error.code).toBe('loopcost_agent_ended');
    expect(last!.json.error.loopcost).toHaveProperty('agentEnding');
  });
});

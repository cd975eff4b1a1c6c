/**
 * One refusal rule for the simulated world and `serve`: the same scenario served over HTTP to a client
 * that sends max_tokens with every call, and simulated with that max_tokens (`--max-output-tokens`),
 * ends at the same call — the first whose prompt + max_tokens passes the model's window, its prompt
 * within the window (maxTokensWindowScenario.ts). The client sends back each tool result at the size the
 * served agent drew, so the prompts the served agent counts follow the simulated ones.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { scenarioRuns } from '../../src/scenario/run.js';
import { startServer, type RunningServer } from '../../src/serve/index.js';
import { post } from '../serve/client.js';
import { PRICES, promptAt, REFUSED_AT, SCENARIO, WINDOW } from './maxTokensWindowScenario.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ sources: { scenario: { scenario: SCENARIO } }, prices: PRICES, port: 0 });
});
afterAll(() => server.close());

const words = (n: number) => Array.from({ length: n }, () => 'word').join(' ');

interface Message {
  role: string;
  content: string | null;
  tool_calls?: { id: string }[];
  tool_call_id?: string;
}

/** Run 1 served to a client sending max_tokens `maxTokens` with every call, up to the call refused: the prompts answered, and the refusal. */
async function served(session: string, maxTokens: number): Promise<{ prompts: number[]; refusedAt: number; message: string }> {
  const messages: Message[] = [
    { role: 'system', content: words(90) },
    { role: 'user', content: words(12) },
  ];
  const prompts: number[] = [];
  for (let call = 1; call <= 40; call++) {
    const answer = await post(server.url, { model: 'tiny', messages, max_tokens: maxTokens }, { 'x-loopcost-session': session, 'x-loopcost-run': '1' });
    if (answer.status === 400) return { prompts, refusedAt: call, message: answer.json.error.message };
    expect(answer.status).toBe(200);
    prompts.push(answer.json.usage.prompt_tokens);
    const message = answer.json.choices[0].message as Message;
    const sizes = (answer.json.loopcost.record.toolCalls as { resultTokens: number }[]).map((tool) => tool.resultTokens);
    messages.push({ role: 'assistant', content: message.content, tool_calls: message.tool_calls! }, ...message.tool_calls!.map((tool, i) => ({ role: 'tool', tool_call_id: tool.id, content: words(sizes[i]!) })));
  }
  throw new Error('the served agent was never refused');
}

/** Run 1 simulated with `maxTokens` sent: the call refused (the run's last call) and the prompts before it. */
function simulated(maxTokens: number) {
  const [run] = [...scenarioRuns(SCENARIO, { prices: PRICES, runs: 1, brakes: { ...NO_BRAKES, maxOutputTokens: maxTokens }, keepSteps: true }, true)];
  return { ending: run!.ending, refusedAt: run!.result.rows.at(-1)!.call, prompts: run!.result.rows.slice(0, -1).map((row) => row.inputTokens) };
}

describe('served and simulated, a synthetic agent is refused at the same call', () => {
  for (const maxTokens of [4096, 2596] as const) {
    it(`max_tokens ${maxTokens}: both end at call ${REFUSED_AT[maxTokens]}, its prompt within the ${WINDOW}-token window`, async () => {
      const http = await served(`max-${maxTokens}`, maxTokens);
      const sim = simulated(maxTokens);
      expect(sim.ending).toBe('context_window');
      expect(http.refusedAt).toBe(REFUSED_AT[maxTokens]);
      expect(sim.refusedAt).toBe(http.refusedAt);
      // The served prompts follow the simulated ones (the tokenizer's count of the messages, within 100 tokens).
      expect(sim.prompts).toEqual(Array.from({ length: http.refusedAt - 1 }, (_, i) => promptAt(i + 1)));
      http.prompts.forEach((prompt, i) => expect(Math.abs(prompt - sim.prompts[i]!)).toBeLessThan(100));
      // Said in OpenAI's words (context_length_exceeded).
      const refused = Number(/\((\d+) in the messages, (\d+) in the completion\)/.exec(http.message)![1]);
      expect(refused).toBeLessThanOrEqual(WINDOW);
      expect(http.message).toBe(`This model's maximum context length is ${WINDOW} tokens. However, you requested ${refused + maxTokens} tokens (${refused} in the messages, ${maxTokens} in the completion). Please reduce the length of the messages or completion.`);
    });
  }
});

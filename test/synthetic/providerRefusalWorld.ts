/**
 * The world of test/synthetic/providerRefusal*.test.ts: the small-window scenario of
 * maxTokensWindowScenario.ts (prompt 120 + 1,500·(n − 1) at call n) on `tiny4`, a hand-priced model with
 * an 8,000-token window, so that with the default max_tokens 4096 the provider refuses call 4
 * (4,620 + 4,096 > 8,000; 3,120 + 4,096 fits), its prompt within the window. Margins of ≥700 tokens leave
 * room for the tokenizer's count of the messages a served agent is sent. Also the real loop (agentLoop)
 * against `loopcost serve` answering from that scenario, with tools that send back each tool result at
 * the size the served agent drew.
 */
import { VirtualClock } from '../../src/agent/clock.js';
import { agentLoop } from '../../src/agent/loop.js';
import { openAIChatModel } from '../../src/agent/openaiChat.js';
import type { AgentLoopOptions, AgentTool, Model } from '../../src/agent/types.js';
import type { BrakeConfig } from '../../src/brakes/config.js';
import { parseScenario } from '../../src/scenario/load.js';
import type { RunningServer } from '../../src/serve/index.js';
import type { ToolCallRecord } from '../../src/trace/types.js';
import { countTokens } from '../../src/import/tokenCount.js';
import { handPriced, handTable } from '../helpers.js';
import { SCENARIO_TEXT } from './maxTokensWindowScenario.js';
import { serveClient } from '../agent/serveClient.js';

export const WINDOW4 = 8000;
export const TINY4 = handPriced('tiny4', { input: 1, output: 2 }, WINDOW4);
export const PRICES4 = handTable(TINY4);
export const SCENARIO4 = parseScenario(SCENARIO_TEXT.replace('model: tiny', 'model: tiny4'), 'small-window-4.yaml');
/** The call the provider refuses with the default max_tokens 4096. */
export const REFUSED_CALL = 4;

let sessions = 0;

/** Run 1 of the served scenario, driven by the real loop under `brakes`. */
export async function realLoopAgainstServe(server: RunningServer, brakes: BrakeConfig, recorder?: AgentLoopOptions['recorder']) {
  const { client, last } = serveClient(server, { session: `refusal-${++sessions}` });
  const http = openAIChatModel({ model: 'tiny4', client });
  let results: readonly ToolCallRecord[] = [];
  const model: Model = {
    name: 'tiny4',
    async call(request) {
      const turn = await http.call(request);
      results = last().record.toolCalls ?? [];
      return turn;
    },
  };
  const words = (n: number) => Array.from({ length: n }, () => 'word').join(' ');
  const tool: AgentTool = {
    name: 'run',
    description: 'run',
    parameters: { type: 'object' },
    run(_args, { callId }) {
      const recorded = results.find((r, j) => (r.id ?? null) === callId || callId.endsWith(`_${j + 1}`))!;
      return { output: words(recorded.resultTokens), tokens: recorded.resultTokens };
    },
  };
  return agentLoop({
    model,
    tools: [tool],
    brakes,
    context: { system: words(90), goal: words(12), strategy: { kind: 'full', cache: 'off' } },
    pricing: TINY4,
    clock: new VirtualClock(),
    retry: { maxRetries: 3, backoffMs: () => 0 },
    countTokens: (text: string) => countTokens(text, 'gpt-4o'),
    reasoningInPrompt: false,
    ...(recorder === undefined ? {} : { recorder }),
  });
}

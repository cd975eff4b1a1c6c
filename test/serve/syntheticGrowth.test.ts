/**
 * A served synthetic agent's answers carry as many tokens as they report (src/serve/sizedText.ts), so the
 * real loop's prompts grow as a real model's would — each step by its output and its results — and as the
 * CLI's run of the same scenario and seed grows (the growth model: a step keeps its output and results,
 * kernel/stepTokens.ts). Before, an answer carried ~15 tokens of placeholder text, or none beside its tool
 * call, while its usage reported hundreds: the real loop's prompts stayed small, served runs were cheaper
 * than the CLI said, and windows and summaries ranked otherwise served than replayed.
 *
 * The scenario's prompt overhead is the chat format's framing of the messages the real loop sends, so the
 * two worlds count the same prompt: fixedTokens 11 = the reply priming (3) + the system and goal messages'
 * framing (4 each); perStepTokens 4 = a tool message's framing (3 + its role). The system prompt, goal and
 * tool results are texts of exactly their tokens; the assistant message counts its output, framing included.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { openAIChatModel } from '../../src/agent/openaiChat.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import { summaryInstruction } from '../../src/agent/conversation.js';
import { countChatTokens } from '../../src/import/tokenCount.js';
import { SUMMARY_FRAMING_TOKENS } from '../../src/kernel/sentOverhead.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { parseScenario } from '../../src/scenario/load.js';
import { scenarioRuns } from '../../src/scenario/run.js';
import { startServer, type RunningServer } from '../../src/serve/index.js';
import { textOfTokens } from '../../src/serve/sizedText.js';
import { servedResultTool, serveClient } from '../agent/serveClient.js';
import { get } from './client.js';

const SCENARIO = `
scenario: loopcost.scenario/1
name: growth
model: gpt-4o-mini
provider: openai
systemTokens: 100
goalTokens: 20
promptOverhead: { fixedTokens: 11, perStepTokens: 4 }
hardCapSteps: 30
seed: 7
population:
  - behaviour: healthy
    weight: 1
    steps: 8
    outputTokens: { kind: lognormal, median: 400, p95: 900 }
    toolResultTokens: { kind: lognormal, median: 300, p95: 700 }
`;
const scenario = parseScenario(SCENARIO, 'growth.yaml');
const prices = loadPriceTable();
const servers: RunningServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

/** The real loop (runAgentLoop, openAIChatModel) against serve's run 1, its tools answering with texts of the sizes the agent's record gives. */
async function servedRun(strategy: ContextStrategy) {
  const server = await startServer({ sources: { scenario: { scenario, settings: { seed: 7, strategy } } }, prices, port: 0 });
  servers.push(server);
  const { client, last } = serveClient(server, { session: 'growth' });
  const sentPrompts: number[] = [];
  const tool = servedResultTool(last);
  const http = openAIChatModel({ model: 'gpt-4o-mini', client });
  const model = { ...http, name: 'gpt-4o-mini', call: async (request: Parameters<typeof http.call>[0]) => {
    sentPrompts.push(countChatTokens(request.messages.map(countedMessage), 'gpt-4o-mini'));
    return http.call(request);
  } };
  const run = await runAgentLoop({
    model,
    tools: ['work', 'run', 'read_log', 'search', 'tool'].map(tool),
    brakes: { ...NO_BRAKES, maxSteps: 30 },
    context: { system: textOfTokens(100, '', 'o200k_base'), goal: textOfTokens(20, '', 'o200k_base'), strategy },
    pricing: prices.resolve('gpt-4o-mini'),
    retry: { maxRetries: 0 },
  });
  const session = (await get(server.url, '/loopcost/sessions')).json.sessions.find((s: { id: string }) => s.id === 'growth');
  return { run, session, sentPrompts };
}

/** A message the real loop sends, as serve counts it: its text, and an assistant's tool-call names and arguments. */
function countedMessage(m: { role: string; content: string | null; toolCalls?: { name: string; arguments: string }[] }): { role: string; content: string } {
  const parts = m.content === null ? [] : [m.content];
  for (const call of m.toolCalls ?? []) parts.push(call.name, call.arguments);
  return { role: m.role, content: parts.join('\n') };
}

function cliRun(strategy: ContextStrategy) {
  const [run] = [...scenarioRuns(scenario, { prices, runs: 1, strategy, keepSteps: true }, true)];
  return run!;
}

describe('serve: a synthetic agent\'s answers carry the tokens they report', () => {
  it.each<[string, ContextStrategy]>([
    ['full history', { kind: 'full', cache: 'off' }],
    ['a window of 2 steps', { kind: 'window', windowSteps: 2, cache: 'off' }],
  ])('%s: the real loop\'s prompts grow per step by its output and results, as the CLI\'s run of the same seed, and cost the same', async (_name, strategy) => {
    const cli = cliRun(strategy);
    const { run, session, sentPrompts } = await servedRun(strategy);
    const cliPrompts = cli.result.rows.map((row) => row.inputTokens);
    expect(cli.result.stopReason).toBe('completed');
    expect(cliPrompts.length).toBeGreaterThanOrEqual(6);
    // Each prompt the real loop sent, counted by serve's rule, is the CLI's prompt of that call.
    expect(sentPrompts).toEqual(cliPrompts);
    // Under full history, each step adds its output (the answer's text) and its results.
    if (strategy.kind === 'full') {
      for (let i = 1; i < cliPrompts.length; i++) {
        const step = cli.calls[i - 1]!;
        expect(sentPrompts[i]! - sentPrompts[i - 1]!).toBe(step.outputTokens + (step.toolCalls ?? []).reduce((sum, t) => sum + t.resultTokens, 0));
      }
    }
    expect([run.stop.reason, run.steps, run.calls]).toEqual([cli.result.stopReason, cli.result.steps, cli.result.modelCalls]);
    expect(run.costPico).toBe(cli.result.costPico);
    expect(session.costPico).toBe(String(cli.result.costPico));
  });

  it('a summary strategy: the summary\'s text counts its tokens; what differs from the CLI is the real loop\'s message framing of the summary (10) and its instruction, which the growth model does not count', async () => {
    const summaryTokens = 300;
    const strategy: ContextStrategy = { kind: 'summary', summary: { triggerTokens: 3000, keepSteps: 2, summaryTokens }, cache: 'off' };
    const cli = cliRun(strategy);
    const { run, session, sentPrompts } = await servedRun(strategy);
    const rows = cli.result.rows;
    expect(rows.filter((row) => row.summary).length).toBeGreaterThanOrEqual(2);
    // The summary call sends the prompt it replaces and the real loop's instruction (a user message); every later
    // prompt holds the summary in a message of its own, `Summary of the earlier steps: ` + the text (SUMMARY_FRAMING_TOKENS).
    const instruction = countChatTokens([{ role: 'user', content: summaryInstruction(summaryTokens) }], 'gpt-4o-mini') - 3;
    let summarized = false;
    const expected = rows.map((row) => {
      const framing = summarized ? SUMMARY_FRAMING_TOKENS : 0;
      if (row.summary) summarized = true;
      return row.inputTokens + framing + (row.summary ? instruction : 0);
    });
    expect(sentPrompts).toEqual(expected);
    expect([run.stop.reason, run.steps, run.calls, run.summaryCalls]).toEqual([cli.result.stopReason, cli.result.steps, cli.result.modelCalls, cli.result.summaryCalls]);
    // The same outputs: the cost differs by those prompt tokens alone (gpt-4o-mini: one price per input token, no cache).
    const extraTokens = expected.reduce((sum, tokens, i) => sum + tokens - rows[i]!.inputTokens, 0);
    expect(run.costPico - cli.result.costPico).toBe(extraTokens * prices.resolve('gpt-4o-mini').base.input);
    expect(session.costPico).toBe(String(run.costPico));
  });
});

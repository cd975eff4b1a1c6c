/**
 * A summary call served from a scenario (`x-loopcost-purpose: summary`) is billed at the messages it
 * sends, as every other call of the session is — not at loopcost's own model of the run's prompt.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { openAIChatModel } from '../../src/agent/openaiChat.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { defineTool } from '../../src/agent/tools.js';
import type { Model } from '../../src/agent/types.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { loadScenarioFile } from '../../src/scenario/load.js';
import { startServer, type RunningServer } from '../../src/serve/index.js';
import { serveClient } from '../agent/serveClient.js';
import { post } from './client.js';

/** gpt-4o-mini, cache off; the forgetful agent's git_log result is ~5,000 tokens (its own model of the run). */
const WEEKLY_REPORT = 'scenarios/weekly-report.yaml';
const prices = loadPriceTable();
const servers: RunningServer[] = [];
afterAll(() => Promise.all(servers.map((server) => server.close())));

async function serving(): Promise<RunningServer> {
  const server = await startServer({ sources: { scenario: { scenario: loadScenarioFile(WEEKLY_REPORT) } }, prices });
  servers.push(server);
  return server;
}

describe('serve with a scenario: a summary call', () => {
  it('is billed at the messages it sends, as an ordinary call of the same messages is', async () => {
    const server = await serving();
    const session = { 'x-loopcost-session': 'writer' };
    const first = await post(server.url, { model: 'gpt-4o-mini', messages: [{ role: 'system', content: 'You write.' }, { role: 'user', content: 'Report.' }] }, session);
    expect(first.json.usage.prompt_tokens).toBe(16);
    const tiny = [{ role: 'system', content: 's' }, { role: 'user', content: 'g' }, { role: 'user', content: 'Summarise.' }];
    const summary = await post(server.url, { model: 'gpt-4o-mini', messages: tiny, max_tokens: 200 }, { ...session, 'x-loopcost-purpose': 'summary' });
    const ordinary = await post(server.url, { model: 'gpt-4o-mini', messages: tiny }, { 'x-loopcost-session': 'probe' });
    expect(summary.json.usage.prompt_tokens).toBe(ordinary.json.usage.prompt_tokens);
    expect(summary.json.usage.prompt_tokens).toBeLessThan(25);
    expect(summary.json.usage.completion_tokens).toBe(200);
  });

  it('with the real loop (summary:trigger=400,keep=2,tokens=200): the loop bills what serve bills, to the picodollar, summary calls at their messages', async () => {
    const server = await serving();
    const { client, last, lastBody } = serveClient(server, { session: 'loop' });
    const http = openAIChatModel({ model: 'gpt-4o-mini', client });
    const summaries: { messages: unknown; promptTokens: number }[] = [];
    let ordinaryPico = 0;
    let summaryPico = 0;
    const model: Model = {
      name: 'gpt-4o-mini',
      async call(request) {
        const turn = await http.call(request);
        if (request.purpose === 'summary') {
          summaries.push({ messages: (lastBody() as { messages: unknown }).messages, promptTokens: last().usage.input });
          summaryPico += Number(last().costPico);
        } else ordinaryPico += Number(last().costPico);
        return turn;
      },
    };
    const tool = (name: string) => defineTool<Record<string, unknown>>({ name, description: name, parameters: { type: 'object' }, run: () => `${name}: ${'lorem ipsum '.repeat(100)}` });
    const run = await runAgentLoop({
      model,
      tools: [tool('git_log'), tool('write_section')],
      brakes: { ...NO_BRAKES, maxSteps: 30 },
      context: { system: 'You write the weekly report.', goal: "Write this week's report.", strategy: { kind: 'summary', summary: { triggerTokens: 400, keepSteps: 2, summaryTokens: 200 } } },
      pricing: prices.resolve('gpt-4o-mini'),
      clock: new VirtualClock(),
    });
    expect(run.stop.reason).toBe('completed');
    expect(summaries.length).toBe(run.summaryCalls);
    expect(summaries.length).toBeGreaterThan(5);
    // Each summary call's prompt: what an ordinary call of the same messages is billed.
    for (const [i, { messages, promptTokens }] of summaries.entries()) {
      const ordinary = await post(server.url, { model: 'gpt-4o-mini', messages }, { 'x-loopcost-session': `probe-${i}` });
      expect(promptTokens, `summary call ${i + 1}`).toBe(ordinary.json.usage.prompt_tokens);
    }
    const served = server.sessions().sessions.find((s) => s.id === 'loop')!;
    // The ordinary calls: the loop bills serve's usage exactly.
    expect(ordinaryPico).toBe(run.costPico - run.summaryCostPico!);
    // The summary calls: the loop bills the usage serve reported for them (the messages sent), not its own
    // estimate of the prompt they replace: the two runs' totals are the same picodollars.
    expect(summaryPico).toBe(run.summaryCostPico);
    expect(served.costPico).toBe(String(run.costPico));
    // The agent gave its final answer: its session has ended.
    expect(served.ended).toBe(true);
  });
});

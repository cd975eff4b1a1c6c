/**
 * The real loop over `loopcost serve` notes, once, a call whose served bill (`loopcost.costPico`) is not the
 * run's own pricing of it. The review's case: the Groq cassette served at Groq's prices, the loop priced as the
 * README's pattern without the provider (`resolve('openai/gpt-oss-120b')`: OpenAI's) billed $0.0000515
 * against serve's and replay's $0.000165, and nothing said so.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openAIChatModel } from '../../src/agent/openaiChat.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { noteServedCost } from '../../src/agent/servedCost.js';
import { defineTool } from '../../src/agent/tools.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { importCassette } from '../../src/import/http/cassette.js';
import { loadTraceFile } from '../../src/import/index.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import type { ModelPricing } from '../../src/pricing/types.js';
import { startServer, type RunningServer } from '../../src/serve/index.js';

const CASSETTE = 'models__test_groq__test_tool_use_failed_error.yaml';
const cassettePath = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'shared', 'traces', 'cassettes', CASSETTE);
const PRICES = loadPriceTable();
const servers: RunningServer[] = [];
const dir = mkdtempSync(join(tmpdir(), 'loopcost-served-cost-'));
afterAll(() => Promise.all(servers.map((s) => s.close())).then(() => rmSync(dir, { recursive: true, force: true })));

const tool = defineTool<{ name: string }>({ name: 'get_something_by_name', description: 'd', parameters: { type: 'object', properties: { name: { type: 'string' } } }, run: ({ name }) => `found ${name}` });

async function runServed(session: string, pricing: ModelPricing) {
  const traces = importCassette(readFileSync(cassettePath, 'utf8'), CASSETTE);
  const server = await startServer({ sources: { traces }, prices: PRICES });
  servers.push(server);
  const model = openAIChatModel({ model: 'openai/gpt-oss-120b', baseURL: `${server.url}/v1`, apiKey: 'k', headers: { 'x-loopcost-session': session } });
  const run = await runAgentLoop({ model, tools: [tool], brakes: { ...NO_BRAKES, maxSteps: 12 }, context: { system: 'Be concise.', goal: 'Call the tool.' }, pricing, retry: { maxRetries: 2, backoffMs: () => 0 } });
  const served = (await (await fetch(`${server.url}/loopcost/sessions`)).json()) as { sessions: Array<{ id: string; costPico: string }> };
  return { run, servedPico: BigInt(served.sessions.find((s) => s.id === session)!.costPico) };
}

describe("a served answer's bill beside the run's pricing", () => {
  it("priced as OpenAI's (the provider left out): the run notes serve's bill and its own, once; priced as Groq's, nothing", async () => {
    const { run, servedPico } = await runServed('openai-priced', PRICES.resolve('openai/gpt-oss-120b'));
    expect(servedPico).toBe(165_150_000n); // $0.000165: Groq's prices, as `loopcost replay` of the cassette bills it
    expect(run.costPico).toBe(51_483_000); // $0.0000515 at OpenAI's prices, the same calls
    const notes = (run.notes ?? []).filter((note) => note.startsWith('loopcost serve billed call'));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/^loopcost serve billed call \d+ of session "openai-priced" \$0\.\d+ \(its loopcost\.costPico\), but this run priced it \$0\.\d+ at openai's gpt-oss-120b \(asked for as 'openai\/gpt-oss-120b'\): /);
    expect(notes[0]).toContain('loadPriceTable().resolve(model, provider)');
    // Priced as Groq's (the provider given): the run's cost is serve's to the picodollar, nothing noted.
    const groq = await runServed('groq-priced', PRICES.resolve('openai/gpt-oss-120b', 'groq'));
    expect(BigInt(groq.run.costPico)).toBe(groq.servedPico);
    expect((groq.run.notes ?? []).some((note) => note.includes('loopcost serve billed'))).toBe(false);
  });

  it('a response without serve\'s bill, or with its figure, is not noted; a pricing that fell back says so in the note', () => {
    const pricing = PRICES.resolve('gpt-oss-120b', 'anthropic');
    const notes: string[] = [];
    noteServedCost(notes, { raw: { choices: [] }, costPico: 5, pricing });
    noteServedCost(notes, { raw: { loopcost: { costPico: '5' } }, costPico: 5, pricing });
    noteServedCost(notes, { raw: { loopcost: { costPico: 'lots' } }, costPico: 5, pricing });
    expect(notes).toEqual([]);
    noteServedCost(notes, { raw: { loopcost: { costPico: '7', call: 2, session: 's' } }, costPico: 5, pricing });
    noteServedCost(notes, { raw: { loopcost: { costPico: '9', call: 3, session: 's' } }, costPico: 5, pricing });
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain('loopcost serve billed call 2 of session "s" $0.000000000007 (its loopcost.costPico), but this run priced it $0.000000000005 at openai\'s gpt-oss-120b (the price table has no price of \'gpt-oss-120b\' for provider anthropic');
  });

  it("a recording served at its recordedAt's prices, the run at the table's latest: the note names the day, not the provider", async () => {
    // claude-opus-4-6 recorded 2026-02-15, a 250k-token prompt: its long-context price that day is not the table's latest.
    const file = join(dir, 'opus.jsonl');
    const lines = [
      { type: 'header', schema: 'loopcost.trace/1', model: 'claude-opus-4-6', provider: 'anthropic', systemTokens: 10, goalTokens: 10, recordedAt: '2026-02-15T00:00:00Z' },
      { type: 'call', inputTokens: 250000, outputTokens: 100, final: true },
      { type: 'end', outcome: 'completed' },
    ];
    writeFileSync(file, lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
    const server = await startServer({ sources: { traces: await loadTraceFile(file) }, prices: PRICES });
    servers.push(server);
    const runAt = (session: string, pricing: ModelPricing) =>
      runAgentLoop({ model: openAIChatModel({ model: 'claude-opus-4-6', baseURL: `${server.url}/v1`, apiKey: 'k', headers: { 'x-loopcost-session': session } }), tools: [], brakes: { ...NO_BRAKES, maxSteps: 5 }, context: { system: 's', goal: 'g' }, pricing, retry: { maxRetries: 0 } });
    const latest = await runAt('latest', PRICES.resolve('claude-opus-4-6', 'anthropic'));
    expect(latest.notes).toHaveLength(1);
    expect(latest.notes![0]).toContain("serve priced it at the prices of 2026-02-15, the day the run was recorded (its header.recordedAt), this run at those of ");
    expect(latest.notes![0]).toContain("loadPriceTable().resolve('claude-opus-4-6', 'anthropic', '2026-02-15')");
    expect(latest.notes![0]).not.toContain('resolve(model, provider)'); // the provider was given: it is no cause
    // Priced at the recording's day, as the note says: serve's bill to the picodollar, nothing noted.
    const recordedDay = await runAt('recorded-day', PRICES.resolve('claude-opus-4-6', 'anthropic', '2026-02-15'));
    expect(recordedDay.notes).toBeUndefined();
    expect(recordedDay.costPico).not.toBe(latest.costPico);
  });
});

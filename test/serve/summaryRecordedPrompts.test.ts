/**
 * A recording that carries its own prompt sizes (each call's `inputTokens` above the tracked context: tool
 * schemas, framing — any shared mini-swe-agent trace): a summary call's prompt is what the loop estimates
 * for it (LoopSession.nextPromptEstimate: the tracked context plus the overhead the last call showed), and
 * serve bills a summary request at that estimate as replay bills its summary call under `--context summary:…`
 * at the same point — input, cached, cache-write tokens and picodollars.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import { replayTrace } from '../../src/replay/replay.js';
import { startServer, type RunningServer } from '../../src/serve/index.js';
import type { Trace } from '../../src/trace/types.js';
import { call, handPriced, handTable, toolCall, trace } from '../helpers.js';
import { post } from './client.js';

const mini = handPriced('mini', { input: 0.15, output: 0.6, cached: 0.075 }, 128_000);
/** Anthropic-style: it bills cache writes. */
const claude = handPriced('claude-sonnet-4', { input: 3, output: 15, cached: 0.3, cacheWrite: 3.75 }, 200_000);
const servers: RunningServer[] = [];
afterAll(() => Promise.all(servers.map((server) => server.close())));

/** Three steps, the last with a large tool result, then a final answer, each call billed 1,500 tokens beyond the tracked context (system 100 + the steps so far); the summary call is due before the answer. */
const RECORDED_PROMPTS: Trace = {
  ...trace(
    [call(50, [toolCall('a', { i: 0 }, 100)], { inputTokens: 1600 }), call(50, [toolCall('b', { i: 1 }, 100)], { inputTokens: 1750 }), call(50, [toolCall('c', { i: 2 }, 3000)], { inputTokens: 1900 }), call(50, undefined, { final: true, inputTokens: 4950 })],
    { outcome: 'completed', origin: 'recorded' },
  ),
  source: 'recorded-prompts',
};

const ask = (server: RunningServer, session: string, model = 'mini', purpose?: 'summary') =>
  post(server.url, { model, messages: [{ role: 'user', content: 'go' }], max_tokens: 200 }, { 'x-loopcost-session': session, 'x-loopcost-trace': '0', ...(purpose ? { 'x-loopcost-purpose': purpose } : {}) });
const served = (server: RunningServer, id: string) => server.sessions().sessions.find((s) => s.id === id)!;

describe('serve: a summary request on a recording with recorded prompt sizes', () => {
  it.each([
    ['mini', 'recorded'],
    ['mini', 'on'],
    ['claude-sonnet-4', 'recorded'],
  ] as const)('on %s, cache %s: billed at the loop’s prompt estimate, as replay bills its summary call', async (model, cache) => {
    const strategy: ContextStrategy = { kind: 'summary', cache, summary: { triggerTokens: 2000, keepSteps: 1, summaryTokens: 200, ...(model === 'mini' ? {} : { model }) } };
    const replayed = replayTrace(RECORDED_PROMPTS, { brakes: NO_BRAKES, strategy, prices: handTable(mini, claude), keepSteps: true });
    expect([replayed.stopReason, replayed.summaryCalls]).toEqual(['completed', 1]);
    const row = replayed.rows[3]!; // the summary call, before the fourth recorded call
    expect(row.summary).toBe(true);
    const server = await startServer({ sources: { traces: [RECORDED_PROMPTS] }, prices: handTable(mini, claude), cache });
    servers.push(server);
    const session = `prompts-${model}-${cache}`;
    for (let i = 0; i < 3; i++) expect((await ask(server, session)).status).toBe(200);
    const summary = await ask(server, session, model, 'summary');
    expect(summary.status).toBe(200);
    const usage = summary.json.usage;
    const billed = { input: usage.prompt_tokens, cached: usage.prompt_tokens_details.cached_tokens, cacheWrite: usage.prompt_tokens_details.cache_write_tokens, costPico: summary.json.loopcost.costPico };
    const replaySummary = { input: row.inputTokens, cached: row.cachedInputTokens, cacheWrite: row.cacheWriteTokens, costPico: String(replayed.summaryCostPico) };
    // The tracked context before the summary is 100 + 3 × 50 + 100 + 100 + 3000 = 3,450; the last call showed 1,500 more.
    expect(replaySummary.input).toBe(3450 + 1500);
    // Before the fix: serve billed the tracked context alone (3,450 in).
    expect(billed).toEqual(replaySummary);
    const after = served(server, session);
    const through = replayed.rows.slice(0, 4); // replay's run through its summary call
    const sum = (field: 'cachedInputTokens' | 'cacheWriteTokens') => through.reduce((total, r) => total + r[field], 0);
    expect([after.inputTokens, after.cachedInputTokens, after.cacheWriteTokens, after.costPico]).toEqual([row.cumulativeInputTokens, sum('cachedInputTokens'), sum('cacheWriteTokens'), String(row.cumulativeCostPico)]);
  });
});

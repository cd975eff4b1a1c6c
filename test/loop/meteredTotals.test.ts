/**
 * The run-totals field list is written once (loop/types.ts MeteredTotals, loop/accounts.ts meteredTotals)
 * and read by every report of a run: replay's outcome, a report's run record, serve's session summary. Their
 * keys keep the order the reports always gave them (the JSON outputs are unchanged), and their figures agree.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import { loadTraceFiles } from '../../src/import/index.js';
import { cacheWriteTokensOf, meteredTotals } from '../../src/loop/accounts.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { replayTrace } from '../../src/replay/replay.js';
import { runRecord } from '../../src/report/records.js';
import { openAiUsage } from '../../src/serve/reply.js';
import { startServer, type RunningServer, type SessionSummary } from '../../src/serve/index.js';
import type { Trace } from '../../src/trace/types.js';
import { get, post } from '../serve/client.js';

const METERED = ['failedCalls', 'toolCalls', 'inputTokens', 'cachedInputTokens', 'cacheWriteTokens', 'outputTokens', 'reasoningTokens'];
const prices = loadPriceTable();
let trace: Trace;
let server: RunningServer;

beforeAll(async () => {
  for await (const t of loadTraceFiles(['scenarios/failing-tool-retries.jsonl'])) trace = t;
  server = await startServer({ sources: { traces: [trace] }, prices, port: 0 });
});
afterAll(() => server.close());

describe('meteredTotals: one list for every report of a run', () => {
  it('copies exactly the metered figures, in order', () => {
    const from = { ...Object.fromEntries(METERED.map((key, i) => [key, i + 1])), calls: 99, costPico: 5 } as never;
    expect(Object.entries(meteredTotals(from))).toEqual(METERED.map((key, i) => [key, i + 1]));
  });

  it("keeps each report's key order: a run record's, a served session's", async () => {
    const replayed = replayTrace(trace, { brakes: NO_BRAKES, strategy: FULL_HISTORY, prices });
    const recordKeys = Object.keys(runRecord(replayed));
    expect(recordKeys.slice(recordKeys.indexOf('steps'), recordKeys.indexOf('costUsd') + 1)).toEqual(['steps', 'modelCalls', 'recordedCalls', 'backtracks', ...METERED, 'costUsd']);
    for (let i = 0; i < trace.calls.length; i++) await post(server.url, { model: 'm', messages: [{ role: 'user', content: 'go' }] }, { 'x-loopcost-session': 's' });
    const summary: SessionSummary = (await get(server.url, '/loopcost/sessions')).json.sessions[0];
    expect(Object.keys(summary)).toEqual(['id', 'kind', 'source', 'model', 'pricedAs', ...(summary.pricesAsOf === undefined ? [] : ['pricesAsOf']), 'cache', 'calls', 'steps', ...METERED, 'costPico', 'costUsd', 'ended', 'remainingCalls']);
    // The same figures as replay's, read by the same function.
    expect(meteredTotals(summary)).toEqual(meteredTotals(replayed));
    expect([summary.calls, summary.steps, summary.costPico]).toEqual([replayed.modelCalls, replayed.steps, String(replayed.costPico)]);
  });

  it('counts cache writes of both lifetimes together, in the totals and in a reply', () => {
    const usage = { input: 100, cached: 10, cacheWrite: 20, cacheWrite1h: 30, output: 5, reasoning: 0 };
    expect(cacheWriteTokensOf(usage)).toBe(50);
    expect(openAiUsage(usage).prompt_tokens_details.cache_write_tokens).toBe(50);
  });
});

/**
 * A recorded call's web searches (CallRecord.webSearchRequests) travel through `loopcost serve`: its usage
 * extension (`loopcost.usage.webSearches`, a failed call's `error.loopcost.usage` too) carries them, the
 * real loop's adapter reads them (ModelUsage.webSearchRequests), so a live run against serve pays their
 * fees as replay of the recording does, and its own recording keeps them.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { startServer, type RunningServer } from '../../src/serve/index.js';
import type { Trace } from '../../src/trace/types.js';
import { call, handPriced, handTable, toolCall, trace } from '../helpers.js';
import { post, sseData } from './client.js';
import { runOverHttp } from '../agent/overHttp.js';
import { figures, replayFigures, type Settings } from '../agent/traceDriven.js';
import { failedUsageOf } from '../../src/agent/openaiUsage.js';

/** $10 per 1,000 searches. */
const SEARCH_PICO = 10_000_000_000;
const pricing = { ...handPriced('searcher', { input: 3, output: 15, cached: 0.3, cacheWrite: 3.75 }), webSearchPico: SEARCH_PICO };
const table = handTable(pricing);

/** Four calls: 3 searches, a failed call billed its prompt and 1 search, none, 2 searches and the answer. */
const SEARCHING: Trace = {
  ...trace(
    [
      call(40, [toolCall('read', { path: 'a' }, 200)], { inputTokens: 900, webSearchRequests: 3 }),
      call(0, undefined, { inputTokens: 1_200, webSearchRequests: 1, failed: { status: 529, message: 'overloaded' } }),
      call(30, [toolCall('read', { path: 'b' }, 100)], { inputTokens: 1_200 }),
      call(60, undefined, { inputTokens: 1_400, webSearchRequests: 2, final: true }),
    ],
    { model: 'searcher', origin: 'recorded', outcome: 'completed' },
  ),
  source: 'searching',
};

const servers: RunningServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

async function serving(): Promise<RunningServer> {
  const server = await startServer({ sources: { traces: [SEARCHING] }, prices: table, cache: 'recorded' });
  servers.push(server);
  return server;
}

describe('serve: web searches in the usage it answers with', () => {
  it('loopcost.usage.webSearches says each call’s searches (absent: none), streamed the same; a failed call’s in error.loopcost.usage', async () => {
    const server = await serving();
    const ask = (extra: Record<string, unknown> = {}) => post(server.url, { model: 'searcher', messages: [{ role: 'user', content: 'go' }], ...extra }, { 'x-loopcost-session': 's' });
    const first = await ask();
    expect(first.json.loopcost.usage.webSearches).toBe(3);
    // Tokens ($0.0027 + $0.0006) and 3 searches ($0.03).
    expect(first.json.loopcost.costPico).toBe(String(2_700_000_000 + 600_000_000 + 3 * SEARCH_PICO));
    const failed = await ask();
    expect(failed.status).toBe(529);
    expect(failed.json.error.loopcost.usage.webSearches).toBe(1);
    expect(failedUsageOf(failed.json.error)?.webSearchRequests).toBe(1);
    const none = await ask();
    expect(none.json.loopcost.usage.webSearches).toBeUndefined();
    const streamed = await ask({ stream: true, stream_options: { include_usage: true } });
    const last = JSON.parse(sseData(streamed.json as string).at(-2)!);
    expect(last.loopcost.usage.webSearches).toBe(2);
  });

  it('the real loop against serve pays the searches as replay of the recording does', async () => {
    const server = await serving();
    const settings: Settings = { brakes: NO_BRAKES, strategy: { kind: 'full', cache: 'recorded' }, pricing };
    const run = await runOverHttp(server, [SEARCHING], 0, settings);
    const replayed = replayFigures(SEARCHING, settings);
    expect(figures(run)).toEqual(replayed);
    const unsearched = replayFigures({ ...SEARCHING, calls: SEARCHING.calls.map(({ webSearchRequests: _, ...rest }) => rest) }, settings);
    expect(run.costPico - unsearched.costPico).toBe(6 * SEARCH_PICO);
  });
});

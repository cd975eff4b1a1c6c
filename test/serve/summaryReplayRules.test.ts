/**
 * serve answers a summary request by replay's rules for one (loop/run.ts beforeCall, loop/summary.ts):
 * - after the last call of a recorded run that asked for no call after it — aborted by its AbortSignal, as
 *   one whose model gave up (kernel/gaveUp.ts endsAfterLastCall) — replay makes no summary call: serve
 *   answers the 409 past the end, and its totals are replay's;
 * - a summary call is billed by replay's summary meter (kernel meterSummaryCall), on the session's model or
 *   another: under cache `recorded` the cache serves its unchanged prefix as under `on`, and a model with a
 *   cache-write price (Anthropic-style) writes the rest of its prompt.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import { replayTrace } from '../../src/replay/replay.js';
import { startServer, type RunningServer } from '../../src/serve/index.js';
import type { Trace } from '../../src/trace/types.js';
import { tempDir } from '../cli/run.js';
import { call, handPriced, handTable, toolCall, trace } from '../helpers.js';
import { haltingModel, recordRun } from '../agent/recordedRuns.js';
import { post } from './client.js';

const mini = handPriced('mini', { input: 0.15, output: 0.6, cached: 0.075 }, 128_000);
/** Anthropic-style: it bills cache writes. */
const claude = handPriced('claude-sonnet-4', { input: 3, output: 15, cached: 0.3, cacheWrite: 3.75 }, 200_000);
const servers: RunningServer[] = [];
afterAll(() => Promise.all(servers.map((server) => server.close())));

async function serve(traces: Trace[], cache?: 'recorded'): Promise<RunningServer> {
  const server = await startServer({ sources: { traces }, prices: handTable(mini, claude), ...(cache ? { cache } : {}) });
  servers.push(server);
  return server;
}

const ask = (server: RunningServer, session: string, model = 'mini', purpose?: 'summary', messages: unknown[] = [{ role: 'user', content: 'go' }]) =>
  post(server.url, { model, messages, max_tokens: 200 }, { 'x-loopcost-session': session, 'x-loopcost-trace': '0', ...(purpose ? { 'x-loopcost-purpose': purpose } : {}) });
const served = (server: RunningServer, id: string) => server.sessions().sessions.find((s) => s.id === id)!;

/** A real run aborted by its first call's tool (its AbortSignal fired there), recorded as the real loop records it. */
async function abortedRecording(): Promise<Trace> {
  const clock = new VirtualClock();
  const model = haltingModel(mini.model, clock, 1000, { inputTokens: 400, outputTokens: 30 });
  const { real, recording } = await recordRun({ model, tools: [], brakes: NO_BRAKES, pricing: mini, clock, controller: new AbortController() }, join(tempDir(), 'aborted.jsonl'));
  expect(real.stop.reason).toBe('aborted');
  return recording;
}

describe('serve: a summary request by replay’s rules', () => {
  it('after an aborted recording’s last call: the 409 past the end, no summary billed, totals equal to replay', async () => {
    const recording = await abortedRecording();
    expect([recording.calls.length, recording.end.outcome]).toEqual([1, 'unknown']);
    const strategy: ContextStrategy = { kind: 'summary', summary: { triggerTokens: 1, keepSteps: 1, summaryTokens: 200 } };
    const replayed = replayTrace(recording, { brakes: NO_BRAKES, strategy, prices: handTable(mini, claude) });
    expect([replayed.stopReason, replayed.modelCalls, replayed.summaryCalls ?? 0]).toEqual(['trace_end', 1, 0]);
    const server = await serve([recording]);
    expect((await ask(server, 'aborted')).status).toBe(200);
    // Before the fix: answered 200 and billed, as after a run the brakes stopped.
    // The summary request of the run going on: its step sent back (one sending none is another run's: sessionReuse.test.ts).
    const summary = await ask(server, 'aborted', 'mini', 'summary', [{ role: 'user', content: 'go' }, { role: 'assistant', content: 'a step' }]);
    expect([summary.status, summary.json.error.code]).toEqual([409, 'loopcost_trace_ended']);
    const session = served(server, 'aborted');
    expect([session.calls, session.costPico, session.ended]).toEqual([replayed.modelCalls, String(replayed.costPico), true]);
  });

  /** Three steps, the last with a large tool result, then a final answer: the summary call is due before it. */
  const OPEN: Trace = { ...trace([call(50, [toolCall('a', { i: 0 }, 100)]), call(50, [toolCall('b', { i: 1 }, 100)]), call(50, [toolCall('c', { i: 2 }, 3000)]), call(50, undefined, { final: true })], { outcome: 'completed' }), source: 'open' };

  it.each([['claude-sonnet-4'], ['mini']])('a summary call on %s under cache recorded: billed usage and cost equal replay’s for the same summary', async (model) => {
    const strategy: ContextStrategy = { kind: 'summary', cache: 'recorded', summary: { triggerTokens: 2000, keepSteps: 1, summaryTokens: 200, ...(model === 'mini' ? {} : { model }) } };
    const replayed = replayTrace(OPEN, { brakes: NO_BRAKES, strategy, prices: handTable(mini, claude), keepSteps: true });
    expect([replayed.stopReason, replayed.summaryCalls]).toEqual(['completed', 1]);
    const row = replayed.rows[3]!; // the summary call, before the fourth recorded call
    expect(row.summary).toBe(true);
    const server = await serve([OPEN], 'recorded');
    const session = `open-${model}`;
    for (let i = 0; i < 3; i++) expect((await ask(server, session)).status).toBe(200);
    const summary = await ask(server, session, model, 'summary');
    expect(summary.status).toBe(200);
    const usage = summary.json.usage;
    const after = served(server, session);
    const billed = { input: usage.prompt_tokens, cached: usage.prompt_tokens_details.cached_tokens, cacheWrite: usage.prompt_tokens_details.cache_write_tokens, costPico: summary.json.loopcost.costPico };
    const replaySummary = { input: row.inputTokens, cached: row.cachedInputTokens, cacheWrite: row.cacheWriteTokens, costPico: String(replayed.summaryCostPico) };
    expect(billed).toEqual(replaySummary);
    // Before the fix: no cache writes on claude (its prompt not cacheable under `recorded`), none of the prefix served on mini.
    if (model === 'mini') expect(billed.cached).toBeGreaterThan(0);
    else expect([billed.cached, billed.cacheWrite]).toEqual([0, billed.input]);
    const through = replayed.rows.slice(0, 4); // replay's run through its summary call
    expect([after.costPico, after.cacheWriteTokens]).toEqual([String(row.cumulativeCostPico), through.reduce((total, r) => total + r.cacheWriteTokens, 0)]);
  });
});

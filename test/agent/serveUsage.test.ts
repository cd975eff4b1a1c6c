/**
 * The real loop's adapter bills what `loopcost serve` bills, end to end and with no help from the
 * harness: cache writes by lifetime (a Claude Code session's one-hour writes) and the usage a recorded
 * failed call was billed. The run's figures equal replay's.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { loadTraceFiles } from '../../src/import/index.js';
import { collectInputs } from '../../src/io/collectInputs.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { resolveTracePricing } from '../../src/replay/replay.js';
import { startServer, type RunningServer } from '../../src/serve/index.js';
import type { Trace } from '../../src/trace/types.js';
import { call, collectAsync, handPriced, handTable, toolCall, trace } from '../helpers.js';
import { post } from '../serve/client.js';
import { runOverHttp } from './overHttp.js';
import { figures, replayFigures, type Settings } from './traceDriven.js';

/** A Claude Code session (Opus 4.6): its main agent's 150 calls write the cache for an hour. */
const CLAUDE_CODE = '../shared/agent-logs/claude-code/258c7280-ae70-4798-800f-63464d01a85d.jsonl.gz';

const servers: RunningServer[] = [];
afterAll(() => Promise.all(servers.map((server) => server.close())));

async function overHttpAndReplay(traces: Trace[], index: number, settings: Settings, prices = loadPriceTable()) {
  const server = await startServer({ sources: { traces }, prices, cache: 'recorded' });
  servers.push(server);
  const run = await runOverHttp(server, traces, index, settings);
  return { run, overHttp: figures(run), replayed: replayFigures(traces[index]!, settings) };
}

describe("the real loop's adapter bills serve's answers as replay bills the recording", () => {
  it('a Claude Code main agent: one-hour cache writes read from the response, the run at replay’s $', async () => {
    const traces = await collectAsync(loadTraceFiles(collectInputs([CLAUDE_CODE])));
    const index = traces.findIndex((t) => t.source.endsWith('#main.1'));
    const main = traces[index]!;
    expect(main.calls[0]!.cacheWrite1hTokens).toBeGreaterThan(0);
    const settings: Settings = { brakes: { ...NO_BRAKES, maxSteps: 1_000 }, strategy: { kind: 'full', cache: 'recorded' }, pricing: resolveTracePricing(main, { prices: loadPriceTable() }) };
    const { overHttp, replayed } = await overHttpAndReplay(traces, index, settings);
    expect(overHttp).toEqual(replayed);
    expect(overHttp.costPico).toBeGreaterThan(11e12); // ~$11.96 (the adapter without writes bills ~$1.75 less)
  });

  it('a recorded failed call billed its prompt: the same figures', async () => {
    const pricing = handPriced('priced', { input: 5, output: 25, cached: 0.5, cacheWrite: 6.25 });
    const failing: Trace = {
      ...trace(
        [
          call(0, undefined, { inputTokens: 400, cacheWriteTokens: 300, failed: { status: 529, message: 'overloaded' } }),
          call(20, [toolCall('read', { path: 'a' }, 30)], { inputTokens: 420, cachedInputTokens: 300 }),
          call(10, undefined, { inputTokens: 470, cachedInputTokens: 420, final: true }),
        ],
        { model: 'priced', origin: 'recorded', outcome: 'completed' },
      ),
      source: 'failing',
    };
    const settings: Settings = { brakes: NO_BRAKES, strategy: { kind: 'full', cache: 'recorded' }, pricing };
    const { run, overHttp, replayed } = await overHttpAndReplay([failing], 0, settings, handTable(pricing));
    expect(overHttp).toEqual(replayed);
    expect([run.failedCalls, run.calls]).toEqual([1, 3]);
  });

  it("serve's standard usage carries the writes too (OpenRouter's prompt_tokens_details.cache_write_tokens), as the adapter reads them", async () => {
    const pricing = handPriced('priced', { input: 5, output: 25, cached: 0.5, cacheWrite: 6.25 });
    const writing = { ...trace([call(20, undefined, { inputTokens: 500, cacheWriteTokens: 300, cacheWrite1hTokens: 100, final: true })], { model: 'priced', origin: 'recorded' }), source: 'writing' };
    const server = await startServer({ sources: { traces: [writing] }, prices: handTable(pricing) });
    servers.push(server);
    const answer = await post(server.url, { model: 'priced', messages: [{ role: 'user', content: 'go' }] });
    expect(answer.json.usage.prompt_tokens_details).toEqual({ cached_tokens: 0, cache_write_tokens: 400 });
    expect(answer.json.loopcost.usage).toMatchObject({ cacheWrite: 300, cacheWrite1h: 100 });
  });
});

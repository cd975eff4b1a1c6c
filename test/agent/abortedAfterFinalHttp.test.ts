/**
 * An old recording of a run aborted after the last tool call of a call marked `final`
 * (test/fixtures/aborted-after-final/lone.jsonl, written before 2026-12-05; abortedAfterFinal.test.ts),
 * served over HTTP: `loopcost serve` answers its calls as every replay plays them (trace/replayedCalls.ts),
 * so it hands no `final` mark to the client for that call — the mark completed nothing. The real loop → openai
 * SDK → serve (overHttp.ts) then ends where the replay does (trace_end with the run's detail), and the
 * session's figures are the replay's. Before the fix serve handed the mark over and the run over HTTP completed.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { loadTraceFile } from '../../src/import/index.js';
import { startServer, type RunningServer } from '../../src/serve/index.js';
import { pricings } from '../core/arbitraries.js';
import { handTable } from '../helpers.js';
import { runOverHttp } from './overHttp.js';
import { serveClient } from './serveClient.js';
import { figures, replayFigures, type Settings } from './traceDriven.js';

const LONE = 'test/fixtures/aborted-after-final/lone.jsonl';
const DETAIL = 'stopped by its AbortSignal after 2 steps';
const pricing = { ...pricings[0]!, model: 'gpt-4o-mini' };
const asRecorded: Settings = { brakes: NO_BRAKES, strategy: { kind: 'full', cache: 'recorded' }, pricing };

describe('serve: an old recording aborted after a final call’s last tool call', () => {
  const servers: RunningServer[] = [];
  afterAll(async () => Promise.all(servers.map((server) => server.close())));
  const serve = async () => {
    const old = (await loadTraceFile(LONE))[0]!;
    expect(old.calls.at(-1)!.final).toBe(true);
    const server = await startServer({ sources: { traces: [old] }, prices: handTable(pricing), cache: 'recorded' });
    servers.push(server);
    return { old, server };
  };

  it('answers the last call without its final mark: the real loop over HTTP does not complete, and ends as the replay does', async () => {
    const { old, server } = await serve();
    const real = figures(await runOverHttp(server, [old], 0, asRecorded));
    const replayed = replayFigures(old, asRecorded);
    expect([replayed.stopReason, replayed.stopDetail, replayed.steps]).toEqual(['trace_end', DETAIL, 2]);
    expect(real).toEqual(replayed);
  });

  it('the session’s answer to that call carries no final mark, and the session ends with it (no call is asked after an abort)', async () => {
    const { server } = await serve();
    const { client, last } = serveClient(server, { session: 'old-abort', traceIndex: 0 });
    const ask = () => client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'go' }] });
    await ask();
    await ask();
    expect(last().record.final).toBeUndefined();
    expect(last().record.toolCalls?.map((tool) => tool.name)).toEqual(['read', 'halt']);
    const sessions = (await (await fetch(`${server.url}/loopcost/sessions`)).json()) as { sessions: { id: string; calls: number; steps: number; ended: boolean }[] };
    expect(sessions.sessions.find((s) => s.id === 'old-abort')).toMatchObject({ calls: 2, steps: 2, ended: true });
  });
});

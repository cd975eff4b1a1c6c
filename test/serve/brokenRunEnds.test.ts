/**
 * A synthetic run whose spend passes exact picodollars (one answer past $9,007) ends there, as the CLI ends
 * it, and its session is retired at once with the totals of the calls answered. Before, the 422 named the
 * CLI's flags (`set --max-steps, --max-cost or --context-window`), which a serve client cannot set; the session
 * stayed in progress (`ended: false`, still counted toward --max-sessions), drew a new answer at every later
 * request, and GET /loopcost/sessions reported its spend beyond exact arithmetic ($180,143,985,094.82 after
 * three requests, `calls: 3` for none answered).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPriceTable } from '../../src/pricing/index.js';
import { loadScenarioFile } from '../../src/scenario/load.js';
import { startServer, type RunningServer } from '../../src/serve/index.js';
import { oneEntryScenario, tempDir } from '../cli/run.js';
import { post } from './client.js';

/** One call's output at the size cap: it costs more than $9,007 unless the request's max_tokens cuts it. */
const DEAR = oneEntryScenario(tempDir(), 'dear.yaml', { model: 'gemini-2.5-pro' }, { outputTokens: String(Number.MAX_SAFE_INTEGER) });
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ sources: { scenario: { scenario: loadScenarioFile(DEAR) } }, prices: loadPriceTable(), maxSessions: 1 });
});
afterAll(() => server.close());

const ask = (session: string, extra: Record<string, unknown> = {}) => post(server.url, { model: 'gemini-2.5-pro', messages: [{ role: 'user', content: 'go' }], ...extra }, { 'x-loopcost-session': session });

describe('serve: a synthetic run past $9,007', () => {
  it('is answered 422 in words a serve client can act on, then retired with exact totals; every later request gets the same 422', async () => {
    const first = await ask('dear');
    expect([first.status, first.json.error.code]).toEqual([422, 'cost_out_of_range']);
    expect(first.json.error.message).toContain(`${DEAR}#1: one run costs more than $9,007`);
    expect(first.json.error.message).not.toMatch(/--max-steps|--max-cost|--context-window/);
    expect(first.json.error.message).toMatch(/send max_tokens/);
    const [session] = server.sessions().sessions;
    expect(session).toMatchObject({ id: 'dear', ended: true, calls: 0, costPico: '0', costUsd: '0' });
    for (let i = 0; i < 2; i++) {
      const again = await ask('dear');
      expect([again.status, again.json.error.message]).toEqual([422, first.json.error.message]);
    }
    expect(server.sessions().sessions[0]).toEqual(session);
  });

  it('no longer holds a place: the next session (run 2, --max-sessions 1) is answered, its answer cut at the max_tokens it sends', async () => {
    const next = await ask('next', { max_tokens: 100 });
    expect(next.status, JSON.stringify(next.json)).toBe(200);
    expect([next.json.usage.completion_tokens, next.json.choices[0].finish_reason]).toEqual([100, 'length']);
    expect(server.sessions().sessions.find((s) => s.id === 'next')!.source).toBe(`${DEAR}#2`);
  });
});

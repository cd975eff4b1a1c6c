/**
 * A request asking for several choices (`n: 3`) was answered 200 with one: a client that reads
 * `choices[1]` met nothing, and one that samples n answers thought it had. serve answers one choice a
 * request (each answer is one call of the run it replays, billed once), so `n` past 1 — or a count that is
 * none (0, 1.5, "2") — is a 400 in OpenAI's error shape naming `n`; `n: 1` and `n: null` are answered.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTraceFile } from '../../src/import/index.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { startServer, type RunningServer } from '../../src/serve/index.js';
import { ONE_CALL_RUN, tempDir } from '../cli/run.js';
import { expectOpenAiError, post } from './client.js';

let server: RunningServer;

beforeAll(async () => {
  const file = join(tempDir(), 'run.jsonl');
  writeFileSync(file, ONE_CALL_RUN);
  server = await startServer({ sources: { traces: await loadTraceFile(file) }, prices: loadPriceTable(), port: 0 });
});
afterAll(() => server.close());

const ask = (session: string, n: unknown) => post(server.url, { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], n }, { 'x-loopcost-session': session });

describe('serve: n, the choices asked for', () => {
  it.each([3, 2, 0, 1.5, '2', -1])('n: %j is a 400 naming n, that serve answers one choice, and what to send', async (n) => {
    const answer = await ask(`n-${String(n)}`, n);
    expect(answer.status).toBe(400);
    expectOpenAiError(answer);
    expect(answer.json.error).toMatchObject({ type: 'invalid_request_error', param: 'n' });
    expect(answer.json.error.message).toBe(`n: is ${JSON.stringify(n)}: loopcost serve answers one choice per request (each answer is one call of the run it replays, billed once): send n: 1, or leave it out`);
  });

  it('n: 1 and n: null are answered with one choice', async () => {
    for (const n of [1, null]) {
      const answer = await ask(`n-ok-${String(n)}`, n);
      expect(answer.status).toBe(200);
      expect(answer.json.choices).toHaveLength(1);
    }
  });
});

/**
 * A serve server started for a test file's hostile-body tests: the reference trace (its first call answers 150
 * output tokens), closed after the file; `send` posts a body (a string, sent as is) in a session of its own.
 */
import { afterAll, beforeAll } from 'vitest';
import { loadTraceFile } from '../../src/import/index.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { startServer, type RunningServer } from '../../src/serve/index.js';
import type { Trace } from '../../src/trace/types.js';
import { post } from './client.js';

export function referenceServer(): { url: () => string; send: (body: string) => ReturnType<typeof post> } {
  let server: RunningServer | undefined;
  let sessions = 0;
  beforeAll(async () => {
    const traces = (await loadTraceFile('scenarios/reference-sum-of-squares.jsonl')) as Trace[];
    server = await startServer({ sources: { traces }, prices: loadPriceTable(), port: 0 });
  });
  afterAll(() => server?.close());
  const url = () => server!.url;
  return { url, send: (body) => post(url(), body, { 'x-loopcost-session': `s${++sessions}` }) };
}

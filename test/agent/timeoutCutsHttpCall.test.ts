/**
 * End to end over HTTP, on the wall clock: openAIChatModel hands the loop's signal to its request, so a
 * provider that never answers is cut at the run's timeout (agent/deadline.ts), not after the adapter's own
 * 60 s per-attempt timeout. `loopcost serve` answers at once (it has no latency option), so the provider
 * here is a bare HTTP server that takes the request and never answers. Before, the run waited on it: this
 * test failed by vitest's timeout.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openAIChatModel } from '../../src/agent/openaiChat.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { memoryRecorder } from '../../src/agent/recorder.js';
import { CUT_MESSAGE } from '../../src/agent/deadline.js';
import { pricings } from '../core/arbitraries.js';

const pricing = pricings[0]!;
let server: Server;
let baseURL: string;
/** Requests taken and left unanswered; each one closed when the client gives it up. */
let closed = 0;

beforeAll(async () => {
  server = createServer((request) => request.on('close', () => (closed += 1)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('over HTTP, a provider that never answers', () => {
  it('is cut at the run timeout: the request aborted, the call recorded cut, stopped timeout', { timeout: 5000 }, async () => {
    const recorder = memoryRecorder();
    const model = openAIChatModel({ model: pricing.model, baseURL, apiKey: 'test' });
    const run = await runAgentLoop({ model, tools: [], brakes: { ...NO_BRAKES, timeoutMs: 300 }, pricing, recorder, context: { system: 's', goal: 'g', countTokens: (text) => text.length } });
    expect(run.stop.reason).toBe('timeout');
    // The elapsed time as the wall clock had it (a loaded machine wakes the timer late: 0.83 s seen at load 17).
    expect(run.stop.detail).toMatch(/^\d\.\d{3} s elapsed, limit 0\.3 s; the model call in flight was cut off/);
    expect(Number(run.stop.detail!.split(' ')[0])).toBeGreaterThanOrEqual(0.3);
    // Sent, never answered: billed at the loop's prompt estimate (the provider may have answered it), marked estimated.
    const [cut] = recorder.trace().calls;
    expect([run.steps, run.costPico]).toEqual([1, cut!.inputTokens! * pricing.base.input]);
    expect(cut!.inputTokens).toBeGreaterThan(0);
    expect(run.elapsedMs).toBeGreaterThan(300);
    expect(run.elapsedMs).toBeLessThan(2000);
    expect(recorder.trace().calls).toMatchObject([{ outputTokens: 0, failed: { message: CUT_MESSAGE, estimated: true } }]);
    // The server hears the request closed soon after (later on a loaded machine).
    await vi.waitFor(() => expect(closed).toBe(1), { timeout: 2000 });
  });
});

/**
 * A model call sent and never read (review R2: F2, F4, F5). Over HTTP, against a server that cuts the
 * connection while the body is read, or stalls it: before, a cut connection threw a raw `TypeError:
 * terminated` out of runAgentLoop (the paid call lost from the recording, not retried), a stalled body hung
 * past the per-attempt timeout (which covered only the headers), and an attempt that timed out was billed $0
 * (a $0.002 budget let $0.0048 through). Now each is a failed call, retried, billed at the loop's own prompt
 * estimate (marked `estimated`) and counted toward the budget at once; the recording replays to the run's
 * figures, and on seeded random runs whose failures are unread the run, its recording and its replay agree.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { openAIChatModel } from '../../src/agent/openaiChat.js';
import { fileRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { ModelCallError, type Model } from '../../src/agent/types.js';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import { loadTraceFile } from '../../src/import/index.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { tempDir } from '../cli/run.js';
import { pricings } from '../core/arbitraries.js';
import { libraryBrakesArb, loopingRunOptions, loopingTurnArb } from './realLoopRuns.js';
import { figures, replayFigures, type Settings } from './traceDriven.js';

type Behaviour = 'cut' | 'stall' | 'answer';
const scripts = new Map<string, Behaviour[]>();
const FINAL = JSON.stringify({ id: 'r', object: 'chat.completion', created: 0, model: 'gpt-4o-mini', choices: [{ index: 0, message: { role: 'assistant', content: 'done' }, finish_reason: 'stop' }], usage: { prompt_tokens: 70, completion_tokens: 7 } });
let server: Server;
let baseURL: string;
const stalled: ServerResponse[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const behaviour = scripts.get(String(request.headers['x-loopcost-session']))?.shift() ?? 'answer';
      if (behaviour === 'answer') return void response.writeHead(200, { 'content-type': 'application/json' }).end(FINAL);
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(FINAL.length) });
      response.write(FINAL.slice(0, 40));
      if (behaviour === 'cut') setTimeout(() => response.socket?.destroy(), 20);
      else stalled.push(response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const pricing = loadPriceTable().resolve('gpt-4o-mini');
/** gpt-4o-mini: $0.15 / $0.60 a million tokens, in picodollars a token. */
const cost = (input: number, output: number) => input * 150_000 + output * 600_000;
let sessions = 0;

/** `script` then answers, over HTTP (per-attempt timeout 400 ms), recorded to a file; the run and its recording read back. */
async function live(script: Behaviour[], options: { brakes?: BrakeConfig; system?: string } = {}) {
  const session = `u${++sessions}`;
  scripts.set(session, [...script]);
  const path = join(tempDir(), `${session}.jsonl`);
  const model = openAIChatModel({ model: 'gpt-4o-mini', baseURL, apiKey: 'k', timeoutMs: 400, headers: { 'x-loopcost-session': session } });
  const brakes = options.brakes ?? { ...NO_BRAKES, maxSteps: 5 };
  const run = await runAgentLoop({ model, tools: [], brakes, context: { system: options.system ?? 's', goal: 'g', countTokens: (text) => text.length }, pricing, clock: new VirtualClock(), retry: { maxRetries: 2, backoffMs: () => 0 }, recorder: fileRecorder(path) });
  const [recording] = await loadTraceFile(path);
  const settings: Settings = { brakes, strategy: { kind: 'full', cache: 'recorded' }, pricing };
  expect(figures(run)).toEqual(replayFigures(recording!, settings));
  return { run, recording: recording! };
}

describe('over HTTP, a call sent and never read', () => {
  it('a connection lost while the body is read: a failed call, retried, billed at the prompt estimate, recorded; no TypeError thrown', { timeout: 10_000 }, async () => {
    const { run, recording } = await live(['cut']);
    expect([run.stop.reason, run.finalText, run.calls, run.failedCalls]).toEqual(['completed', 'done', 2, 1]);
    expect(recording.calls[0]).toMatchObject({ inputTokens: 2, outputTokens: 0, failed: { estimated: true } });
    expect(recording.calls[0]!.failed!.message).toMatch(/^the connection was lost while the response was read: /);
    expect(run.costPico).toBe(cost(2, 0) + cost(70, 7));
  });

  it('a body that stalls: cut at the per-attempt timeout (which covers reading it), retried, billed at the prompt estimate', { timeout: 10_000 }, async () => {
    const started = performance.now();
    const { run, recording } = await live(['stall', 'stall']);
    expect(performance.now() - started).toBeLessThan(5000);
    expect([run.stop.reason, run.calls, run.failedCalls]).toEqual(['completed', 3, 2]);
    expect(recording.calls.slice(0, 2)).toMatchObject([{ inputTokens: 2, failed: { message: 'Request timed out.', estimated: true } }, { inputTokens: 2, failed: { message: 'Request timed out.', estimated: true } }]);
    expect(run.costPico).toBe(2 * cost(2, 0) + cost(70, 7));
    for (const response of stalled.splice(0)) response.destroy();
  });

  it('an attempt that timed out counts toward the budget at once: the budget stops the run before the retry', { timeout: 10_000 }, async () => {
    // A 1,000-token prompt ($0.00015): the budget ($0.0001) is spent by the lost attempt alone. Before, it was billed $0 and the retry made.
    const brakes: BrakeConfig = { ...NO_BRAKES, maxSteps: 5, maxCostPico: 100_000_000, budgetMode: 'check' };
    const { run, recording } = await live(['stall'], { brakes, system: 'x'.repeat(999) });
    expect([run.stop.reason, run.calls, run.costPico]).toEqual(['budget', 1, cost(1000, 0)]);
    expect(recording.calls).toMatchObject([{ inputTokens: 1000, failed: { estimated: true } }]);
    for (const response of stalled.splice(0)) response.destroy();
  });
});

/** A looping run's model whose failures without usage are, by `unread`'s draws, calls sent and never read. */
function unreadFailures(model: Model, unread: readonly boolean[]): Model {
  let failures = 0;
  return {
    name: model.name,
    async call(request) {
      try {
        return await model.call(request);
      } catch (error) {
        if (!(error instanceof ModelCallError) || error.options.usage !== undefined || unread[failures++ % unread.length] !== true) throw error;
        throw new ModelCallError(error.message, { ...error.options, unread: true });
      }
    },
  };
}

describe('seeded: runs whose failed calls are sent and never read', () => {
  it('on 200 looping runs under random brakes: the run, its recording (each unread call estimated) and the replay agree, exactly', async () => {
    const dir = tempDir();
    let run = 0;
    let estimated = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(loopingTurnArb, { maxLength: 10 }), libraryBrakesArb, fc.constantFrom(...pricings), fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }), async (turns, brakes, pricing, unread) => {
        const clock = new VirtualClock();
        const options = loopingRunOptions(turns, brakes, pricing, clock);
        const path = join(dir, `run${run++}.jsonl`);
        const real = await runAgentLoop({ ...options, model: unreadFailures(options.model, unread), recorder: fileRecorder(path) }).catch(() => null);
        if (real === null) return; // An adapter's bad failure (realLoopRuns.ts badFailure): not this test's.
        const [recording] = await loadTraceFile(path);
        if (recording!.calls.some((call) => call.failed?.estimated === true)) estimated += 1;
        const { elapsedMs: _e, ...replayed } = replayFigures(recording!, { brakes, strategy: { kind: 'full', cache: 'recorded' }, pricing });
        const { elapsedMs: _r, ...ran } = figures(real);
        expect({ ...ran, stopReason: ran.stopReason === 'aborted' ? 'trace_end' : ran.stopReason }).toEqual(replayed);
      }),
      { numRuns: 200, seed: 2323 },
    );
    expect(estimated).toBeGreaterThanOrEqual(5); // Runs with a call billed at its estimate (6 at this seed).
  });
});

/**
 * A live recording whose model gave up (its last call failed and was not retried), served by `loopcost
 * serve` to the real loop through the OpenAI adapter, ends at that failed call as its replay does and as
 * the in-process double (traceModel) does: serve marks that answer (`x-should-retry: false`,
 * `error.loopcost.gaveUp`), the adapter ends the run trace_end with the recorded failure as detail — no
 * retry, no brake checked after it. A recorded failure the recorded run retried is still retried.
 */
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { openAIChatModel } from '../../src/agent/openaiChat.js';
import { fileRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { ModelCallError, type AgentTool, type Model, type ModelTurn } from '../../src/agent/types.js';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import { loadTraceFile } from '../../src/import/index.js';
import { replayTrace } from '../../src/replay/replay.js';
import { startServer, type RunningServer } from '../../src/serve/index.js';
import type { Trace } from '../../src/trace/types.js';
import { tempDir } from '../cli/run.js';
import { pricings } from '../core/arbitraries.js';
import { handTable } from '../helpers.js';
import { figures } from './traceDriven.js';
import { serveClient } from './serveClient.js';

const pricing = pricings[0]!;
const RETRY = { maxRetries: 1, backoffMs: () => 0 };
const tools: AgentTool[] = [{ name: 'read', description: 'reads', parameters: { type: 'object' }, run: () => 'ok' }];
const context = { system: 'system', goal: 'goal', countTokens: (text: string) => text.length };

/** One step calling `read`, then every call fails with 500 (billed 60 prompt tokens): retryable or not. */
function failingModel(retryable: boolean): Model {
  let calls = 0;
  return {
    name: pricing.model,
    async call(): Promise<ModelTurn> {
      calls += 1;
      if (calls === 1) return { text: null, toolCalls: [{ id: 'call_1', name: 'read', arguments: '{}' }], usage: { inputTokens: 40, outputTokens: 30 } };
      throw new ModelCallError('busy', { status: 500, retryable, usage: { inputTokens: 60, outputTokens: 0 } });
    },
  };
}

/** The live run (retried once when `retryable`) and its recording as read back. */
async function recordedRun(retryable: boolean): Promise<Trace> {
  const path = join(tempDir(), 'run.jsonl');
  await runAgentLoop({ model: failingModel(retryable), tools, brakes: NO_BRAKES, unbounded: true, context, pricing, clock: new VirtualClock(), retry: RETRY, recorder: fileRecorder(path) });
  const [recording] = await loadTraceFile(path);
  return recording!;
}

/** Replay's figures and the real loop's over HTTP (the OpenAI adapter on `client`), but for elapsed time (the HTTP run's clock stands still). */
async function bothSides(recording: Trace, brakes: BrakeConfig, client: OpenAI) {
  const over = await runAgentLoop({ model: openAIChatModel({ model: pricing.model, client }), tools, brakes, context, pricing, clock: new VirtualClock(), retry: RETRY });
  const replayed = replayTrace(recording, { brakes, strategy: { kind: 'full', cache: 'recorded' }, pricing, prices: handTable(pricing) });
  const { elapsedMs: _a, ...http } = figures(over);
  const { elapsedMs: _b, ...replay } = figures(replayed);
  return { http, replay };
}

/** The brakes of a recording not written by a real loop (no `live`): what they say right after its last call. */
function importedStop(recording: Trace, brakes: BrakeConfig): string {
  const { live: _live, ...header } = recording.header;
  return replayTrace({ ...recording, header }, { brakes, strategy: { kind: 'full' }, pricing, prices: handTable(pricing) }).stopReason;
}

/** A client that counts the requests it sends. */
function countingClient(server: RunningServer, session: string, maxRetries: number) {
  let requests = 0;
  const counting: typeof fetch = (input, init) => {
    requests += 1;
    return fetch(input, init);
  };
  const client = new OpenAI({ apiKey: 'loopcost', baseURL: `${server.url}/v1`, maxRetries, fetch: counting, defaultHeaders: { 'x-loopcost-session': session, 'x-loopcost-trace': '0' } });
  return { client, requests: () => requests };
}

describe('a recording whose model gave up, over HTTP (loopcost serve → OpenAI adapter → real loop) = its replay', () => {
  const servers: RunningServer[] = [];
  afterAll(async () => Promise.all(servers.map((s) => s.close())));
  const serving = async (recording: Trace) => {
    const server = await startServer({ sources: { traces: [recording] }, prices: handTable(pricing), cache: 'recorded' });
    servers.push(server);
    return server;
  };

  it('a failed call not retried, under a step cap and a budget due right after it: trace_end with the recorded failure, the failure billed, no retry', async () => {
    const recording = await recordedRun(false);
    expect(recording.end).toMatchObject({ outcome: 'error', status: 'model call failed: 500 busy; not retried' });
    const spent = replayTrace(recording, { brakes: NO_BRAKES, strategy: { kind: 'full' }, pricing, prices: handTable(pricing) }).costPico;
    const server = await serving(recording);
    for (const brakes of [{ ...NO_BRAKES, maxSteps: 2 }, { ...NO_BRAKES, maxCostPico: spent }]) {
      // Due right after the failure: a recording no real loop wrote stops there at the brake.
      expect(['max_steps', 'budget']).toContain(importedStop(recording, brakes));
      const { client, requests } = countingClient(server, `not-retried-${brakes.maxSteps ?? 'budget'}`, 0);
      const { http, replay } = await bothSides(recording, brakes, client);
      expect(http).toEqual(replay);
      expect([http.stopReason, http.stopDetail, http.steps, http.calls, http.costPico]).toEqual(['trace_end', 'model call failed: 500 busy; not retried', 2, 2, spent]);
      // Asked for no call past the failure (before the fix: a retry, answered with the 409 past the end).
      expect(requests()).toBe(2);
    }
  });

  it("an SDK that retries 5xx by itself (maxRetries 2) is told not to retry the give-up (x-should-retry: false)", async () => {
    const recording = await recordedRun(false);
    const server = await serving(recording);
    const { client, requests } = countingClient(server, 'sdk-retries', 2);
    const { http, replay } = await bothSides(recording, { ...NO_BRAKES, maxSteps: 2 }, client);
    expect(http).toEqual(replay);
    expect(requests()).toBe(2);
  });

  it('a recorded failure the run retried is retried (its retry gets the next recorded call); the last one, where the model gave up, ends the run', async () => {
    const recording = await recordedRun(true);
    expect(recording.calls.map((call) => call.failed?.status ?? 'ok')).toEqual(['ok', 500, 500]);
    expect(recording.end.status).toBe('model call failed: 500 busy; gave up after 1 retries');
    const server = await serving(recording);
    const brakes: BrakeConfig = { ...NO_BRAKES, maxSteps: 3 };
    expect(importedStop(recording, brakes)).toBe('max_steps');
    const { client, requests } = countingClient(server, 'retried', 0);
    const { http, replay } = await bothSides(recording, brakes, client);
    expect(http).toEqual(replay);
    expect([http.stopReason, http.stopDetail, http.steps, http.calls]).toEqual(['trace_end', 'model call failed: 500 busy; gave up after 1 retries', 3, 3]);
    expect(requests()).toBe(3);
    // The same over serveClient (the parity harness's client): the retried failure answered `x-should-retry: true`, without the mark.
    const { client: plain } = serveClient(server, { session: 'retried-plain', traceIndex: 0 });
    await plain.chat.completions.create({ model: pricing.model, messages: [{ role: 'user', content: 'g' }] });
    const retried = await plain.chat.completions.create({ model: pricing.model, messages: [{ role: 'user', content: 'g' }] }).catch((error: unknown) => error);
    expect(retried).toBeInstanceOf(OpenAI.APIError);
    expect((retried as InstanceType<typeof OpenAI.APIError>).headers?.get('x-should-retry')).toBe('true');
    expect(((retried as InstanceType<typeof OpenAI.APIError>).error as { loopcost?: { gaveUp?: unknown } }).loopcost?.gaveUp).toBeUndefined();
    const gaveUp = (await plain.chat.completions.create({ model: pricing.model, messages: [{ role: 'user', content: 'g' }] }).catch((error: unknown) => error)) as InstanceType<typeof OpenAI.APIError>;
    expect(gaveUp.headers?.get('x-should-retry')).toBe('false');
    expect((gaveUp.error as { loopcost?: Record<string, unknown> }).loopcost).toMatchObject({ gaveUp: true, recordedOutcome: 'error', recordedStatus: 'model call failed: 500 busy; gave up after 1 retries' });
  });
});

/**
 * A `client` of openAIChatModel whose chat.completions.create() returns no APIPromise of the `openai` SDK — a
 * JavaScript wrapper or mock returning a plain promise (user review, round 31). Before, the run threw
 * `TypeError: client.chat.completions.create(...).asResponse is not a function`, hiding what was wrong, and
 * the wrapper's rejected promise was left unhandled (Node exits on it). Now such a client is refused at its
 * first call with a UserError naming `client` and what to pass, no rejection left unhandled; a client of the
 * shape OpenAIChatClient types (create() returning something with asResponse()) still runs.
 */
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { openAIChatModel, type OpenAIChatClient } from '../../src/agent/openaiChat.js';
import { memoryRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import type { ErrorWithPartialRun } from '../../src/agent/thrownRun.js';
import type { AgentRunResult } from '../../src/agent/types.js';
import { UserError } from '../../src/errors.js';
import { MINI } from '../helpers.js';
import { unhandledRejections } from './netDoubles.js';

const FINAL = { id: 'r', object: 'chat.completion', created: 0, model: 'gpt-4o-mini', choices: [{ index: 0, message: { role: 'assistant', content: 'done' }, finish_reason: 'stop' }], usage: { prompt_tokens: 70, completion_tokens: 7 } };

const unhandled = unhandledRejections();

/** Lets Node report a rejection left unhandled (it does so once the microtasks of the turn have run). */
const settled = () => new Promise((resolve) => setTimeout(resolve, 50));

/** runAgentLoop with `client` (as a JavaScript caller passes it: no type check), its outcome and recording. */
async function runWith(client: unknown) {
  const recorder = memoryRecorder();
  const model = openAIChatModel({ model: 'gpt-4o-mini', client: client as OpenAIChatClient });
  const outcome: { run?: AgentRunResult; thrown?: unknown } = await runAgentLoop({ model, tools: [], brakes: { maxSteps: 5 }, context: { system: 's', goal: 'g' }, pricing: { ...MINI, requested: 'gpt-4o-mini' }, clock: new VirtualClock(), retry: { maxRetries: 3, backoffMs: () => 0 }, recorder }).then(
    (run) => ({ run }),
    (thrown: unknown) => ({ thrown }),
  );
  await settled();
  return { ...outcome, recording: recorder.trace() };
}

function expectClientRefused(thrown: unknown, returned: string): void {
  expect(thrown).toBeInstanceOf(UserError);
  const [issue] = (thrown as UserError).issues;
  expect(issue).toMatchObject({ file: '<openAIChatModel options>', field: 'client', code: 'client_not_sdk' });
  expect(issue!.message).toContain(`its chat.completions.create() returned ${returned}, not the openai SDK's APIPromise (no asResponse())`);
  expect(issue!.hint).toContain('new OpenAI({ fetch })');
  expect((thrown as ErrorWithPartialRun).partialRun).toMatchObject({ stop: { reason: 'trace_end' }, calls: 0 });
}

describe("a client whose create() returns no SDK APIPromise: refused at its first call, naming 'client'", () => {
  it('one that rejects (a wrapper that failed): a UserError, not a TypeError, the run ended and recorded, its rejection handled', async () => {
    let calls = 0;
    const wrapper = { baseURL: 'http://wrapper/v1', chat: { completions: { create: async () => (calls++, Promise.reject(new Error('wrapped client failed'))) } } };
    const { thrown, recording } = await runWith(wrapper);
    expectClientRefused(thrown, 'a plain promise');
    expect(calls).toBe(1); // Never retried: every call would be refused the same.
    expect(recording.end).toMatchObject({ outcome: 'error' });
    expect(unhandled.reasons).toEqual([]);
  });

  it('one that resolves to a completion (a mock): refused the same, nothing unhandled', async () => {
    const { thrown } = await runWith({ baseURL: 'http://mock/v1', chat: { completions: { create: async () => FINAL } } });
    expectClientRefused(thrown, 'a plain promise');
    expect(unhandled.reasons).toEqual([]);
  });

  it('one that returns an object that is no promise: refused the same', async () => {
    const { thrown } = await runWith({ baseURL: 'http://mock/v1', chat: { completions: { create: () => FINAL } } });
    expectClientRefused(thrown, 'an object');
  });

  it("a client of OpenAIChatClient's shape (create() returning asResponse()) runs, and so does the SDK's with a fetch of its own", async () => {
    const answer = () => new Response(JSON.stringify(FINAL), { status: 200, headers: { 'content-type': 'application/json' } });
    const typed = { baseURL: 'http://mock/v1', chat: { completions: { create: () => ({ asResponse: async () => answer() }) } } };
    const sdk = new OpenAI({ apiKey: 'k', baseURL: 'http://127.0.0.1:9/v1', maxRetries: 0, fetch: async () => answer() });
    for (const client of [typed, sdk]) {
      const { run } = await runWith(client);
      expect([run?.stop.reason, run?.finalText, run?.costPico]).toEqual(['completed', 'done', 70 * 150_000 + 7 * 600_000]);
    }
    expect(unhandled.reasons).toEqual([]);
  });
});

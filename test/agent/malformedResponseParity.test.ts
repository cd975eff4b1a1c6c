/**
 * The real loop → openAIChatModel → HTTP → a scripted OpenAI-compatible server that answers 200 with a
 * malformed or empty response, then a real answer. Before the fix each of these threw a raw TypeError or
 * SyntaxError out of runAgentLoop (the paid call lost from the cost and the recording), or ended the run
 * `completed` on an empty answer. Now: a body that is no chat completion is a failed call (billed its usage,
 * recorded, retried), an empty response an unparseable step, a malformed tool call no throw — and the run's
 * cost is the recording's and the replay's, exact picodollars (with the trace-driven loop on the recording too).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/agent/clock.js';
import { openAIChatModel } from '../../src/agent/openaiChat.js';
import { fileRecorder } from '../../src/agent/recorder.js';
import { runAgentLoop } from '../../src/agent/run.js';
import { defineTool } from '../../src/agent/tools.js';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import { loadTraceFile } from '../../src/import/index.js';
import { usdToPico } from '../../src/money.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { tempDir } from '../cli/run.js';
import { figures, replayFigures, runTraceDriven, type Settings } from './traceDriven.js';

/** One scripted answer: status 200 unless said, the body as sent, JSON unless `contentType` says otherwise. */
interface Answer {
  body: string;
  contentType?: string;
}

const USAGE = { prompt_tokens: 50, completion_tokens: 5 };
const json = (value: unknown): Answer => ({ body: JSON.stringify(value) });
const completion = (message: object, finish = 'stop', usage: object | undefined = USAGE) => json({ id: 'r', object: 'chat.completion', created: 0, model: 'gpt-4o-mini', choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }], ...(usage ? { usage } : {}) });
const callingWith = (call: object) => completion({ content: null, tool_calls: [call] }, 'tool_calls');
const FINAL = completion({ content: 'done' }, 'stop', { prompt_tokens: 70, completion_tokens: 7 });

const scripts = new Map<string, Answer[]>();
let server: Server;
let baseURL: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const answer = scripts.get(String(request.headers['x-loopcost-session']))?.shift() ?? FINAL;
      response.writeHead(200, { 'content-type': answer.contentType ?? 'application/json' });
      response.end(answer.body);
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
const settings: Settings = { brakes: { ...NO_BRAKES, maxSteps: 6 } as BrakeConfig, strategy: { kind: 'full', cache: 'recorded' }, pricing };
let sessions = 0;

/** The script, then FINAL, run live and recorded; the recording read back, replayed and driven through the loop. */
async function live(script: Answer[]) {
  const session = `s${++sessions}`;
  scripts.set(session, [...script]);
  const path = join(tempDir(), `${session}.jsonl`);
  const argsSeen: unknown[] = [];
  const flaky = defineTool({ name: 'flaky', description: 'x', parameters: { type: 'object' }, run: (args) => (argsSeen.push(args), 'ok') });
  const model = openAIChatModel({ model: 'gpt-4o-mini', baseURL, apiKey: 'k', headers: { 'x-loopcost-session': session } });
  const run = await runAgentLoop({ model, tools: [flaky], brakes: settings.brakes, context: { system: 's', goal: 'g', countTokens: (text) => text.length }, pricing, clock: new VirtualClock(), retry: { maxRetries: 2, backoffMs: () => 0 }, recorder: fileRecorder(path) });
  const [recording] = await loadTraceFile(path);
  return { run, recording: recording!, argsSeen };
}

/** Live cost == the recording's (per call and at its end) == replay's == the trace-driven loop's, exact picodollars. */
async function expectParity({ run, recording }: Awaited<ReturnType<typeof live>>) {
  const recorded = recording.calls.reduce((sum, call) => sum + usdToPico(call.recordedCostUsd!), 0);
  expect([recorded, usdToPico(recording.end.recordedCostUsd!)]).toEqual([run.costPico, run.costPico]);
  const replayed = replayFigures(recording, settings);
  expect(figures(run)).toEqual(replayed);
  expect(figures(await runTraceDriven(recording, settings))).toEqual(replayed);
}

/** gpt-4o-mini: $0.15 / $0.60 a million tokens, in picodollars a token. */
const cost = (input: number, output: number) => input * 150_000 + output * 600_000;

describe('over HTTP, a 200 whose body is no chat completion is a failed call: billed its usage, recorded, retried', () => {
  it.each([
    ['no choices key, usage reported', json({ id: 'r', object: 'chat.completion', usage: USAGE }), cost(50, 5), 'the body has no choices list: {"id":"r"'],
    ['an error object', json({ error: { message: 'upstream overloaded', code: 'overloaded' } }), 0, 'the body is an error: upstream overloaded (code overloaded)'],
    // A body with nothing to read (no JSON, empty): the call was answered and may be billed, so it is billed at the loop's prompt estimate (the run's first prompt: 's' + 'g', 2 tokens), marked estimated.
    ['HTML sent as JSON', { body: '<html>bad gateway</html>' }, 'estimated', 'the body is not JSON: <html>bad gateway</html>'],
    ['HTML sent as HTML', { body: '<html>bad gateway</html>', contentType: 'text/html' }, 'estimated', 'the body is not JSON: <html>bad gateway</html>'],
    ['an empty body', { body: '' }, 'estimated', 'the body is empty'],
  ])('%s', async (_, answer, failedPico, said) => {
    const ran = await live([answer]);
    expect([ran.run.stop.reason, ran.run.finalText, ran.run.steps, ran.run.calls, ran.run.failedCalls]).toEqual(['completed', 'done', 2, 2, 1]);
    expect(ran.recording.calls[0]!.failed!.message).toContain(`the response is no chat completion: ${said}`);
    expect(ran.recording.calls[0]!.failed!.status).toBeUndefined(); // A 200 is no failure's status (records.ts failedOf).
    expect(ran.recording.calls[0]!.failed!.estimated).toBe(failedPico === 'estimated' ? true : undefined);
    if (failedPico === 'estimated') expect(ran.recording.calls[0]!.inputTokens).toBe(2);
    expect(ran.run.costPico).toBe((failedPico === 'estimated' ? cost(2, 0) : Number(failedPico)) + cost(70, 7));
    await expectParity(ran);
  });

  it('retried as a 5xx is, until the retries run out: every attempt billed and recorded', async () => {
    const noChoices = json({ id: 'r', object: 'chat.completion', usage: USAGE });
    const ran = await live([noChoices, noChoices, noChoices]);
    expect(ran.run.stop.reason).toBe('trace_end');
    expect(ran.run.stop.detail).toMatch(/^model call failed: the response is no chat completion: the body has no choices list: .*; gave up after 2 retries$/);
    expect([ran.run.calls, ran.run.failedCalls, ran.run.costPico]).toEqual([3, 3, 3 * cost(50, 5)]);
    const recorded = ran.recording.calls.reduce((sum, call) => sum + usdToPico(call.recordedCostUsd!), 0);
    expect([recorded, usdToPico(ran.recording.end.recordedCostUsd!)]).toEqual([ran.run.costPico, ran.run.costPico]);
    const replayed = replayFigures(ran.recording, settings);
    expect({ ...figures(ran.run), stopDetail: replayed.stopDetail }).toEqual(replayed);
  });
});

describe('over HTTP, an empty response is an unparseable step, not a completion', () => {
  it.each([
    ['choices: []', json({ id: 'r', object: 'chat.completion', choices: [], usage: USAGE })],
    ['content null, no tool calls', completion({ content: null })],
    ['content null, tool_calls null', completion({ content: null, tool_calls: null })],
    ["content ''", completion({ content: '' })],
    ['no message', json({ id: 'r', object: 'chat.completion', choices: [{ index: 0, finish_reason: 'stop' }], usage: USAGE })],
  ])('%s', async (_, answer) => {
    const ran = await live([answer]);
    expect([ran.run.stop.reason, ran.run.finalText, ran.run.steps, ran.run.calls]).toEqual(['completed', 'done', 2, 2]);
    expect(ran.recording.calls[0]).toMatchObject({ inputTokens: 50, outputTokens: 5, unparseable: true });
    expect(ran.run.costPico).toBe(cost(50, 5) + cost(70, 7));
    await expectParity(ran);
  });
});

describe('over HTTP, a malformed tool call is no throw', () => {
  it.each([
    ['no function', { id: 'z', type: 'function' }],
    ['no function.name', { id: 'z', type: 'function', function: { arguments: '{}' } }],
    ['a type other than function', { id: 'z', type: 'custom', custom: { name: 'flaky', input: 'x' } }],
    ['tool_calls no list', { notAList: true }],
  ])('%s: a call the loop cannot run, so the response is unparseable (its call dropped, never run)', async (name, call) => {
    const ran = await live([name === 'tool_calls no list' ? completion({ content: null, tool_calls: call }, 'tool_calls') : callingWith(call)]);
    expect([ran.run.stop.reason, ran.run.steps, ran.run.toolCalls, ran.argsSeen]).toEqual(['completed', 2, 0, []]);
    expect(ran.recording.calls[0]).toMatchObject({ unparseable: true });
    expect(ran.recording.calls[0]!.toolCalls).toBeUndefined();
    await expectParity(ran);
  });

  it.each([
    ['no type', { id: 'z', function: { name: 'flaky', arguments: '{"q":1}' } }, { q: 1 }, { q: 1 }],
    ['no arguments (none, as "")', { id: 'z', type: 'function', function: { name: 'flaky' } }, {}, {}],
    ['arguments an object (its JSON)', { id: 'z', type: 'function', function: { name: 'flaky', arguments: { a: 1 } } }, { a: 1 }, { a: 1 }],
  ])('%s: run as a function call', async (_, call, args, recorded) => {
    const ran = await live([callingWith(call)]);
    expect([ran.run.stop.reason, ran.run.steps, ran.run.toolCalls, ran.argsSeen]).toEqual(['completed', 2, 1, [args]]);
    expect(ran.recording.calls[0]!.toolCalls).toMatchObject([{ name: 'flaky', arguments: recorded }]);
    await expectParity(ran);
  });

  it('arguments null: refused to the model as arguments that are no JSON object, the tool not run', async () => {
    const ran = await live([callingWith({ id: 'z', type: 'function', function: { name: 'flaky', arguments: null } })]);
    expect([ran.run.stop.reason, ran.run.steps, ran.run.toolCalls, ran.argsSeen]).toEqual(['completed', 2, 1, []]);
    expect(ran.recording.calls[0]!.toolCalls).toMatchObject([{ name: 'flaky', error: 'arguments are not a JSON object' }]);
    expect(ran.run.messages.find((m) => m.role === 'tool')).toMatchObject({ content: 'refused: arguments are not a JSON object' });
    await expectParity(ran);
  });
});

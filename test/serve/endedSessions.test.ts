/**
 * A long-lived serve does not keep every session whole: a session that ends is retired to its totals
 * (src/serve/retired.ts) — exact, frozen — and its matching state is dropped (conversations.ts retire),
 * while sessions in progress are matched as before and the request after an ended session's last call
 * still gets its 409. `maxSessions` bounds the sessions in progress: one more is a 503.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTraceFile } from '../../src/import/index.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { startServer, type RunningServer } from '../../src/serve/index.js';
import { SessionRegistry } from '../../src/serve/registry.js';
import { RetiredSession } from '../../src/serve/retired.js';
import type { ChatRequest } from '../../src/serve/request.js';
import type { Trace } from '../../src/trace/types.js';
import { get, post, sentBack, type Answer } from './client.js';

const CASSETTES = '../shared/traces/cassettes';
/** Three calls: tool calls, tool calls, answer (DeepSeek). */
const DEEPSEEK = `${CASSETTES}/models__test_deepseek__test_deepseek_deferred_capability_with_thinking.yaml`;
/** Three calls: tool call, tool call, answer (Anthropic). */
const ANTHROPIC = `${CASSETTES}/models__test_anthropic__test_anthropic_mixed_strict_tool_run.yaml`;

const prices = loadPriceTable();
const load = async (path: string) => ((await loadTraceFile(path)) as Trace[])[0]!;
let deepseek: Trace;
let anthropic: Trace;
const servers: RunningServer[] = [];
beforeAll(async () => {
  [deepseek, anthropic] = [await load(DEEPSEEK), await load(ANTHROPIC)];
});
afterAll(() => Promise.all(servers.map((server) => server.close())));

async function serving(traces: Trace[], maxSessions?: number): Promise<RunningServer> {
  const server = await startServer({ sources: { traces }, prices, ...(maxSessions === undefined ? {} : { maxSessions }) });
  servers.push(server);
  return server;
}

const opening = [
  { role: 'system', content: 'S' },
  { role: 'user', content: 'same task' },
];
const where = (answer: Answer) => [answer.headers.get('x-loopcost-session'), answer.status, answer.json.loopcost?.call ?? answer.json.error?.code];
/** The request an agent sends next: what it sent, the answer it got, and a result for each tool call. */
function followUp(messages: unknown[], answer: Answer): unknown[] {
  const message = answer.json.choices[0].message;
  const results = (message.tool_calls ?? []).map((call: { id: string }) => ({ role: 'tool', tool_call_id: call.id, content: 'ok' }));
  return [...messages, message, ...results];
}

/** An agent without the session header: each call sends what it sent before plus the answer and its tools' results. */
function agent(url: string) {
  let messages: unknown[] = opening;
  return async () => {
    const answer = await post(url, { model: 'x', messages });
    if (answer.status === 200) messages = followUp(messages, answer);
    return answer;
  };
}

describe('ended sessions are retired to their totals', () => {
  it('sessions in progress are matched as before, and the request after an ended session’s last call gets its 409', async () => {
    const server = await serving([deepseek]);
    const [a, b] = [agent(server.url), agent(server.url)];
    const answers = [await a(), await b(), await a(), await b(), await a(), await a(), await b(), await b()];
    expect(answers.map(where)).toEqual([
      ['conversation-1', 200, 1],
      ['conversation-2', 200, 1],
      ['conversation-1', 200, 2],
      ['conversation-2', 200, 2],
      ['conversation-1', 200, 3],
      // conversation-1 ended with call 3 and was retired: its next request is still its own, and ends it.
      ['conversation-1', 409, 'loopcost_trace_ended'],
      ['conversation-2', 200, 3],
      ['conversation-2', 409, 'loopcost_trace_ended'],
    ]);
    expect(answers[5]!.json.error.loopcost).toEqual({ recordedOutcome: deepseek.end.outcome, recordedCalls: 3 });
    expect((await get(server.url, '/loopcost/sessions')).json.totals).toMatchObject({ sessions: 2, calls: 6 });
  });

  it('an ended session’s totals stay exact: every later request, a summary call too, is its 409 and changes nothing', async () => {
    const server = await serving([deepseek]);
    const header = { 'x-loopcost-session': 'done' };
    const costs: number[] = [];
    let last: Answer | undefined;
    for (let call = 1; call <= 3; call++) costs.push(Number((last = await post(server.url, { model: 'x', messages: opening }, header)).json.loopcost.costPico));
    const atEnd = (await get(server.url, '/loopcost/sessions')).json;
    // The run's requests after its end send its last answer back (one sending none is another run's: sessionReuse.test.ts).
    const goingOn = sentBack(opening, last!);
    const summaryCall = await post(server.url, { model: 'x', messages: goingOn, max_tokens: 500 }, { ...header, 'x-loopcost-purpose': 'summary' });
    expect(where(summaryCall)).toEqual(['done', 409, 'loopcost_trace_ended']);
    expect(where(await post(server.url, { model: 'x', messages: goingOn }, header))).toEqual(['done', 409, 'loopcost_trace_ended']);
    const after = (await get(server.url, '/loopcost/sessions')).json;
    expect(after).toEqual(atEnd);
    expect(after.sessions[0]).toMatchObject({ id: 'done', calls: 3, ended: true, remainingCalls: 0, costPico: String(costs.reduce((sum, c) => sum + c, 0)) });
    expect(after.totals.costPico).toBe(String(costs.reduce((sum, c) => sum + c, 0)));
  });

  it('holds no matching state and no engine for ended sessions: the bound holds over many runs of one task', () => {
    const registry = new SessionRegistry({ sources: { traces: [deepseek] }, prices });
    const RUNS = 200;
    let spent = 0;
    for (let run = 0; run < RUNS; run++) {
      let messages = opening as ChatRequest['messages'];
      for (let call = 1; call <= 3; call++) {
        const request = { model: 'x', messages } as ChatRequest;
        const reply = registry.answer(registry.sessionFor({}, request), request);
        spent += reply.costPico;
        const assistant = { role: 'assistant' as const, content: reply.content, ...(reply.toolCalls.length > 0 ? { tool_calls: reply.toolCalls } : {}) };
        messages = [...messages, assistant, ...reply.toolCalls.map((c) => ({ role: 'tool' as const, tool_call_id: c.id, content: 'ok' }))] as ChatRequest['messages'];
      }
    }
    expect(registry.inProgress).toBe(0);
    const summaries = registry.summaries();
    expect(summaries).toHaveLength(RUNS);
    expect(summaries.every((s) => s.ended && s.calls === 3)).toBe(true);
    expect(summaries.reduce((sum, s) => sum + Number(s.costPico), 0)).toBe(spent);
    const held = registry as unknown as { all: unknown[] };
    expect(held.all.every((s) => s instanceof RetiredSession)).toBe(true);
    // No opening with its matching tables (no conversation in progress): its latest started, and a run's ending at most.
    const sizes = registry.tableSizes();
    expect([sizes.openingsInProgress, sizes.idleOpenings, sizes.endings <= RUNS]).toEqual([0, 1, true]);
  });

  it('maxSessions bounds the sessions in progress: one more is a 503 that takes no trace’s turn; an ended one frees its place', async () => {
    const server = await serving([deepseek, anthropic], 1);
    expect(where(await post(server.url, { model: 'x', messages: opening }, { 'x-loopcost-session': 'a' }))).toEqual(['a', 200, 1]);
    const refused = await post(server.url, { model: 'x', messages: opening }, { 'x-loopcost-session': 'b' });
    expect([refused.status, refused.json.error.code, refused.json.error.type, refused.headers.get('x-should-retry')]).toEqual([503, 'loopcost_too_many_sessions', 'server_error', 'false']);
    expect(refused.json.error.message).toMatch(/^loopcost serve has 1 session in progress, its --max-sessions: .*end finished runs' sessions, set --session-idle-seconds, or raise --max-sessions/);
    for (let call = 2; call <= 3; call++) await post(server.url, { model: 'x', messages: opening }, { 'x-loopcost-session': 'a' });
    expect(where(await post(server.url, { model: 'x', messages: opening }, { 'x-loopcost-session': 'b' }))).toEqual(['b', 200, 1]);
    const report = (await get(server.url, '/loopcost/sessions')).json;
    expect(report.sessions.map((s: { id: string; source: string }) => [s.id, s.source])).toEqual([
      ['a', DEEPSEEK],
      ['b', ANTHROPIC],
    ]);
  });
});

/**
 * What a long-lived serve keeps per ended session beside its totals: an opening with no conversation in
 * progress keeps no matching tables, only its latest started (registry.ts), and an ended conversation a
 * short key of its opening and last two answers (endings.ts) — while every later request is answered as
 * before: an ended conversation's 409, the latest of its opening's when no answer matches.
 */
import { describe, expect, it } from 'vitest';
import { SessionRegistry } from '../../src/serve/registry.js';
import type { ChatRequest } from '../../src/serve/request.js';
import { call, MINI_TABLE, toolCall, trace } from '../helpers.js';

/** Two steps and a final answer; serve writes the tool calls' ids (unique to each session). */
const PLAIN = { ...trace([call(10, [toolCall('ls', {}, 20)]), call(10, [toolCall('cat', { f: 1 }, 20)]), call(10, undefined, { final: true })]), source: 'plain' };
/** The same with recorded ids: every run gives the same answers. */
const RECORDED_IDS = { ...trace([call(10, [toolCall('ls', {}, 20, { id: 'rec_1' })]), call(10, [toolCall('cat', { f: 1 }, 20, { id: 'rec_2' })]), call(10, undefined, { final: true })]), source: 'recorded-ids' };

type Messages = ChatRequest['messages'];
const opening = (task: string): Messages => [
  { role: 'system', content: 'S' },
  { role: 'user', content: task },
];

/** Answers `request` as serve's handler does: the session it belongs to, and its answer or the error it is answered with. */
function ask(registry: SessionRegistry, messages: Messages, headers: Record<string, string> = {}) {
  const request = { model: 'mini', messages } as ChatRequest;
  const session = registry.sessionFor(headers, request);
  try {
    return { session: session.id, reply: registry.answer(session, request) };
  } catch (error) {
    return { session: session.id, error: (error as { status?: number; code?: string }).code };
  }
}

/** An agent's whole run: each request what it sent before plus the answer and its tools' results. Its messages at the end, and its session. */
function run(registry: SessionRegistry, task: string, headers: Record<string, string> = {}): { messages: Messages; session: string } {
  let messages = opening(task);
  for (;;) {
    const { session, reply } = ask(registry, messages, headers);
    if (!reply) throw new Error(`run of ${task} failed`);
    const assistant = { role: 'assistant' as const, content: reply.content, ...(reply.toolCalls.length > 0 ? { tool_calls: reply.toolCalls } : {}) };
    messages = [...messages, assistant, ...reply.toolCalls.map((c) => ({ role: 'tool' as const, tool_call_id: c.id, content: 'ok' }))] as Messages;
    if (reply.record.final) return { messages, session };
  }
}

describe('serve: the tables kept for ended sessions', () => {
  it('after 3,000 sessions end: no opening keeps its matching tables, one entry an opening and one an ended conversation; each still answers its 409', () => {
    const registry = new SessionRegistry({ sources: { traces: [PLAIN] }, prices: MINI_TABLE });
    const N = 1_000;
    const distinct = Array.from({ length: N }, (_, i) => run(registry, `task ${i}`));
    const same = Array.from({ length: N }, () => run(registry, 'one task'));
    const named = Array.from({ length: N }, (_, i) => run(registry, 'named', { 'x-loopcost-session': `named-${i}` }));
    expect(registry.tableSizes()).toEqual({ sessions: 3 * N, inProgress: 0, named: N, openingsInProgress: 0, idleOpenings: N + 1, endings: 2 * N });
    // Every ended conversation is still found by its messages: the request after its last call is its own 409.
    for (const ended of [...distinct, ...same]) expect(ask(registry, ended.messages)).toEqual({ session: ended.session, error: 'loopcost_trace_ended' });
    expect(ask(registry, named[7]!.messages, { 'x-loopcost-session': 'named-7' })).toEqual({ session: 'named-7', error: 'loopcost_trace_ended' });
    // Messages no session gave: the latest that opened the same way, ended.
    const stranger = [...opening('one task'), { role: 'assistant' as const, content: 'never said' }];
    expect(ask(registry, stranger)).toEqual({ session: same.at(-1)!.session, error: 'loopcost_trace_ended' });
    expect(registry.tableSizes()).toMatchObject({ sessions: 3 * N, openingsInProgress: 0, endings: 2 * N });
  });

  it('an opening whose sessions all ended takes new ones as before: start order, its latest, the first that ended with the same answers', () => {
    const registry = new SessionRegistry({ sources: { traces: [RECORDED_IDS] }, prices: MINI_TABLE });
    const first = run(registry, 'task');
    expect(registry.tableSizes()).toMatchObject({ openingsInProgress: 0, idleOpenings: 1, endings: 1 });
    // A new run of the task starts a new session (no assistant message: no retry of an ended one).
    const { session: second, reply } = ask(registry, opening('task'));
    expect([second, reply?.call]).toEqual(['conversation-2', 1]);
    expect(registry.tableSizes()).toMatchObject({ openingsInProgress: 1, idleOpenings: 0 });
    // The first run's messages still find the first run, though the second gave its first answer too.
    expect(ask(registry, first.messages)).toEqual({ session: first.session, error: 'loopcost_trace_ended' });
    // Messages no session gave: the latest started, now the second, in progress.
    const stranger = [...opening('task'), { role: 'assistant' as const, content: 'never said' }];
    expect(ask(registry, stranger)).toMatchObject({ session: 'conversation-2', reply: { call: 2 } });
    // The second ends with the same answers as the first: the first started is still the one they find.
    const rest = ask(registry, stranger);
    expect([rest.session, rest.reply?.record.final]).toEqual(['conversation-2', true]);
    expect(ask(registry, first.messages)).toEqual({ session: first.session, error: 'loopcost_trace_ended' });
    expect(ask(registry, stranger)).toEqual({ session: 'conversation-2', error: 'loopcost_trace_ended' });
    expect(registry.tableSizes()).toMatchObject({ sessions: 2, openingsInProgress: 0, idleOpenings: 1 });
  });
});

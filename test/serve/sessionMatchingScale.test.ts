/**
 * The work session matching does, counted (not timed): an index from answer to the sessions that gave
 * it, so a request costs its messages plus the sessions that gave its last one, and starting a session
 * adds it to its opening's list without copying the list.
 */
import { describe, expect, it } from 'vitest';
import { Opening } from '../../src/serve/conversations.js';
import type { Reply } from '../../src/serve/reply.js';
import type { ChatRequest } from '../../src/serve/request.js';
import type { ServeSession } from '../../src/serve/session.js';

const opening = [
  { role: 'system' as const, content: 'S' },
  { role: 'user' as const, content: 'same task' },
];
const fakeSession = (): ServeSession => ({ calls: 1, ended: () => false }) as unknown as ServeSession;
const toolReply = (id: string): Reply => ({ toolCalls: [{ id, type: 'function', function: { name: 'ls', arguments: '{}' } }], content: null }) as unknown as Reply;
const withAssistants = (count: number, id: string): ChatRequest =>
  ({
    model: 'x',
    messages: [...opening, ...Array.from({ length: count }, () => ({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'ls', arguments: '{}' } }] }))],
  }) as unknown as ChatRequest;

describe('session matching at scale', () => {
  it('matches a request of many assistant messages against many sessions in work linear in both', () => {
    const SESSIONS = 2_000;
    const MESSAGES = 2_000;
    const sessions = new Opening();
    for (let i = 0; i < SESSIONS; i++) sessions.noteAnswer(sessions.start(fakeSession()), toolReply('rec_0'), false);
    sessions.lookups = 0;
    const continued = sessions.continued(withAssistants(MESSAGES, 'rec_0'));
    // Every session gave rec_0 once: the first started wins the tie; each examined a bounded number of times.
    expect(continued).toBe(sessions.conversations[0]);
    expect(sessions.lookups).toBeLessThanOrEqual(4 * SESSIONS + 4);
  });

  it('starts 10,000 sessions of one opening in linear work, appending to one list', () => {
    const SESSIONS = 10_000;
    const sessions = new Opening();
    const list = sessions.conversations;
    const request = { model: 'x', messages: opening } as unknown as ChatRequest;
    for (let i = 0; i < SESSIONS; i++) {
      expect(sessions.continued(request)).toBeUndefined();
      const conversation = sessions.start(fakeSession());
      sessions.noteRequest(conversation, request);
      sessions.noteAnswer(conversation, toolReply(`conversation-${i}_1`), false);
    }
    expect(sessions.conversations).toBe(list);
    expect(list.map((c) => c.ordinal)).toEqual(Array.from({ length: SESSIONS }, (_, i) => i));
    // A retry lookup each: no waiting body survives a whole answer.
    expect(sessions.lookups).toBe(SESSIONS);
  });
});

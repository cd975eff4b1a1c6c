/**
 * Session matching without a header at its edges: an answer cut at the output cap is what the client
 * sends back, and a recording that reuses its own tool-call ids keeps two runs at once in their places.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/serve/index.js';
import type { Trace } from '../../src/trace/types.js';
import { call, handPriced, handTable, toolCall, trace } from '../helpers.js';
import { post, type Answer } from './client.js';

const PRICED = handPriced('priced', { input: 5, output: 25 });
const named = (t: Trace, source: string): Trace => ({ ...t, source });
/** Three tool calls without ids of their own (serve writes ids unique to the session), then the answer. */
const PLAIN = named(trace([call(20, [toolCall('ls', { p: '.' }, 30)]), call(20, [toolCall('cat', { p: 'x' }, 30)]), call(20, [toolCall('cat', { p: 'y' }, 30)]), call(10)], { model: 'priced', origin: 'recorded' }), 'plain');
/** Its own ids, each used twice: c1, c1, dup, dup. */
const REUSED = named(
  trace(
    [
      call(20, [toolCall('ls', { p: '.' }, 30, { id: 'c1' })]),
      call(20, [toolCall('cat', { p: 'x' }, 30, { id: 'c1' })]),
      call(20, [toolCall('cat', { p: 'y' }, 30, { id: 'dup' })]),
      call(20, [toolCall('cat', { p: 'z' }, 30, { id: 'dup' })]),
      call(10),
    ],
    { model: 'priced', origin: 'recorded' },
  ),
  'reused',
);

const servers: RunningServer[] = [];
afterAll(() => Promise.all(servers.map((server) => server.close())));

async function serving(...sources: Trace[]): Promise<RunningServer> {
  const server = await startServer({ sources: { traces: sources }, prices: handTable(PRICED) });
  servers.push(server);
  return server;
}

const opening = [{ role: 'system', content: 'S' }, { role: 'user', content: 'same task' }];
const where = (answer: Answer) => [answer.headers.get('x-loopcost-session'), answer.status, answer.json.loopcost?.call];
function followUp(messages: unknown[], answer: Answer): unknown[] {
  const message = answer.json.choices[0].message;
  const results = (message.tool_calls ?? []).map((tc: { id: string }) => ({ role: 'tool', tool_call_id: tc.id, content: 'ok' }));
  return [...messages, message, ...results];
}

describe('serve without a session header, at the edges', () => {
  it('continues the session that gave an answer cut at the output cap when the client sends it back', async () => {
    const server = await serving(PLAIN);
    const a1 = await post(server.url, { model: 'priced', messages: opening, max_tokens: 5 });
    expect(a1.json.choices[0].finish_reason).toBe('length');
    const b1 = await post(server.url, { model: 'priced', messages: opening });
    // The cut text is A's only assistant message: known only if the cut answer was noted.
    const a2 = await post(server.url, { model: 'priced', messages: followUp(opening, a1) });
    expect([a1, b1, a2].map(where)).toEqual([
      ['conversation-1', 200, 1],
      ['conversation-2', 200, 1],
      ['conversation-1', 200, 2],
    ]);
  });

  it('when the last assistant message is unknown (rewritten), continues the session that gave most of the others', async () => {
    const server = await serving(PLAIN);
    const a1 = await post(server.url, { model: 'priced', messages: opening });
    const b1 = await post(server.url, { model: 'priced', messages: opening });
    const rewritten = { role: 'assistant', content: 'I looked around.' };
    const a2 = await post(server.url, { model: 'priced', messages: [...followUp(opening, a1), rewritten, { role: 'user', content: 'go on' }] });
    expect([a1, b1, a2].map(where)).toEqual([
      ['conversation-1', 200, 1],
      ['conversation-2', 200, 1],
      ['conversation-1', 200, 2],
    ]);
  });

  it('keeps two runs of a recording that reuses its ids in their places, each getting its calls in order', async () => {
    const server = await serving(REUSED);
    const tools = (answer: Answer) => answer.json.choices[0].message.tool_calls?.[0]?.function.arguments;
    let a: unknown[] = opening;
    let b: unknown[] = opening;
    const seen: Record<'a' | 'b', Answer[]> = { a: [], b: [] };
    const step = async (who: 'a' | 'b') => {
      const answer = await post(server.url, { model: 'priced', messages: who === 'a' ? a : b });
      seen[who].push(answer);
      if (who === 'a') a = followUp(a, answer);
      else b = followUp(b, answer);
    };
    for (const who of ['a', 'a', 'b', 'b', 'a', 'b'] as const) await step(who);
    expect(seen.a.map(where)).toEqual([1, 2, 3].map((n) => ['conversation-1', 200, n]));
    expect(seen.b.map(where)).toEqual([1, 2, 3].map((n) => ['conversation-2', 200, n]));
    expect(seen.a.map(tools)).toEqual(['{"p":"."}', '{"p":"x"}', '{"p":"y"}']);
    expect(seen.b.map(tools)).toEqual(['{"p":"."}', '{"p":"x"}', '{"p":"y"}']);
  });
});

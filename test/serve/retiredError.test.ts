/**
 * A retired session keeps no built error (one was ~0.5 KB a session, bench/serve-sessions-memory.mjs): it
 * keeps its totals and how it ended, and builds the error each later request is answered with when asked —
 * the same answer every time, and the one the session in progress gave past its end.
 */
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/scenario/load.js';
import { ApiError } from '../../src/serve/apiError.js';
import { SessionRegistry } from '../../src/serve/registry.js';
import type { ChatRequest } from '../../src/serve/request.js';
import { RetiredSession } from '../../src/serve/retired.js';
import type { HeldSession } from '../../src/serve/session.js';
import { call, MINI_TABLE, toolCall, trace } from '../helpers.js';

const STEPS = { ...trace([call(10, [toolCall('ls', {}, 20)]), call(10, undefined, { final: true })], { outcome: 'completed' }), source: 'steps' };
const SCENARIO = parseScenario(
  `
scenario: loopcost.scenario/1
name: two steps
model: mini
systemTokens: 100
population:
  - behaviour: healthy
    weight: 1
    steps: 2
    outputTokens: 40
    toolResultTokens: 20
`,
  'two.yaml',
);

/** A request of a run going on (an answer sent back: once a session has ended, one sending none is another run's first, refused: sessionReuse.test.ts). */
const request = {
  model: 'mini',
  messages: [
    { role: 'user', content: 'go' },
    { role: 'assistant', content: 'a step' },
  ],
} as ChatRequest;

/** What `session` answers `request` with: its reply's call number, or its error's status and body. */
function asked(registry: SessionRegistry, session: HeldSession): unknown {
  try {
    return registry.answer(session, request).call;
  } catch (error) {
    return error instanceof ApiError ? [error.status, error.body()] : error;
  }
}

/** Every session `registry` holds (its retired ones). */
const held = (registry: SessionRegistry) => (registry as unknown as { all: HeldSession[] }).all;

/** Calls until the session is retired; then the answer past its end, asked three times. */
function toItsEnd(registry: SessionRegistry, id: string): unknown[] {
  const session = () => registry.sessionFor({ 'x-loopcost-session': id }, request);
  for (let i = 0; i < 20 && !(session() instanceof RetiredSession); i++) asked(registry, session());
  expect(session()).toBeInstanceOf(RetiredSession);
  return [asked(registry, session()), asked(registry, session()), asked(registry, session())];
}

describe('serve: a retired session builds its error when asked', () => {
  it('keeps no Error, and answers every later request with the same error: a recording past its end, an agent past its end, one ended by its client', () => {
    const recorded = new SessionRegistry({ sources: { traces: [STEPS] }, prices: MINI_TABLE });
    const synthetic = new SessionRegistry({ sources: { scenario: { scenario: SCENARIO } }, prices: MINI_TABLE });
    const answers = [toItsEnd(recorded, 'r'), toItsEnd(synthetic, 's')];
    expect(asked(recorded, recorded.sessionFor({ 'x-loopcost-session': 'c' }, request))).toBe(1);
    recorded.end('c');
    answers.push([1, 2, 3].map(() => asked(recorded, recorded.sessionFor({ 'x-loopcost-session': 'c' }, request))));

    const codes = answers.map((three) => {
      expect(three[1]).toEqual(three[0]);
      expect(three[2]).toEqual(three[0]);
      const [status, body] = three[0] as [number, { error: { code: string; message: string } }];
      return [status, body.error.code, body.error.message.split(/[: ]/, 2).join(' ')];
    });
    expect(codes).toEqual([
      [409, 'loopcost_trace_ended', 'session r'],
      [409, 'loopcost_agent_ended', 'session s'],
      [409, 'loopcost_session_ended', 'session c'],
    ]);
    for (const retired of [...held(recorded), ...held(synthetic)]) {
      expect(retired).toBeInstanceOf(RetiredSession);
      expect(Object.values(retired).filter((value) => value instanceof Error)).toEqual([]);
    }
  });
});

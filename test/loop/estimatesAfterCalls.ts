/** The readable loop played call by call in a test: the session's next-prompt estimate after each call. */
import { expect } from 'vitest';
import { beforeCall, playCall } from '../../src/loop/run.js';
import type { LoopSession } from '../../src/loop/session.js';
import type { StepSource } from '../../src/loop/types.js';

/** `session`'s next-prompt estimate after each of `source`'s first `calls` calls, every one let through (none stops). */
export function estimatesAfterCalls(session: LoopSession, source: StepSource, calls: number): number[] {
  const estimates: number[] = [];
  for (let i = 0; i < calls; i++) {
    const next = beforeCall(session, source);
    if (next.stop) throw new Error(next.stop.detail);
    expect(playCall(session, next.response, next.view)).toBeNull();
    estimates.push(session.nextPromptEstimate());
  }
  return estimates;
}

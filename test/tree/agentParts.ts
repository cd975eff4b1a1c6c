/** A hand-built agent's parts (one session, agent `main`, part n), priced on a hand table: shared by the tree-part tests. */
import type { AgentRef, CallRecord, Trace } from '../../src/trace/types.js';
import { handPriced, handTable, trace } from '../helpers.js';

const T0 = Date.parse('2026-03-02T09:00:00.000Z');
// $1 per million input tokens, $10 per million output: a call's bound is its prompt estimate in µ$ plus $0.04096 (4,096 output tokens).
export const PART_PRICES = handTable(handPriced('m', { input: 1, output: 10 }, 1_000_000));

/** Part `n` of agent main of session `s`, its calls 1 s apart, started `startMs` after T0. */
export function part(n: number, calls: CallRecord[], startMs: number): Trace {
  const run = trace(
    calls.map((c, i) => ({ ...c, startMs: i * 1000 })),
    { model: 'm', system: 1000, goal: 100, outcome: 'completed', origin: 'recorded' },
  );
  const agent: AgentRef = { sessionId: 's', agentId: 'main', kind: 'main', part: n };
  run.source = `s#main.${n}`;
  run.header.recordedAt = new Date(T0 + startMs).toISOString();
  run.header.agent = agent;
  return run;
}

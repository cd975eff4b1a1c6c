import { describe, expect, it } from 'vitest';
import { NO_BRAKES, REFERENCE_PRESET, type BrakeConfig } from '../../src/brakes/config.js';
import { STOP_REASONS } from '../../src/brakes/stopReasons.js';
import { replayTrace } from '../../src/replay/replay.js';
import { runLoop } from '../../src/loop/run.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import { usdToPico } from '../../src/money.js';
import { MINI_TABLE, call, distinctSteps, handPriced, handTable, toolCall, trace } from '../helpers.js';

function replay(t: ReturnType<typeof trace>, brakes: Partial<BrakeConfig>, table = MINI_TABLE) {
  return replayTrace(t, { brakes: { ...NO_BRAKES, ...brakes }, strategy: FULL_HISTORY, prices: table, keepSteps: true });
}

describe('every stop reason, on small native traces', () => {
  it('completed: a response with no tool calls ends the run', () => {
    const r = replay(trace([...distinctSteps(2), call(50)]), {});
    expect(r.stopReason).toBe('completed');
    expect(r.steps).toBe(3);
  });

  it('max_steps: checked before each call, so exactly N calls are made', () => {
    const r = replay(trace(distinctSteps(10)), { maxSteps: 4 });
    expect(r.stopReason).toBe('max_steps');
    expect(r.steps).toBe(4);
    expect(r.modelCalls).toBe(4);
  });

  it('timeout: virtual time from recorded model and tool latencies', () => {
    const calls = distinctSteps(10, 100, 200, { latencyMs: 1000 });
    for (const c of calls) c.toolCalls![0]!.latencyMs = 500;
    const r = replay(trace(calls), { timeoutMs: 4000 });
    // 1.5 s per step: after 3 steps 4.5 s ≥ 4 s, so the 4th call is not made.
    expect(r.stopReason).toBe('timeout');
    expect(r.steps).toBe(3);
    expect(r.elapsedMs).toBe(4500);
  });

  it('timeout: a tie does not stop (elapsed must exceed the limit, as in the reference loop), in every path', () => {
    // Whole-second latencies adding up exactly to the limit: 10 calls of 1 s reach 10 s, which is not past
    // a 10 s timeout, so the 11th call is made; after it 11 s > 10 s stops the 12th.
    const plain = distinctSteps(40, 100, 200, { latencyMs: 1000 });
    for (const c of plain) c.toolCalls![0]!.latencyMs = 0;
    const recorded = plain.map((c, i) => ({ ...c, inputTokens: 500 + 300 * i }));
    const runs = [trace(plain), trace(recorded, { origin: 'recorded' })];
    for (const t of runs) {
      for (const engine of ['compiled', 'readable'] as const) {
        for (const strategy of [FULL_HISTORY, { kind: 'window' as const, windowSteps: 3 }]) {
          const r = replayTrace(t, { brakes: { ...NO_BRAKES, timeoutMs: 10_000 }, strategy, prices: MINI_TABLE, engine });
          expect([r.stopReason, r.steps, r.elapsedMs]).toEqual(['timeout', 11, 11_000]);
          expect(replayTrace(t, { brakes: { ...NO_BRAKES, timeoutMs: 9_999 }, strategy, prices: MINI_TABLE, engine }).steps).toBe(10);
        }
      }
    }
  });

  it('timeout with modelled latencies where the trace records none', () => {
    const latency = { perCallMs: 1000, perInputTokenMs: 0, perOutputTokenMs: 10, perToolCallMs: 500 };
    const r = replayTrace(trace(distinctSteps(10)), { brakes: { ...NO_BRAKES, timeoutMs: 7000 }, strategy: FULL_HISTORY, prices: MINI_TABLE, latency });
    // Each step: 1000 + 100 × 10 ms for the call, 500 ms for its tool = 2.5 s; after 3 steps 7.5 s ≥ 7 s.
    expect(r.stopReason).toBe('timeout');
    expect(r.steps).toBe(3);
    expect(r.elapsedMs).toBe(7500);
    const recorded = replayTrace(trace(distinctSteps(10, 100, 200, { latencyMs: 100 })), { brakes: { ...NO_BRAKES, timeoutMs: 5000 }, strategy: FULL_HISTORY, prices: MINI_TABLE, latency });
    // Recorded call latencies win (100 ms); tools have none recorded, so they take the modelled 500 ms:
    // 600 ms a step, 5.4 s after 9 steps.
    expect(recorded.stopReason).toBe('timeout');
    expect(recorded.steps).toBe(9);
  });

  it('budget (check): stops once spent ≥ limit; overshoot is less than one call', () => {
    const t = trace(distinctSteps(50));
    const full = replay(t, {});
    const limit = Math.floor(full.costPico / 3);
    const r = replay(t, { maxCostPico: limit });
    expect(r.stopReason).toBe('budget');
    expect(r.costPico).toBeGreaterThanOrEqual(limit);
    const lastCall = r.rows[r.rows.length - 1]!.costPico;
    expect(r.overshootPico).toBe(r.costPico - limit);
    expect(r.overshootPico).toBeLessThan(lastCall);
  });

  it('budget (predict): refuses the call that would cross the limit, never overshoots', () => {
    const t = trace(distinctSteps(50));
    const limit = Math.floor(replay(t, {}).costPico / 3);
    const r = replay(t, { maxCostPico: limit, budgetMode: 'predict' });
    expect(r.stopReason).toBe('budget');
    expect(r.costPico).toBeLessThanOrEqual(limit);
    expect(r.overshootPico).toBe(0);
    expect(r.stopDetail).toMatch(/would take/);
  });

  it('repeat (total): the action seen N times stops the N+1th before it runs', () => {
    const same = () => call(100, [toolCall('run', { b: 2, a: 1 }, 50)]);
    const other = call(100, [toolCall('run', { a: 9 }, 50)]);
    const r = replay(trace([same(), other, same(), same(), same(), same()]), { maxRepeat: 3, repeatMode: 'total' });
    expect(r.stopReason).toBe('repeat');
    expect(r.toolCalls).toBe(4); // 3 of the repeated action + the other one
    expect(r.steps).toBe(5); // the 5th call was made and paid; its tool call was refused
  });

  it('repeat: argument key order does not change the fingerprint', () => {
    const r = replay(trace([call(10, [toolCall('run', { a: 1, b: 2 }, 5)]), call(10, [toolCall('run', '{"b":2,"a":1}', 5)])]), { maxRepeat: 1 });
    expect(r.stopReason).toBe('repeat');
  });

  it('repeat (consecutive): an interruption resets the run', () => {
    const a = () => call(10, [toolCall('run', { x: 1 }, 5)]);
    const b = () => call(10, [toolCall('run', { x: 2 }, 5)]);
    const interrupted = replay(trace([a(), a(), b(), a(), a(), call(5)]), { maxRepeat: 2, repeatMode: 'consecutive' });
    expect(interrupted.stopReason).toBe('completed');
    const run = replay(trace([a(), a(), a(), call(5)]), { maxRepeat: 2, repeatMode: 'consecutive' });
    expect(run.stopReason).toBe('repeat');
    expect(run.toolCalls).toBe(2);
  });

  it('repeat (cycle): A/B ping-pong is caught, consecutive mode misses it', () => {
    const a = () => call(10, [toolCall('open', { f: 'a' }, 5)]);
    const b = () => call(10, [toolCall('open', { f: 'b' }, 5)]);
    const calls = [a(), b(), a(), b(), a(), b(), a(), b(), call(5)];
    const cycle = replay(trace(calls), { maxRepeat: 2, repeatMode: 'cycle' });
    expect(cycle.stopReason).toBe('repeat');
    expect(cycle.toolCalls).toBe(4); // A B A B, then the third A is refused
    expect(replay(trace(calls), { maxRepeat: 2, repeatMode: 'consecutive' }).stopReason).toBe('completed');
  });

  it('error_limit (consecutive): the same tool failing the same way N times in a row', () => {
    const fail = (code: string) => call(10, [toolCall('py', { code }, 5, { error: 'ConnectionError' })]);
    const r = replay(trace([fail('a'), fail('b'), fail('c'), fail('d')]), { maxSameError: 3 });
    expect(r.stopReason).toBe('error_limit');
    expect(r.steps).toBe(3);
    const broken = replay(trace([fail('a'), fail('b'), call(10, [toolCall('py', { code: 'ok' }, 5)]), fail('c'), call(5)]), { maxSameError: 3 });
    expect(broken.stopReason).toBe('completed');
  });

  it('error_limit (total): counts across interruptions', () => {
    const fail = (code: string) => call(10, [toolCall('py', { code }, 5, { error: 'ConnectionError' })]);
    const ok = call(10, [toolCall('py', { code: 'ok' }, 5)]);
    const r = replay(trace([fail('a'), ok, fail('b'), ok, fail('c'), call(5)]), { maxSameError: 3, sameErrorMode: 'total' });
    expect(r.stopReason).toBe('error_limit');
    expect(r.steps).toBe(5);
  });

  it('context_overflow: the next prompt would not fit', () => {
    const r = replay(trace(distinctSteps(20, 100, 900), { system: 1000 }), { contextWindow: 5000 });
    expect(r.stopReason).toBe('context_overflow');
    // Prompt n = 1000 + 1000(n-1); the 5th prompt (5000) fits, the 6th does not.
    expect(r.steps).toBe(5);
  });

  it("context_overflow with 'model' uses the model's window, less the max_tokens sent", () => {
    const tiny = handTable(handPriced('mini', { input: 1, output: 1 }, 2500));
    // Prompt n = 1000n: 2000 + 500 fits the 2,500-token window, 3000 + 500 does not.
    const r = replay(trace(distinctSteps(20, 100, 900), { system: 1000 }), { contextWindow: 'model', maxOutputTokens: 500 }, tiny);
    expect(r.stopReason).toBe('context_overflow');
    expect(r.steps).toBe(2);
  });

  it('token_limit: input + output tokens over the run', () => {
    const r = replay(trace(distinctSteps(20)), { maxTokens: 2000 });
    expect(r.stopReason).toBe('token_limit');
    expect(r.inputTokens + r.outputTokens).toBeGreaterThanOrEqual(2000);
  });

  it('backtrack_limit: backtracks beyond the cap; backtracks cost but are not steps', () => {
    const calls = [];
    for (let i = 0; i < 5; i++) calls.push(call(100, [toolCall('edit', { i }, 300)]), call(20, undefined, { backtrack: true }));
    const r = replay(trace(calls), { maxBacktracks: 2 });
    expect(r.stopReason).toBe('backtrack_limit');
    expect(r.backtracks).toBe(3);
    expect(r.steps).toBe(3);
    expect(r.modelCalls).toBe(6);
  });

  it('trace_end: a recorded trace ends without completing', () => {
    const r = replay(trace(distinctSteps(3), { outcome: 'error' }), {});
    expect(r.stopReason).toBe('trace_end');
    expect(r.steps).toBe(3);
  });

  it('brakes are checked in the fixed order: steps, timeout, budget', () => {
    const calls = distinctSteps(10, 100, 200, { latencyMs: 10_000 });
    const twoCalls = replay(trace(calls), {}).rows[1]!.cumulativeCostPico;
    // After 2 calls: 2 steps, 20 s (past a 19.999 s timeout) and exactly the budget spent. All three
    // brakes hold; the order decides.
    const all = replay(trace(calls), { maxSteps: 2, timeoutMs: 19_999, maxCostPico: twoCalls });
    expect(all.stopReason).toBe('max_steps');
    const noStepCap = replay(trace(calls), { timeoutMs: 19_999, maxCostPico: twoCalls });
    expect(noStepCap.stopReason).toBe('timeout');
    const budgetOnly = replay(trace(calls), { maxCostPico: twoCalls });
    expect(budgetOnly.stopReason).toBe('budget');
    expect([all.steps, noStepCap.steps, budgetOnly.steps]).toEqual([2, 2, 2]);
  });

  it('unparseable responses count as steps and do not end the run', () => {
    const r = replay(trace([call(30, undefined, { unparseable: true }), call(30, undefined, { unparseable: true }), call(10)]), { maxSteps: 2 });
    expect(r.stopReason).toBe('max_steps');
    expect(r.steps).toBe(2);
  });

  it('the reference preset is 12 steps, $0.50, 120 s, repeat 3 (total)', () => {
    expect(REFERENCE_PRESET).toMatchObject({ maxSteps: 12, maxCostPico: usdToPico(0.5), timeoutMs: 120_000, maxRepeat: 3, repeatMode: 'total', budgetMode: 'check' });
    const r = replay(trace(distinctSteps(30)), REFERENCE_PRESET);
    expect(r.stopReason).toBe('max_steps');
    expect(r.steps).toBe(12);
  });

  it('provider_refused: no native trace ends so; a source whose provider refuses the call (a synthetic agent: test/synthetic/providerRefusal.test.ts)', () => {
    const calls = distinctSteps(2);
    let next = 0;
    const refusing = {
      next: () => (next < calls.length ? calls[next++]! : (next++, { type: 'call' as const, outputTokens: 0, failed: { status: 400, message: 'too long' } })),
      exhaustedReason: () => 'trace_end' as const,
      refusal: () => (next > calls.length ? { promptTokens: 900, maxOutputTokens: 4096, contextWindowTokens: 4500 } : undefined),
    };
    const r = runLoop(refusing, { brakes: { ...NO_BRAKES, maxSteps: 3 }, strategy: FULL_HISTORY, cache: 'off', pricing: MINI_TABLE.resolve('mini'), systemTokens: 100, goalTokens: 20 });
    expect([r.stop.reason, r.stop.detail, r.steps, r.calls, r.failedCalls]).toEqual(['provider_refused', 'the provider refused the call: prompt of 900 tokens + max_tokens 4096 > context window 4500', 2, 3, 1]);
  });

  it('every stop reason is reachable (this file covers the list)', () => {
    expect(STOP_REASONS).toHaveLength(12);
  });
});

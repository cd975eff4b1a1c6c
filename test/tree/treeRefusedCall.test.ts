/**
 * A run of a session tree whose recording ends in its provider's refusal of a call past the window
 * (failed.contextLengthExceeded): replayed in the tree, it ends provider_refused at that call, as a lone
 * replay of the run ends it (loop/run.ts beforeCall: the source's refusal) — the call made and failed, no
 * step, paid nothing, its time counted, the refusal's numbers in the detail — and a summary call due right
 * before it is made (a refused call is a call left: kernel/summaryBeforeCall.ts callsLeft). Before the fix the
 * tree's recorded source told no refusal: the refused call replayed as a plain failed call, a step, and the
 * run ended trace_end.
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES, type BrakeConfig } from '../../src/brakes/config.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import { replayTrace } from '../../src/replay/replay.js';
import type { CallRecord, Trace } from '../../src/trace/types.js';
import { replaySessionTree } from '../../src/tree/engine.js';
import { call, MINI, MINI_TABLE, toolCall, trace } from '../helpers.js';

const REFUSED: CallRecord = { type: 'call', outputTokens: 0, latencyMs: 700, failed: { status: 400, message: 'context_length_exceeded', contextLengthExceeded: { promptTokens: 130_000, maxOutputTokens: 4096, contextWindowTokens: 128_000 } } };
/** Five steps of growing prompts, then the refusal: the run ended there, `error`. */
const recording: Trace = trace([...Array.from({ length: 5 }, (_, i) => call(100 + 10 * i, [toolCall('read', { i }, 900 + 100 * i)], { latencyMs: 400 })), REFUSED], { outcome: 'error' });

function both(strategy: ContextStrategy, brakes: BrakeConfig = NO_BRAKES) {
  const lone = replayTrace(recording, { brakes, strategy: { ...strategy, cache: 'recorded' }, prices: MINI_TABLE, engine: 'readable' });
  const agent = replaySessionTree({ sessionId: 's', agents: [{ agentId: 'main', kind: 'main', runs: [recording] }], notes: [] }, { brakes, strategy, pricingOf: () => MINI, cacheOf: () => 'recorded' }).agents[0]!;
  return {
    lone: { reason: lone.stopReason, detail: lone.stopDetail, steps: lone.steps, calls: lone.modelCalls, costPico: lone.costPico, elapsedMs: lone.elapsedMs, summaryCalls: lone.summaryCalls ?? 0 },
    tree: { reason: agent.stop?.reason, detail: agent.stop?.detail, steps: agent.steps, calls: agent.calls, costPico: agent.costPico, elapsedMs: agent.elapsedMs, summaryCalls: agent.summaryCalls ?? 0 },
  };
}

describe('a recorded refusal replayed in a session tree', () => {
  it('ends the run provider_refused at the refused call, as a lone replay: no step, paid nothing, its time counted', () => {
    const { lone, tree } = both({ kind: 'full' });
    expect(lone).toMatchObject({ reason: 'provider_refused', steps: 5, calls: 6, elapsedMs: 5 * 400 + 700 });
    expect(lone.detail).toContain('prompt of 130000 tokens + max_tokens 4096 > context window 128000');
    expect(tree).toEqual(lone);
  });

  it('under a summary strategy whose summary call is due right before the refused call: made, then the refusal, as a lone replay', () => {
    const strategy: ContextStrategy = { kind: 'summary', summary: { triggerTokens: 5_000, keepSteps: 1, summaryTokens: 200 } };
    const { lone, tree } = both(strategy);
    const rows = replayTrace(recording, { brakes: NO_BRAKES, strategy: { ...strategy, cache: 'recorded' }, prices: MINI_TABLE, engine: 'readable', keepSteps: true }).rows;
    expect([rows.at(-2)!.summary, rows.at(-1)!.failed, lone.reason]).toEqual([true, true, 'provider_refused']);
    expect(tree).toEqual(lone);
  });

  it('a brake before the refused call wins, in the tree as alone', () => {
    const { lone, tree } = both({ kind: 'full' }, { ...NO_BRAKES, maxSteps: 5 });
    expect(lone.reason).toBe('max_steps');
    expect({ ...tree, detail: lone.detail }).toEqual(lone);
  });
});

/**
 * With the cache as recorded under a strategy that changed the prompt, a call's recorded read is capped at
 * what the provider's rule (pricing/cacheRules.ts: minimum prefix, increments) serves of the unchanged
 * prefix (kernel/meter.ts servedCachedTokens, by cacheOn's rule). Before, it was capped at the unchanged
 * prefix alone: under window:1 a 1,100-token prefix served 1,100 cached tokens, where OpenAI serves 1,024,
 * and a 1,000-token prefix served 1,000, where OpenAI serves none. The prompt as sent and failed calls stay
 * billed as recorded.
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import type { ContextStrategy } from '../../src/context/strategy.js';
import { runLoop } from '../../src/loop/run.js';
import { ReplaySource } from '../../src/loop/replaySource.js';
import { NO_CACHE_RULE } from '../../src/pricing/cacheRules.js';
import type { ModelPricing } from '../../src/pricing/types.js';
import { replayTrace } from '../../src/replay/replay.js';
import type { CallRecord, Trace } from '../../src/trace/types.js';
import { call, handPriced, handTable, toolCall, trace } from '../helpers.js';

/** gpt-* takes OpenAI's rule: from 1,024 tokens, hits in 128-token increments. */
const GPT = handPriced('gpt-4o-mini', { input: 0.15, output: 0.6, cached: 0.075 }, 128_000);
const INPUT = GPT.base.input;
const CACHED = GPT.base.cachedInput!;
const OUTPUT = GPT.base.output;
const WINDOW_1: ContextStrategy = { kind: 'window', windowSteps: 1, cache: 'recorded' };
const AS_SENT: ContextStrategy = { kind: 'full', cache: 'recorded' };

/**
 * A full-history recording: a system prompt of `system` tokens, then steps of 10 output and 100 result
 * tokens, each prompt the growth model's (no unseen overhead), each read what OpenAI serves of the previous prompt.
 */
function recording(system: number, extra: CallRecord[] = []): Trace {
  const served = (prefix: number) => (prefix < 1024 ? 0 : prefix - (prefix % 128));
  const calls = [0, 1, 2].map((i) => call(10, [toolCall('t', { i }, 100)], { inputTokens: system + 110 * i, cachedInputTokens: i === 0 ? 0 : served(system + 110 * (i - 1)) }));
  calls.push(...extra, call(10, [], { inputTokens: system + 330, cachedInputTokens: served(system + 220), final: true }));
  return trace(calls, { system, model: GPT.model, origin: 'recorded', outcome: 'completed' });
}

/** Each call's billed prompt, read and cost in the real loop; the totals in the readable and compiled replays (which must agree). */
function billed(t: Trace, strategy: ContextStrategy, pricing: ModelPricing = GPT) {
  const loop = runLoop(new ReplaySource(t), { strategy, cache: 'recorded', pricing, systemTokens: t.header.systemTokens, goalTokens: 0, brakes: NO_BRAKES, keepSteps: true });
  const totals = { inputTokens: loop.inputTokens, cachedInputTokens: loop.cachedInputTokens, costPico: loop.costPico };
  for (const engine of ['readable', 'compiled'] as const) {
    const r = replayTrace(t, { brakes: NO_BRAKES, strategy, pricing, prices: handTable(pricing), engine });
    expect({ inputTokens: r.inputTokens, cachedInputTokens: r.cachedInputTokens, costPico: r.costPico }, engine).toEqual(totals);
  }
  return { inputs: loop.rows.map((r) => r.inputTokens), cached: loop.rows.map((r) => r.cachedInputTokens), costs: loop.rows.map((r) => r.costPico), ...totals };
}

const costOf = (input: number, cached: number, output: number) => (input - cached) * INPUT + cached * CACHED + output * OUTPUT;

describe('the cache as recorded under window:1, on a model with a cache rule (OpenAI: 1,024 tokens, 128-token increments)', () => {
  it('serves what the rule serves of the unchanged prefix: 1,024 of a 1,100-token system prompt (before: 1,100)', () => {
    const r = billed(recording(1100), WINDOW_1);
    // Under window:1 every prompt from the second is the system prompt and one step (1,210 tokens). Call 2's
    // unchanged prefix is call 1's prompt (1,100: 1,024 served and recorded); from call 3 on only the system
    // prompt is unchanged: 1,100 tokens, of which the rule serves 1,024 (recorded: 1,152 and 1,280).
    expect(r.inputs).toEqual([1100, 1210, 1210, 1210]);
    expect(r.cached).toEqual([0, 1024, 1024, 1024]);
    expect(r.costs).toEqual([costOf(1100, 0, 10), costOf(1210, 1024, 10), costOf(1210, 1024, 10), costOf(1210, 1024, 10)]);
    expect(r.cachedInputTokens).toBe(3072);
    expect(r.costPico).toBe(503_100_000);
  });

  it('serves nothing of an unchanged prefix below the minimum: a 1,000-token system prompt (before: 1,000 a call)', () => {
    const r = billed(recording(1000), WINDOW_1);
    expect(r.inputs).toEqual([1000, 1110, 1110, 1110]);
    // Recorded reads 0, 0, 1,024, 1,152: the unchanged prefix under the window is 1,000 tokens, below 1,024.
    expect(r.cached).toEqual([0, 0, 0, 0]);
    expect(r.costPico).toBe(costOf(1000 + 3 * 1110, 0, 40));
    expect(r.costPico).toBe(673_500_000);
  });

  it('keeps a failed call as recorded: its read is not rounded', () => {
    // A failed call (no tool ran) between the third call and the last, reading 1,100 tokens of its 1,320.
    const failed: CallRecord = { type: 'call', outputTokens: 0, inputTokens: 1320, cachedInputTokens: 1100, failed: { status: 500, message: 'server error' } };
    const r = billed(recording(1100, [failed]), WINDOW_1);
    expect(r.inputs).toEqual([1100, 1210, 1210, 1320, 1210]);
    // The last call sends again the prompt the failed call was sent (1,210 tokens unchanged): the rule serves
    // 1,152 of them (recorded: 1,280).
    expect(r.cached).toEqual([0, 1024, 1024, 1100, 1152]);
    expect(r.costs[3]).toBe(costOf(1320, 1100, 0));
    expect(r.costPico).toBe(costOf(1100, 0, 10) + 2 * costOf(1210, 1024, 10) + costOf(1320, 1100, 0) + costOf(1210, 1152, 10));
    expect(r.costPico).toBe(609_000_000);
  });

  it('bills the prompt as sent (full history) exactly as recorded', () => {
    const t = recording(1100);
    const r = billed(t, AS_SENT);
    expect(r.inputs).toEqual(t.calls.map((c) => c.inputTokens));
    expect(r.cached).toEqual(t.calls.map((c) => c.cachedInputTokens));
    expect(r.cached).toEqual([0, 1024, 1152, 1280]);
    expect(r.costPico).toBe(t.calls.reduce((sum, c) => sum + costOf(c.inputTokens!, c.cachedInputTokens!, c.outputTokens), 0));
  });

  it('with no rule (NO_CACHE_RULE), serves the whole unchanged prefix, as before', () => {
    const r = billed(recording(1100), WINDOW_1, { ...GPT, cacheRule: NO_CACHE_RULE });
    expect(r.cached).toEqual([0, 1024, 1100, 1100]);
    expect(r.costPico).toBe(costOf(1100, 0, 10) + costOf(1210, 1024, 10) + 2 * costOf(1210, 1100, 10));
  });
});

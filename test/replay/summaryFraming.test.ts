/**
 * A summary call sends the prompt the next call would send — the context and the framing the last call showed
 * beyond it (tool schemas, message framing) — so the cache serves it what it serves an ordinary call: the
 * unchanged prefix plus that framing (kernel/meter.ts summaryCachedPrefixTokens), in both engines and in serve's
 * meter (loop/summary.ts estimatedSummaryCall). Before the fix it served the unchanged prefix alone, writing the
 * framing again (review s25 finding 7: on C.jsonl, 18,500 read and 2,200 written after a 19,000-token call).
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import type { CacheMode, ContextStrategy } from '../../src/context/strategy.js';
import { replayTrace } from '../../src/replay/replay.js';
import type { CallRecord } from '../../src/trace/types.js';
import { call, handPriced, handTable, toolCall, trace } from '../helpers.js';

const FRAMING = 500;
const mini = handPriced('mini', { input: 0.15, output: 0.6, cached: 0.075 }, 128_000);
const claude = handPriced('claude-sonnet-4', { input: 3, output: 15, cached: 0.3, cacheWrite: 3.75 }, 200_000);

/** Eight steps of 50 out and a 1,000-token result, each prompt recorded FRAMING tokens past the tracked context, then an answer. */
function recording(model: string) {
  let context = 100;
  const calls: CallRecord[] = Array.from({ length: 8 }, (_, i) => {
    const record = call(50, [toolCall('t', { i }, 1000)], { inputTokens: context + FRAMING, cachedInputTokens: context - 100 });
    context += 1050;
    return record;
  });
  calls.push(call(30, undefined, { final: true, inputTokens: context + FRAMING }));
  return trace(calls, { outcome: 'completed', origin: 'recorded', model });
}

describe('a summary call reads the framing from the cache, as the call before it does', () => {
  it.each([
    ['mini', 'recorded'],
    ['mini', 'on'],
    ['claude-sonnet-4', 'recorded'],
    ['claude-sonnet-4', 'on'],
  ] as const)('on %s, cache %s: the summary call reads the whole prompt the call before it was billed, in both engines', (model, cache: CacheMode) => {
    const strategy: ContextStrategy = { kind: 'summary', cache, summary: { triggerTokens: 4000, keepSteps: 1, summaryTokens: 200 } };
    const t = recording(model);
    const options = { brakes: NO_BRAKES, strategy, prices: handTable(mini, claude) };
    const readable = replayTrace(t, { ...options, keepSteps: true });
    const summaries = readable.rows.flatMap((row, i) => (row.summary ? [i] : []));
    expect(summaries.length).toBeGreaterThan(1);
    for (const i of summaries) {
      const [before, summary] = [readable.rows[i - 1]!, readable.rows[i]!];
      // Its prompt: the call before it (context + framing) and that call's output and tool result.
      expect(summary.inputTokens).toBe(before.inputTokens + 1050);
      // Read: all the call before it sent (was: less the framing, written again).
      expect(summary.cachedInputTokens).toBe(before.inputTokens);
      expect(summary.cacheWriteTokens).toBe(model === 'mini' ? 0 : 1050);
    }
    const compiled = replayTrace(t, { ...options, engine: 'compiled' });
    expect([compiled.costPico, compiled.summaryCostPico, compiled.cachedInputTokens]).toEqual([readable.costPico, readable.summaryCostPico, readable.cachedInputTokens]);
  });
});

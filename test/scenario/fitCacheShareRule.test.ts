/**
 * A fitted cacheHitShare is the recorded cached tokens over what the provider's rule would serve of each
 * previous prompt (its minimum prefix and increments), not over the previous prompts whole: the synthetic
 * agent applies the rule again to the share it serves (review s25-r2, SY1), so a share taken over whole
 * prompts counted the rule's losses twice. A run whose cache served all the rule allows fits a share of 1.
 */
import { describe, expect, it } from 'vitest';
import { withCacheRule } from '../../src/pricing/cacheRules.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { resolveTracePricing } from '../../src/replay/replay.js';
import { factsOf } from '../../src/scenario/fitFacts.js';
import { parseNativeTraces } from '../../src/trace/parseNative.js';

/** gpt-4o (cached from 1,024 tokens, in 128-token steps): prompts 600, 1,300, 2,000, 2,700, each cached as the rule serves the one before. */
const RUN = [
  '{"type":"header","schema":"loopcost.trace/1","model":"gpt-4o","systemTokens":500,"goalTokens":100}',
  '{"type":"call","inputTokens":600,"cachedInputTokens":0,"outputTokens":100,"toolCalls":[{"name":"a","arguments":{"k":1},"resultTokens":600}]}',
  '{"type":"call","inputTokens":1300,"cachedInputTokens":0,"outputTokens":100,"toolCalls":[{"name":"a","arguments":{"k":2},"resultTokens":600}]}',
  '{"type":"call","inputTokens":2000,"cachedInputTokens":1280,"outputTokens":100,"toolCalls":[{"name":"a","arguments":{"k":3},"resultTokens":600}]}',
  '{"type":"call","inputTokens":2700,"cachedInputTokens":1920,"outputTokens":100,"final":true}',
  '{"type":"end","outcome":"completed"}',
].join('\n');

describe('fit: the cache hit share over what the provider rule serves', () => {
  it('a run cached as fully as the rule allows: cached = servable (share 1)', () => {
    const [trace] = parseNativeTraces(RUN, 'run.jsonl');
    const pricing = resolveTracePricing(trace!, { prices: loadPriceTable({}) });
    const facts = factsOf(trace!, pricing);
    // Of 600 nothing (below 1,024), of 1,300 1,280, of 2,000 1,920 (128-token steps).
    expect([facts.cachedTokens, facts.servablePrefixTokens]).toEqual([3200, 3200]);
  });

  it('of table prices that state no rule (a library caller\'s prices.resolve): the same servable prefix as with the rule filled in', () => {
    const [trace] = parseNativeTraces(RUN, 'run.jsonl');
    const bare = loadPriceTable({}).resolve('gpt-4o');
    expect(bare.cacheRule).toBeUndefined();
    // Without the rule it was 600 + 1,300 + 2,000: the kernel's flattening takes it (kernel/prices.ts flattenPrices).
    expect(factsOf(trace!, bare).servablePrefixTokens).toBe(3200);
    expect(factsOf(trace!, bare)).toEqual(factsOf(trace!, withCacheRule(bare)));
  });
});

/**
 * The provider's cache rule is taken in the kernel's one price flattening (kernel/prices.ts flattenPrices:
 * the rule a pricing states, else its provider's), so a table's prices left without `cacheRule` (what a
 * library caller's `prices.resolve(...)` gives) meter by the same rule everywhere in one run: fit's
 * servable prefix (test/scenario/fitCacheShareRule.test.ts) and a scenario agent's cache share took none while
 * the loop session filled it in (review RC: two rules in one run).
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { flattenPrices } from '../../src/kernel/prices.js';
import { NO_CACHE_RULE, withCacheRule } from '../../src/pricing/cacheRules.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import type { ModelPricing } from '../../src/pricing/types.js';
import { parseScenario } from '../../src/scenario/load.js';
import { prepareScenario, runSynthetic } from '../../src/scenario/run.js';

const prices = loadPriceTable({});

describe('flattenPrices takes the cache rule as withCacheRule would', () => {
  it('a pricing without cacheRule: its provider rule (gpt-4o-mini: from 1,024 tokens, in 128s)', () => {
    const bare = prices.resolve('gpt-4o-mini');
    expect(bare.cacheRule).toBeUndefined();
    const flat = flattenPrices(bare);
    expect([flat.minCachePrefix, flat.cacheIncrement]).toEqual([1024, 128]);
    const filled = flattenPrices(withCacheRule(bare));
    expect([flat.minCachePrefix, flat.cacheIncrement]).toEqual([filled.minCachePrefix, filled.cacheIncrement]);
  });

  it('a stated rule is kept: NO_CACHE_RULE, or the caller\'s own; a model and provider without one get none', () => {
    const bare = prices.resolve('gpt-4o-mini');
    const none = flattenPrices({ ...bare, cacheRule: NO_CACHE_RULE });
    expect([none.minCachePrefix, none.cacheIncrement]).toEqual([0, 1]);
    const own = flattenPrices({ ...bare, cacheRule: { minPrefixTokens: 300, incrementTokens: 10, source: 'mine' } });
    expect([own.minCachePrefix, own.cacheIncrement]).toEqual([300, 10]);
    const hand: ModelPricing = { requested: 'my-model', model: 'my-model', tiers: [], base: { input: 3, cachedInput: 1, output: 9 }, source: { name: 'test', version: 'test', hash: '0' } };
    expect([flattenPrices(hand).minCachePrefix, flattenPrices(hand).cacheIncrement]).toEqual([0, 1]);
  });
});

describe('one rule in one run, whoever resolved the prices', () => {
  it('a scenario run with a cache hit share: the agent serves its share by the rule the session meters by', () => {
    const scenario = parseScenario(
      `scenario: loopcost.scenario/1
model: gpt-4o-mini
systemTokens: 300
promptOverhead: { fixedTokens: 0, perStepTokens: 50 }
cacheHitShare: 0.9
context: { cache: "on" }
runs: 12
population:
  - { behaviour: healthy, weight: 1, steps: { kind: uniform, min: 3, max: 12 }, outputTokens: 100, toolResultTokens: { kind: uniform, min: 50, max: 600 } }
`,
      'mini.yaml',
    );
    const prepared = prepareScenario(scenario, { prices, seed: 3, brakes: NO_BRAKES, keepSteps: true });
    const bare = prices.resolve('gpt-4o-mini');
    expect(bare.cacheRule).toBeUndefined();
    const rows = (pricing: ModelPricing) =>
      Array.from({ length: 12 }, (_, run) => runSynthetic({ ...prepared, pricing }, run).result.rows.map((row) => [row.inputTokens, row.cachedInputTokens, row.costPico]));
    const asBare = rows(bare);
    // Nothing cached below 1,024 tokens, and some calls cached (so the share was served at all).
    expect(asBare.flat().every(([input, cached]) => input! >= 1024 || cached === 0)).toBe(true);
    expect(asBare.flat().some(([, cached]) => cached! > 0)).toBe(true);
    expect(asBare).toEqual(rows(withCacheRule(bare)));
  });
});

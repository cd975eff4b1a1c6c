/**
 * A scenario's prices are not given the provider's cache rule where they are resolved for its runs
 * (scenarioPricing): the kernel takes it where it flattens them (kernel/prices.ts flattenPrices, cacheRuleOf),
 * so every figure of a cache-on scenario is the same as with the rule filled in. The library's
 * resolveScenarioPricing keeps its result's shape: the rule filled in, as resolveTracePricing fills a run's.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { withCacheRule } from '../../src/pricing/cacheRules.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import type { PriceTable } from '../../src/pricing/types.js';
import { parseScenario } from '../../src/scenario/load.js';
import { resolveScenarioPricing, runScenario } from '../../src/scenario/run.js';
import { scenarioPricing } from '../../src/scenario/scenarioPlaces.js';

const prices = loadPriceTable({});
/** The bundled production mix (gpt-4o-mini, cache on: OpenAI caches from 1,024 tokens in 128-token steps). */
const mix = parseScenario(readFileSync('scenarios/production-mix.yaml', 'utf8'), 'production-mix.yaml');

/** The same table, every model it resolves given its provider's cache rule (what scenarioPricing did before). */
function filledTable(table: PriceTable): PriceTable {
  const filled = Object.create(table) as PriceTable;
  filled.resolve = (model, provider, recordedAt) => withCacheRule(table.resolve(model, provider, recordedAt));
  return filled;
}

describe('a scenario priced without the cache rule filled in', () => {
  it("its runs' prices are the table's as they are; the library's resolveScenarioPricing still shows the rule", () => {
    const table = prices.resolve(mix.model, mix.provider);
    expect(table.cacheRule).toBeUndefined();
    expect(scenarioPricing(mix, prices, {})).toBe(table);
    expect(resolveScenarioPricing(mix, prices).cacheRule).toMatchObject({ minPrefixTokens: 1024, incrementTokens: 128 });
  });

  it('every figure of its cache-on runs is the same as with the rule filled in, the rule still metered', () => {
    expect(scenarioPricing(mix, filledTable(prices), {}).cacheRule).toMatchObject({ minPrefixTokens: 1024 });
    const runs = runScenario(mix, { prices, runs: 40, seed: 7 });
    expect(runs.some((run) => run.cacheRuleLostTokens > 0)).toBe(true);
    expect(runs).toEqual(runScenario(mix, { prices: filledTable(prices), runs: 40, seed: 7 }));
  });
});

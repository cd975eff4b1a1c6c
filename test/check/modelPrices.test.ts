import { describe, expect, it } from 'vitest';
import { BaselinePrices, changedPrices, ResolvedPrices, type PriceRow } from '../../src/check/modelPrices.js';
import { priceChangeText } from '../../src/check/priceChangeText.js';
import { handPriced, handTable } from '../helpers.js';

const row = (prices: PriceRow['pricesPicoPerToken'], extra: Partial<PriceRow> = {}): PriceRow => ({ model: 'm', pricedAs: 'm', pricesPicoPerToken: prices, tiers: [], ...extra });

describe('the prices of the models a check ran', () => {
  it('notes each model once per name, provider and recording day, in a stable order, as the table priced it', () => {
    const table = new ResolvedPrices(handTable(handPriced('b', { input: 1, output: 2 }), handPriced('a', { input: 0.15, output: 0.6, cached: 0.075 })));
    table.resolve('b', undefined, '2025-05-01T10:00:00Z');
    table.resolve('b', undefined, '2025-05-01T23:00:00Z');
    table.resolve('a');
    expect(() => table.resolve('unknown')).toThrow(/unknown model/);
    expect(table.rows()).toEqual([
      { model: 'a', pricedAs: 'a', pricesPicoPerToken: { input: 150000, cachedInput: 75000, output: 600000 }, tiers: [] },
      { model: 'b', recordedOn: '2025-05-01', pricedAs: 'b', pricesPicoPerToken: { input: 1000000, output: 2000000 }, tiers: [] },
    ]);
  });

  it('a price left out equals the one it falls back to; a model the baseline did not price is no price change', () => {
    expect(changedPrices([row({ input: 5, output: 9 })], [row({ input: 5, cachedInput: 5, reasoning: 9, output: 9 })])).toEqual([]);
    expect(changedPrices([row({ input: 5, output: 9 }, { model: 'other' })], [row({ input: 1, output: 1 })])).toEqual([]);
    const changes = changedPrices([row({ input: 6, output: 9 })], [row({ input: 5, output: 9 })]);
    expect(changes).toHaveLength(1);
    expect(priceChangeText(changes[0]!)).toBe('m: input $0.000005 → $0.000006 per million tokens');
  });

  it('the baseline prices table gives the baseline rows for the models it priced, the table for the rest', () => {
    const now = handTable(handPriced('m', { input: 0.165, output: 0.66 }, 1000), handPriced('n', { input: 1, output: 1 }));
    const then = new BaselinePrices(now, [row({ input: 150000, output: 600000 })]);
    expect(then.resolve('m')).toMatchObject({ base: { input: 150000, output: 600000 }, contextWindow: 1000 });
    expect(then.resolve('m')).toBe(then.resolve('m'));
    expect(then.resolve('n').base).toEqual({ input: 1000000, output: 1000000 });
  });
});

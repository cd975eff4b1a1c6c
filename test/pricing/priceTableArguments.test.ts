/**
 * loadPriceTable and a table's resolve refuse what they cannot read, naming the option or argument
 * (src/pricing/tableArguments.ts); a model's prices with a misspelt key are refused by the shared
 * pricingIssue (options/rules.ts). Before: `loadPriceTable(null)` was a TypeError ('optionNames'),
 * `loadPriceTable({ asOf: 'yesterday' })` a TypeError (toISOString), `loadPriceTable({ pricesFil: 'x' })`
 * and `loadPriceTable('x')` the bundled table, silently; `prices.resolve(null)` and `resolve(5)` a
 * TypeError (trim); and `pricing.base.cachedinput` was ignored, its cache reads billed at the input price.
 */
import { describe, expect, it } from 'vitest';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { replayTrace } from '../../src/replay/replay.js';
import { call, MINI, MINI_TABLE, trace, userErrorOf } from '../helpers.js';

const OPTIONS = '<loadPriceTable options>';
const RESOLVE = '<PriceTable.resolve arguments>';
const bundled = loadPriceTable();

/** A call, and the file and field (with its code) it is refused at. */
const REFUSED: [string, () => unknown, string, string, string][] = [
  ['loadPriceTable(null)', () => loadPriceTable(null as never), OPTIONS, '', 'invalid_value'],
  ["loadPriceTable('x')", () => loadPriceTable('x' as never), OPTIONS, '', 'invalid_value'],
  ["loadPriceTable({ asOf: 'yesterday' })", () => loadPriceTable({ asOf: 'yesterday' as never }), OPTIONS, 'asOf', 'invalid_value'],
  ["loadPriceTable({ asOf: new Date('nope') })", () => loadPriceTable({ asOf: new Date('nope') }), OPTIONS, 'asOf', 'invalid_value'],
  ["loadPriceTable({ pricesFil: 'x' })", () => loadPriceTable({ pricesFil: 'x' } as never), OPTIONS, 'pricesFil', 'unrecognized_keys'],
  ['loadPriceTable({ pricesFile: 5 })', () => loadPriceTable({ pricesFile: 5 as never }), OPTIONS, 'pricesFile', 'invalid_input'],
  ["loadPriceTable({ overridesFile: '' })", () => loadPriceTable({ overridesFile: '' }), OPTIONS, 'overridesFile', 'invalid_value'],
  ["loadPriceTable({ watchOverrides: 'yes' })", () => loadPriceTable({ watchOverrides: 'yes' as never }), OPTIONS, 'watchOverrides', 'invalid_input'],
  ['resolve(null)', () => bundled.resolve(null as never), RESOLVE, 'model', 'invalid_input'],
  ['resolve(5)', () => bundled.resolve(5 as never), RESOLVE, 'model', 'invalid_input'],
  ['resolve() with no model', () => (bundled.resolve as () => unknown)(), RESOLVE, 'model', 'missing_input'],
  ["resolve('gpt-4o', 5)", () => bundled.resolve('gpt-4o', 5 as never), RESOLVE, 'provider', 'invalid_input'],
  ["resolve('gpt-4o', undefined, 20260601)", () => bundled.resolve('gpt-4o', undefined, 20260601 as never), RESOLVE, 'recordedAt', 'invalid_input'],
];

describe('loadPriceTable and resolve refuse what they cannot read', () => {
  it.each(REFUSED)('%s', (_, run, file, field, code) => {
    const error = userErrorOf(run);
    expect(error.issues).toContainEqual(expect.objectContaining({ file, ...(field === '' ? {} : { field }), code }));
  });

  it('says what a misspelt option was meant to be', () => {
    expect(userErrorOf(() => loadPriceTable({ pricesFil: 'x' } as never)).message).toBe(`${OPTIONS} field 'pricesFil': unknown option "pricesFil" (did you mean pricesFile?)`);
  });

  it('takes what it took before', () => {
    expect(bundled.resolve('gpt-4o').model).toBe('gpt-4o');
    expect(bundled.resolve('gpt-4o', 'openai', '2026-06-01T00:00:00Z').source.asOf).toBe('2026-06-01');
    expect(loadPriceTable({ asOf: new Date('2026-06-01') }).resolve('gpt-4o').source.dating).toBe('as-of');
    expect(loadPriceTable(undefined).resolve('gpt-4o').base).toEqual(bundled.resolve('gpt-4o').base);
  });
});

describe("a model's prices with a misspelt price key", () => {
  const run = trace([call(100, undefined, { inputTokens: 1_000, cachedInputTokens: 800 })]);
  const replay = (pricing: unknown) => replayTrace(run, { brakes: {}, strategy: FULL_HISTORY, prices: MINI_TABLE, pricing } as never);

  it('is refused naming the key and the one meant, in the base and in a tier', () => {
    const base = userErrorOf(() => replay({ ...MINI, base: { ...MINI.base, cachedinput: 1 } }));
    expect(base.issues).toEqual([expect.objectContaining({ file: '<replayTrace options>', field: 'pricing.base.cachedinput', code: 'unrecognized_keys', hint: 'did you mean cachedInput?' })]);
    const tier = userErrorOf(() => replay({ ...MINI, tiers: [{ aboveInputTokens: 200_000, prices: { ...MINI.base, outptu: 5 } }] }));
    expect(tier.issues).toEqual([expect.objectContaining({ field: 'pricing.tiers[0].prices.outptu', hint: 'did you mean output?' })]);
  });

  it('while the prices spelt right price the run as before', () => {
    expect(replay(MINI).costPico).toBe(replayTrace(run, { brakes: {}, strategy: FULL_HISTORY, prices: MINI_TABLE }).costPico);
  });
});

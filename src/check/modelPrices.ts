/**
 * The prices a check's runs were priced at: every model the runs resolved (by the name asked for, the
 * provider hint and the UTC day dated prices were read for), with the per-token prices and tiers the table
 * gave it. A baseline stores them, so a later check can tell a price change from a table that merely
 * differs (a `--prices-override` of a model no scenario uses, a loopcost upgrade whose bundled table left
 * these models' prices alone), and, when the prices did change, run again under the baseline's prices:
 * what drifts then is not the price change.
 */
import { z } from 'zod';
import { PICO_PER_USD } from '../money.js';
import { pricingIssue, type Issue } from '../options/rules.js';
import type { TokenPriceKey } from '../pricing/cost.js';
import { utcDay } from '../pricing/genaiPrices.js';
import { checkPrice } from '../pricing/litellmValues.js';
import { impossiblePriceOrder } from '../pricing/merge.js';
import type { ModelPricing, PriceSource, PriceTable, PriceTier, TokenPrices } from '../pricing/types.js';

/** A price in picodollars per token: its rules are the shared ones (storedPriceIssues). */
const pico = z.number();
const tokenPricesSchema = z.strictObject({
  input: pico,
  cachedInput: pico.optional(),
  cacheWrite: pico.optional(),
  cacheWrite1h: pico.optional(),
  output: pico,
  reasoning: pico.optional(),
});

/** One resolved model as a baseline stores it; prices in picodollars per token. */
export const priceRowSchema = z.strictObject({
  /** The name the runs asked for. */
  model: z.string(),
  provider: z.string().optional(),
  /** The UTC day of the run's recording (dated prices are read for it); absent: the run has none. */
  recordedOn: z.string().optional(),
  /** The name the table knows the model by. */
  pricedAs: z.string(),
  pricesPicoPerToken: tokenPricesSchema,
  tiers: z.array(z.strictObject({ aboveInputTokens: z.number().int().nonnegative(), pricesPicoPerToken: tokenPricesSchema })),
}).superRefine((row, ctx) => storedPriceIssues(row, (path, message) => ctx.addIssue({ code: 'custom', path, message })));

export type PriceRow = z.infer<typeof priceRowSchema>;

type PriceIssue = (path: (string | number)[], message: string) => void;

/**
 * A stored row's prices under the rules every price loopcost reads is held to, so a tampered baseline is
 * refused naming its field rather than the scenario its runs then fail in: whole picodollars per token
 * (the shared pricingIssue), at most what a price file may give (checkPrice: $1 a token), and in an
 * order a provider bills by (checkPriceOrder: no cache read above the input price).
 */
function storedPriceIssues(row: Pick<PriceRow, 'pricesPicoPerToken' | 'tiers'>, at: PriceIssue): void {
  const places: [(string | number)[], TokenPrices][] = [[['pricesPicoPerToken'], row.pricesPicoPerToken], ...row.tiers.map((tier, i): [(string | number)[], TokenPrices] => [['tiers', i, 'pricesPicoPerToken'], tier.pricesPicoPerToken])];
  let notWhole = 0;
  const whole: Issue = (field, _code, message) => (notWhole++, at(storedPath(field), message));
  pricingIssue(whole, 'pricing', { base: row.pricesPicoPerToken, tiers: row.tiers.map((tier) => ({ aboveInputTokens: tier.aboveInputTokens, prices: tier.pricesPicoPerToken })) });
  if (notWhole > 0) return;
  for (const [path, prices] of places) {
    let tooHigh = 0;
    for (const [key, pico] of Object.entries(prices) as [TokenPriceKey, number][]) {
      const issue = checkPrice(pico / PICO_PER_USD, '', key);
      if (typeof issue === 'object') at([...path, key], (tooHigh++, `is ${pico} picodollars per token: ${issue.message}`));
    }
    if (tooHigh === 0) priceOrderIssue(prices, (key, message) => at([...path, key], message));
  }
}

/** `pricing.tiers[1].prices.input` (pricingIssue's field) → the stored row's path, `tiers[1].pricesPicoPerToken.input`. */
function storedPath(field: string): (string | number)[] {
  const parts = field.split(/\.|\[(\d+)\]/).filter((part) => part !== undefined && part !== '');
  return parts.slice(1).map((part) => (part === 'base' || part === 'prices' ? 'pricesPicoPerToken' : /^\d+$/.test(part) ? Number(part) : part));
}


/** The pricing module's order rule (checkPriceOrder) applied to one set of prices: the key priced too high, and why. */
function priceOrderIssue(prices: TokenPrices, at: (key: TokenPriceKey, message: string) => void): void {
  const order = impossiblePriceOrder(prices);
  if (order !== undefined) at(order.above, `is ${prices[order.above]} picodollars per token, above ${order.below} (${prices[order.below]}): ${order.why}`);
}

/** A model whose prices differ from the baseline's. */
export interface PriceRowChange {
  baseline: PriceRow;
  now: PriceRow;
}

function keyOf(model: string, provider: string | undefined, recordedOn: string | undefined): string {
  return `${model}\u0000${provider ?? ''}\u0000${recordedOn ?? ''}`;
}

export function rowKey(row: PriceRow): string {
  return keyOf(row.model, row.provider, row.recordedOn);
}

/** The fields a price is made of, in one order (absent fields left out): two rows compare by their text. */
function tokenPrices(prices: TokenPrices): TokenPrices {
  const { input, cachedInput, cacheWrite, cacheWrite1h, output, reasoning } = prices;
  return {
    input,
    ...(cachedInput === undefined ? {} : { cachedInput }),
    ...(cacheWrite === undefined ? {} : { cacheWrite }),
    ...(cacheWrite1h === undefined ? {} : { cacheWrite1h }),
    output,
    ...(reasoning === undefined ? {} : { reasoning }),
  };
}

/** Every price a call is billed at, absent ones as the pricer falls back (cached input to input…). */
export function effectivePrices(p: TokenPrices): Required<TokenPrices> {
  const cacheWrite = p.cacheWrite ?? p.input;
  return { input: p.input, cachedInput: p.cachedInput ?? p.input, cacheWrite, cacheWrite1h: p.cacheWrite1h ?? cacheWrite, output: p.output, reasoning: p.reasoning ?? p.output };
}

/** Two rows bill alike when their text is the same: a price left out equals the one it falls back to. */
function pricesText(row: PriceRow): string {
  return JSON.stringify([effectivePrices(row.pricesPicoPerToken), row.tiers.map((tier) => [tier.aboveInputTokens, effectivePrices(tier.pricesPicoPerToken)])]);
}

function priceRow(args: { model: string; provider: string | undefined; recordedOn: string | undefined; pricing: ModelPricing }): PriceRow {
  const { pricing } = args;
  return {
    model: args.model,
    ...(args.provider === undefined ? {} : { provider: args.provider }),
    ...(args.recordedOn === undefined ? {} : { recordedOn: args.recordedOn }),
    pricedAs: pricing.model,
    pricesPicoPerToken: tokenPrices(pricing.base),
    tiers: pricing.tiers.map((tier) => ({ aboveInputTokens: tier.aboveInputTokens, pricesPicoPerToken: tokenPrices(tier.prices) })),
  };
}

/** A price table that notes every model its runs resolve (the table itself prices them). */
export class ResolvedPrices implements PriceTable {
  private readonly seen = new Map<string, PriceRow>();

  constructor(private readonly table: PriceTable) {}

  get source(): PriceSource {
    return this.table.source;
  }

  resolve(model: string, provider?: string, recordedAt?: string): ModelPricing {
    const pricing = this.table.resolve(model, provider, recordedAt);
    const recordedOn = utcDay(recordedAt);
    const key = keyOf(model, provider, recordedOn);
    if (!this.seen.has(key)) this.seen.set(key, priceRow({ model, provider, recordedOn, pricing }));
    return pricing;
  }

  modelNames(): string[] {
    return this.table.modelNames();
  }

  /** Every model resolved so far, in a stable order (the same check writes the same bytes). */
  rows(): PriceRow[] {
    return [...this.seen.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
  }
}

/** The models resolved now whose prices differ from the baseline's rows for the same model, provider and day. */
export function changedPrices(now: readonly PriceRow[], baseline: readonly PriceRow[]): PriceRowChange[] {
  const before = new Map(baseline.map((row) => [rowKey(row), row]));
  return now.flatMap((row) => {
    const was = before.get(rowKey(row));
    return was !== undefined && pricesText(was) !== pricesText(row) ? [{ baseline: was, now: row }] : [];
  });
}

function tiersOf(row: PriceRow): PriceTier[] {
  return row.tiers.map((tier) => ({ aboveInputTokens: tier.aboveInputTokens, prices: tier.pricesPicoPerToken }));
}

/** The source a stored row's pricing names: the baseline file that stored it, not a price table. */
const STORED_ROW: PriceSource = { name: 'baseline price row', version: 'stored', hash: '' };

/**
 * A stored row as a model's pricing (its prices and tiers only: no window, cache rule or fees), so the
 * pricing module's rules read it as they read a table's: pricing/cost.ts pricesForInput picks its tier.
 */
export function rowPricing(row: PriceRow): ModelPricing {
  return { requested: row.model, model: row.pricedAs, ...(row.provider === undefined ? {} : { provider: row.provider }), base: row.pricesPicoPerToken, tiers: tiersOf(row), source: STORED_ROW };
}

/**
 * The table with the baseline's prices for the models the baseline priced: everything else a model has
 * (its window, provider, cache rule) is the table's. A model the baseline did not price keeps the table's.
 */
export class BaselinePrices implements PriceTable {
  private readonly rows: Map<string, PriceRow>;
  private readonly priced = new Map<string, ModelPricing>();

  constructor(
    private readonly table: PriceTable,
    rows: readonly PriceRow[],
  ) {
    this.rows = new Map(rows.map((row) => [rowKey(row), row]));
  }

  get source(): PriceSource {
    return this.table.source;
  }

  resolve(model: string, provider?: string, recordedAt?: string): ModelPricing {
    const pricing = this.table.resolve(model, provider, recordedAt);
    const key = keyOf(model, provider, utcDay(recordedAt));
    const row = this.rows.get(key);
    if (row === undefined) return pricing;
    // One object per model and day: the kernel flattens a pricing once per object.
    let then = this.priced.get(key);
    if (then === undefined) this.priced.set(key, (then = { ...pricing, base: row.pricesPicoPerToken, tiers: tiersOf(row) }));
    return then;
  }

  modelNames(): string[] {
    return this.table.modelNames();
  }
}

/** `gpt-4o-mini (openai, recorded on 2025-05-01)`: a row's model as a sentence names it. */
export function priceRowName(row: PriceRow): string {
  const details = [row.provider, row.recordedOn === undefined ? undefined : `recorded on ${row.recordedOn}`].filter((part) => part !== undefined);
  return details.length === 0 ? row.model : `${row.model} (${details.join(', ')})`;
}

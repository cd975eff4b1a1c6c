/**
 * A shard's `prices` as merge accepts it (sweepShardSchema.ts): replay's prices block (pricedModels.ts
 * pricesRecord) — the table, `source`, `models` with their runs, `days`, `note` — each field typed and bounded
 * (counts whole and not negative, prices finite and not negative). The assertions at the end fail to compile
 * when a field is added to the block's types and not here.
 */
import { z } from 'zod';
import { MAX_COUNT } from '../io/limits.js';
import type { PricingCorrection, PriceSource } from '../pricing/types.js';
import type { PriceDays } from '../pricing/source.js';
import type { PricedModelRecord, PricesRecord } from './pricedModels.js';

const count = () => z.number().int().nonnegative().max(MAX_COUNT);
const text = () => z.string();
/** USD per million tokens (null: the price falls back to another, as pricing/cost.ts describes it). */
const perMTok = () => z.number().nonnegative().max(Number.MAX_VALUE);

function priceSourceShape() {
  return {
    name: text(),
    version: text(),
    hash: text(),
    asOf: text().optional(),
    dating: z.enum(['as-of', 'recorded', 'release']).optional(),
    releasedOn: text().optional(),
    overrides: z.strictObject({ name: text(), hash: text() }).optional(),
    corrections: z.strictObject({ name: text(), version: text(), count: count(), hash: text() }).optional(),
  };
}

function tokenPricesShape() {
  return {
    inputPerMTokUsd: perMTok(),
    cachedInputPerMTokUsd: perMTok().nullable(),
    cacheWritePerMTokUsd: perMTok().nullable(),
    cacheWrite1hPerMTokUsd: perMTok().nullable(),
    outputPerMTokUsd: perMTok(),
    reasoningPerMTokUsd: perMTok().nullable(),
  };
}

function modelSchema() {
  return z.strictObject({
    model: text(),
    requested: text(),
    provider: text().nullable(),
    ...tokenPricesShape(),
    tiers: z.array(z.strictObject({ aboveInputTokens: count(), ...tokenPricesShape() })),
    contextWindow: count().nullable(),
    source: z.strictObject(priceSourceShape()),
    corrected: z.array(z.strictObject({ what: text(), source: text(), dated: text() })).optional(),
    providerFallback: z.strictObject({ asked: text(), detail: text() }).optional(),
    runs: count(),
  });
}

/** The schema of a shard's `prices`. */
export function shardPricesSchema() {
  return z.strictObject({
    ...priceSourceShape(),
    source: z.strictObject(priceSourceShape()),
    models: z.array(modelSchema()),
    days: z.strictObject({ recordedRuns: count(), firstDay: text().optional(), lastDay: text().optional(), undatedRuns: count(), releaseDay: text().optional() }).optional(),
    note: text().optional(),
  });
}

// The schema and the block's types name the same fields, and what it accepts is a block.
type SameKeys<A, B> = [Exclude<keyof A, keyof B>, Exclude<keyof B, keyof A>] extends [never, never] ? true : false;
type Parsed = z.infer<ReturnType<typeof shardPricesSchema>>;
type Model = Parsed['models'][number];
const schemaFollowsTypes: [
  SameKeys<Parsed, PricesRecord>,
  SameKeys<Parsed['source'], PriceSource>,
  SameKeys<Model, PricedModelRecord>,
  SameKeys<Model['tiers'][number], PricedModelRecord['tiers'][number]>,
  SameKeys<NonNullable<Model['corrected']>[number], PricingCorrection>,
  SameKeys<NonNullable<Parsed['days']>, PriceDays>,
] = [true, true, true, true, true, true];
const parsedIsABlock = (parsed: Parsed): PricesRecord => parsed;
void schemaFollowsTypes;
void parsedIsABlock;

/**
 * A report's `prices` block (pricesRecord, every command's one shape) and its `models`: every distinct resolution its runs were priced at (the model, the name
 * asked for, the day dated prices were read at and why, the prices themselves), each once with how many
 * runs it priced, sorted: the same runs give the same block whatever order they were read in.
 */
import { describePricing, type PricingDescription } from '../pricing/cost.js';
import type { PriceDays } from '../pricing/source.js';
import type { ModelPricing, PriceSource } from '../pricing/types.js';
import type { PriceDaysTally } from './priceDays.js';

export interface PricedModelRecord extends PricingDescription {
  /** Runs priced at this resolution. */
  runs: number;
}

/** Ascending, by the fields a reader looks a resolution up by, then by its whole text (nothing left to chance). */
function compareRecords(a: { record: PricedModelRecord; text: string }, b: { record: PricedModelRecord; text: string }): number {
  const keys = (x: PricedModelRecord) => [x.model, x.requested, x.provider ?? '', x.source.asOf ?? '', x.source.dating ?? ''];
  const ka = [...keys(a.record), a.text];
  const kb = [...keys(b.record), b.text];
  for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i]! < kb[i]! ? -1 : 1;
  return 0;
}

/** The resolutions runs were priced at, counted as runs are noted (a pricing object is described once, however many runs share it). */
export class PricedModels {
  private readonly runsByPricing = new Map<ModelPricing, number>();

  /** Notes `runs` runs priced at `pricing`. */
  add(pricing: ModelPricing, runs = 1): void {
    this.runsByPricing.set(pricing, (this.runsByPricing.get(pricing) ?? 0) + runs);
  }

  /** Each distinct resolution once (two pricings alike in every described field are one), sorted. */
  records(): PricedModelRecord[] {
    const byText = new Map<string, PricedModelRecord>();
    for (const [pricing, runs] of this.runsByPricing) {
      const described = describePricing(pricing);
      const text = JSON.stringify(described);
      const seen = byText.get(text);
      if (seen === undefined) byText.set(text, { ...described, runs });
      else seen.runs += runs;
    }
    return [...byText]
      .map(([text, record]) => ({ text, record }))
      .sort(compareRecords)
      .map(({ record }) => record);
  }
}

/** The block for pricings each of which priced one run (a test's or a library caller's list). */
export function pricedModelRecords(pricings: Iterable<ModelPricing>): PricedModelRecord[] {
  const priced = new PricedModels();
  for (const pricing of pricings) priced.add(pricing);
  return priced.records();
}

/**
 * JSON `prices` of every report that prices runs (replay and replay --tree, whatif, sweep and its shards,
 * project, calibrate, compare, contexts): the table as every command's JSON names it (PriceSource: `name`,
 * `version`, `hash`, …), the same again as `source`, `models` (PricedModels.records: each distinct resolution
 * with the runs it priced), `days` (which days dated prices were read at: PriceDaysTally) and `note` (the same
 * in words, for the prices line; absent when it says nothing). One shape, made here alone, so a dashboard that
 * joins reports reads one block.
 */
export type PricesRecord = PriceSource & { source: PriceSource; models: PricedModelRecord[]; days?: PriceDays; note?: string };

/** The prices block of runs priced from the table of `source`: `priced` as its parts give it (`days` absent: not known, a library caller's). */
export function pricesRecord(source: PriceSource, priced: { models: readonly PricedModelRecord[]; days?: PriceDays | undefined; note?: string | undefined }): PricesRecord {
  return { ...source, source, models: [...priced.models], ...(priced.days === undefined ? {} : { days: priced.days }), ...(priced.note ? { note: priced.note } : {}) };
}

/** The prices block of runs tallied as they were priced: each resolution with its runs, the days and their note. */
export function pricesRecordOf(source: PriceSource, tallied: { models: PricedModels; days: PriceDaysTally }): PricesRecord {
  return pricesRecord(source, { models: tallied.models.records(), days: tallied.days.priceDays(), note: tallied.days.note() });
}

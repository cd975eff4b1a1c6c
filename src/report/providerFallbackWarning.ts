/**
 * `priced_at_other_provider`: runs whose own provider (a trace's `header.provider`) the price table does not
 * price their model for, priced at another provider's price instead (pricing/providerFallback.ts, the pricing's
 * `providerFallback`): the provider asked for, whose price was taken, how many runs, and the override entry
 * that gives the provider's own (the fallback's `detail`). JSON said it on `prices.models` only; this puts it in
 * every report that lists the run notes' warnings. Pure.
 */
import { counted } from '../plural.js';
import type { ModelPricing } from '../pricing/types.js';
import type { ReportWarning } from './warnings.js';

/** The fallbacks named in the message; the rest counted. */
const NAMED = 3;

/** Runs priced at another provider's price, by the fallback's words (one per provider asked, model and provider taken). */
export class ProviderFallbackTally {
  private readonly runsByDetail = new Map<string, { asked: string; runs: number }>();

  /** The tally of runs each priced at its pricing in `pricings`. */
  static of(pricings: Iterable<ModelPricing>): ProviderFallbackTally {
    const tally = new ProviderFallbackTally();
    for (const pricing of pricings) tally.add(pricing);
    return tally;
  }

  /** Notes `runs` runs priced at `pricing`. */
  add(pricing: ModelPricing, runs = 1): void {
    const fallback = pricing.providerFallback;
    if (fallback === undefined) return;
    const seen = this.runsByDetail.get(fallback.detail);
    if (seen === undefined) this.runsByDetail.set(fallback.detail, { asked: fallback.asked, runs });
    else seen.runs += runs;
  }

  /** One warning naming each fallback (sorted, so the order the runs were read in does not matter); none when no run fell back. */
  warnings(): ReportWarning[] {
    if (this.runsByDetail.size === 0) return [];
    const fallbacks = [...this.runsByDetail].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const named = fallbacks.slice(0, NAMED).map(([detail, { asked, runs }]) => `${counted(runs, 'run')} for provider '${asked}': ${detail}`);
    const more = fallbacks.length > NAMED ? `; and ${fallbacks.length - NAMED} more providers or models` : '';
    return [{ code: 'priced_at_other_provider', message: `${named.join('; ')}${more}` }];
  }
}

/**
 * Runs re-priced as another model (`--model`) whose provider bills cache writes (Anthropic's table has a
 * cache-write price), where the runs record cache reads and no writes (a provider that caches on its own,
 * DeepSeek, OpenAI; or a cache warmed before the recording): with the cache as recorded, their cache reads are kept and billed at the model's
 * read price, but the writes that model would bill to fill that cache never show (38 mini-swe-agent DeepSeek
 * runs as claude-sonnet-4-5: $0.7604 a run; with every uncached token written, ~4% more). `--cache on` meters
 * them: what the provider's cache rule does not serve of a call's prompt is written, at the model's write
 * price, and reads follow the rule (more than DeepSeek recorded, so it may cost less: no bound either way). The reads counted are
 * the whole recordings' (a replay cut short by a brake or a window read fewer). One tally for replay, whatif
 * and `--tree` (and the library) through cli/actions/runNotes.ts, and project through report/warningLists.ts;
 * not yet sweep. Pure.
 */
import { describePricing } from '../pricing/cost.js';
import type { ModelPricing } from '../pricing/types.js';
import type { Trace } from '../trace/types.js';
import { counted } from '../plural.js';
import type { ReportWarning } from './warnings.js';

/** A run's cache as recorded: the tokens its calls read from the cache, and whether any call recorded a write. */
function recordedCache(trace: Pick<Trace, 'calls'>): { readTokens: number; wrote: boolean } {
  let readTokens = 0;
  let wrote = false;
  for (const call of trace.calls) {
    readTokens += call.cachedInputTokens ?? 0;
    if ((call.cacheWriteTokens ?? 0) > 0 || (call.cacheWrite1hTokens ?? 0) > 0) wrote = true;
  }
  return { readTokens, wrote };
}

/** The cached tokens a run re-priced at `pricing` (its cache as recorded) reads of a cache it records no write of, on a model that bills writes; else 0. */
export function readsWithoutWrites(trace: Pick<Trace, 'calls'>, pricing: ModelPricing): number {
  if (pricing.base.cacheWrite === undefined) return 0;
  const { readTokens, wrote } = recordedCache(trace);
  return wrote ? 0 : readTokens;
}

/** Whether runs are re-priced (`--model`) with their cache as recorded (no --cache: undefined): only then are recorded reads billed with no writes (`on` meters writes, `off` reads nothing). */
export function repricedWithCacheAsRecorded(of: { model: string | undefined; cache: string | undefined }): boolean {
  return of.model !== undefined && (of.cache === undefined || of.cache === 'recorded');
}

/** The re-priced runs that read a cache they record no write of, by model. */
export class RepricedCacheWrites {
  private readonly byModel = new Map<string, { runs: number; readTokens: number; writeUsd: number | null }>();

  /** Notes one run re-priced (its cache as recorded) at `pricing` that read `readTokens` cached tokens it records no write of (readsWithoutWrites; 0: nothing to note). */
  add(pricing: ModelPricing, readTokens: number): void {
    if (readTokens === 0) return;
    const seen = this.byModel.get(pricing.model) ?? { runs: 0, readTokens: 0, writeUsd: describePricing(pricing).cacheWritePerMTokUsd };
    seen.runs += 1;
    seen.readTokens += readTokens;
    this.byModel.set(pricing.model, seen);
  }

  /** `repriced_without_cache_writes`, one line per model (sorted); none where no such run was noted. */
  warnings(): ReportWarning[] {
    return [...this.byModel.keys()].sort().map((model) => {
      const { runs, readTokens, writeUsd } = this.byModel.get(model)!;
      const one = runs === 1;
      const price = writeUsd === null ? '' : ` ($${writeUsd} per million)`;
      return {
        code: 'repriced_without_cache_writes',
        message:
          `${counted(runs, 'run')} re-priced as ${model} ${one ? 'reads' : 'read'} ${readTokens.toLocaleString('en-US')} cached tokens as recorded (over ${one ? 'its whole recording' : 'their whole recordings'}) but ${one ? 'records' : 'record'} no cache writes, ` +
          `while ${model} bills the writes that fill its cache${price}: the cost shown bills none (the uncached prompt tokens as plain input, the reads as recorded); --cache on meters the cache as ${model}'s provider would (what it does not serve of each prompt is written, and read by its rule)`,
      };
    });
  }
}

/** The warning of `traces` re-priced at the pricings `pricingOf` gives them, their cache as recorded (none with --cache on, which meters writes, or no --model). */
export function repricedCacheWritesWarnings(traces: readonly Trace[], of: { model: string | undefined; cache: string | undefined; pricingOf: (trace: Trace) => ModelPricing }): ReportWarning[] {
  if (!repricedWithCacheAsRecorded(of)) return [];
  const tally = new RepricedCacheWrites();
  for (const trace of traces) {
    const pricing = of.pricingOf(trace);
    tally.add(pricing, readsWithoutWrites(trace, pricing));
  }
  return tally.warnings();
}

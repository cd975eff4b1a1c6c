/**
 * Recorded runs counted by what prices them as their own model (PricedRunKind): what a command that reads
 * its runs apart (sweep's threads and units: sweepUnits.ts) or prices the same runs again (check's and
 * calibrate's prices blocks) needs of them, small enough to collect and send between threads. The prices
 * block (sweepPrices.ts, checkPrices.ts), the cache warning (one run of each kind: scenarioWarnings.ts
 * cacheOnRuns) and sweep's `repriced_without_cache_writes` (the runs of a kind that read a cache they record
 * no write of: report/repricedCacheWrites.ts, sweepRepricedWrites.ts) read them.
 */
import { utcDay } from '../../pricing/genaiPrices.js';
import type { Trace } from '../../trace/types.js';
import { recordedCache } from '../../report/repricedCacheWrites.js';

/**
 * Runs the table prices alike as their own model (model, provider, recording day in UTC: what pricingFor
 * resolves a run's own model by): one of them, header only, and how many; of those, the runs that read cached
 * tokens and record no cache write (`readOnlyRuns`), and the tokens they read (`readOnlyTokens`).
 */
export interface PricedRunKind {
  run: Trace;
  runs: number;
  readOnlyRuns: number;
  readOnlyTokens: number;
}

/** A run's header alone: what its kind needs of it. */
const headerOnly = (run: Trace): Trace => ({ source: run.source, header: run.header, calls: [], end: { type: 'end', outcome: 'unknown' } });

/** What one run adds to its kind's counts beside its header. */
function runCounts(run: Trace): Omit<PricedRunKind, 'run'> {
  const { readTokens, wrote } = recordedCache(run);
  const readOnly = readTokens > 0 && !wrote;
  return { runs: 1, readOnlyRuns: readOnly ? 1 : 0, readOnlyTokens: readOnly ? readTokens : 0 };
}

/** Runs counted by kind (PricedRunKind), kinds in the order first read. Counts add up across files and threads. */
export class PricedRunKinds {
  private readonly byKey = new Map<string, PricedRunKind>();

  /** Runs read, each counted under its kind. */
  add(runs: Iterable<Trace>): this {
    for (const run of runs) this.count(run, runCounts(run), headerOnly);
    return this;
  }

  /** Kinds another part of the runs counted (a file's, a unit's, a thread's). */
  join(kinds: Iterable<PricedRunKind>): this {
    for (const { run, ...counts } of kinds) this.count(run, counts, (kept) => kept);
    return this;
  }

  private count(run: Trace, counts: Omit<PricedRunKind, 'run'>, keep: (run: Trace) => Trace): void {
    const { model, provider, recordedAt } = run.header;
    const key = `${model}\u0000${provider ?? ''}\u0000${utcDay(recordedAt) ?? ''}`;
    const kind = this.byKey.get(key);
    if (kind === undefined) {
      this.byKey.set(key, { run: keep(run), ...counts });
      return;
    }
    kind.runs += counts.runs;
    kind.readOnlyRuns += counts.readOnlyRuns;
    kind.readOnlyTokens += counts.readOnlyTokens;
  }

  get size(): number {
    return this.byKey.size;
  }

  kinds(): PricedRunKind[] {
    return [...this.byKey.values()].map((kind) => ({ ...kind }));
  }
}

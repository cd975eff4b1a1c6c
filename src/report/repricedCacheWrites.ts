/**
 * Runs re-priced as another model (`--model`) whose provider bills cache writes (Anthropic's table has a
 * cache-write price), where the runs record cache reads and no writes (a provider that caches on its own,
 * DeepSeek, OpenAI; or a cache warmed before the recording): with the cache as recorded, their cache reads are kept and billed at the model's
 * read price, but the writes that model would bill to fill that cache never show (38 mini-swe-agent DeepSeek
 * runs as claude-sonnet-4-5: $0.7604 a run; with every uncached token written, ~4% more). `--cache on` meters
 * them: what the provider's cache rule does not serve of a call's prompt is written, at the model's write
 * price, and reads follow the rule (more than DeepSeek recorded, so it may cost less: no bound either way). The reads counted are
 * the whole recordings' (a replay cut short by a brake or a window read fewer). One tally for replay, whatif
 * and `--tree` (and the library) through cli/actions/runNotes.ts, project through report/warningLists.ts, and
 * sweep through cli/actions/sweepRepricedWrites.ts (of its runs counted by kind: cli/actions/pricedRunKinds.ts). Pure.
 */
import { describePricing } from '../pricing/cost.js';
import { CompiledField, type CompiledTrace } from '../fast/layout.js';
import { refusedAt } from '../fast/refusal.js';
import { CallField } from '../kernel/callRecord.js';
import { handedOverCompiled } from '../replay/compiledRuns.js';
import type { ModelPricing } from '../pricing/types.js';
import type { Trace } from '../trace/types.js';
import { counted } from '../plural.js';
import type { ReportWarning } from './warnings.js';

/** What a run's calls recorded of the cache: the tokens they read from it, and whether any recorded a write. */
interface RecordedCache {
  readTokens: number;
  wrote: boolean;
}

/**
 * A run's cache as recorded, over the calls its provider served (a refused call, the run's last, is paid
 * nothing: fast/refusal.ts): read off its compiled trace where one was handed over (a cache of compiled
 * traces served the run, or a sweep let its calls go once compiled: replay/compiledRuns.ts), else its calls.
 */
export function recordedCache(trace: Trace): RecordedCache {
  const compiled = handedOverCompiled(trace);
  return compiled === undefined ? callsCache(trace.calls) : compiledCache(compiled);
}

function callsCache(calls: Trace['calls']): RecordedCache {
  let readTokens = 0;
  let wrote = false;
  for (let i = 0, served = refusedAt(calls); i < served; i++) {
    const call = calls[i]!;
    readTokens += call.cachedInputTokens ?? 0;
    if ((call.cacheWriteTokens ?? 0) > 0 || (call.cacheWrite1hTokens ?? 0) > 0) wrote = true;
  }
  return { readTokens, wrote };
}

/** The same of a compiled trace (compiled without its refused call), off the records' fields the calls' cache figures are written to (kernel/callRecord.ts). */
function compiledCache(compiled: Pick<CompiledTrace, 'calls' | 'records'>): RecordedCache {
  const r = compiled.records;
  let readTokens = 0;
  let wrote = false;
  for (let at = 0; at < compiled.calls * CompiledField.Stride; at += CompiledField.Stride) {
    readTokens += r[at + CallField.RecordedCached]!;
    if (r[at + CallField.RecordedCacheWrite]! > 0 || r[at + CallField.RecordedCacheWrite1h]! > 0) wrote = true;
  }
  return { readTokens, wrote };
}

/** Whether `pricing`'s model bills the writes that fill its cache (the table gives it a cache-write price). */
function billsCacheWrites(pricing: ModelPricing): boolean {
  return pricing.base.cacheWrite !== undefined;
}

/** The cached tokens a run re-priced at `pricing` (its cache as recorded) reads of a cache it records no write of, on a model that bills writes; else 0. */
export function readsWithoutWrites(trace: Trace, pricing: ModelPricing): number {
  if (!billsCacheWrites(pricing)) return 0;
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
    this.addRuns(pricing, { runs: 1, readTokens });
  }

  /** Notes `runs` runs re-priced (their cache as recorded) at `pricing` that read `readTokens` cached tokens in all and record no cache write (none, or a model that bills no writes: nothing to note). */
  addRuns(pricing: ModelPricing, counted: { runs: number; readTokens: number }): void {
    if (counted.readTokens === 0 || counted.runs === 0 || !billsCacheWrites(pricing)) return;
    const seen = this.byModel.get(pricing.model) ?? { runs: 0, readTokens: 0, writeUsd: describePricing(pricing).cacheWritePerMTokUsd };
    seen.runs += counted.runs;
    seen.readTokens += counted.readTokens;
    this.byModel.set(pricing.model, seen);
  }

  /**
   * `repriced_without_cache_writes`, one line per model (sorted); none where no such run was noted. `where`:
   * the settings that re-price as the model, said after its name (a sweep's configurations); none: every setting.
   */
  warnings(where: (model: string) => string = () => ''): ReportWarning[] {
    return [...this.byModel.keys()].sort().map((model) => {
      const { runs, readTokens, writeUsd } = this.byModel.get(model)!;
      const one = runs === 1;
      const price = writeUsd === null ? '' : ` ($${writeUsd} per million)`;
      return {
        code: 'repriced_without_cache_writes',
        message:
          `${counted(runs, 'run')} re-priced as ${model}${where(model)} ${one ? 'reads' : 'read'} ${readTokens.toLocaleString('en-US')} cached tokens as recorded (over ${one ? 'its whole recording' : 'their whole recordings'}) but ${one ? 'records' : 'record'} no cache writes, ` +
          `while ${model} bills the writes that fill its cache${price}: the cost shown bills none (the uncached prompt tokens as plain input, the reads as recorded); --cache on meters the cache as ${model}'s provider would (what it does not serve of each prompt is written, and read by its rule)`,
      };
    });
  }
}

/** The warning of `traces` re-priced at `pricings` (each trace's, in their order), their cache as recorded (none with --cache on, which meters writes, or no --model). */
export function repricedCacheWritesWarnings(traces: readonly Trace[], of: { model: string | undefined; cache: string | undefined; pricings: readonly ModelPricing[] }): ReportWarning[] {
  if (!repricedWithCacheAsRecorded(of)) return [];
  const tally = new RepricedCacheWrites();
  traces.forEach((trace, i) => tally.add(of.pricings[i]!, readsWithoutWrites(trace, of.pricings[i]!)));
  return tally.warnings();
}

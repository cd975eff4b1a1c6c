/**
 * Whether a compiled run's calls record a cache read or write (kernel/cacheLost.ts callRecordsCache, on the
 * compiled records): what the compiled replay and a run table ask before counting the cache hits a strategy
 * loses under the cache as recorded (countsCacheLost), and what a report reads of a run a cache of compiled
 * traces handed over (replay/runFacts.ts hasRecordedCache). Worked out once per compiled trace.
 */
import { CallField } from '../kernel/callRecord.js';
import { countsCacheLost } from '../kernel/cacheLost.js';
import type { CacheModeCode } from '../kernel/meter.js';
import { CompiledField, type CompiledTrace } from './layout.js';

const known = new WeakMap<CompiledTrace, boolean>();

/** Whether some call of `t` records a cache read or write. */
export function compiledRecordsCache(t: CompiledTrace): boolean {
  let records = known.get(t);
  if (records === undefined) known.set(t, (records = scanned(t)));
  return records;
}

/** Whether the compiled run `t`, metered under `cacheMode`, counts the cache hits its strategy loses (kernel/cacheLost.ts countsCacheLost). */
export function compiledCountsCacheLost(cacheMode: CacheModeCode, t: CompiledTrace): boolean {
  return countsCacheLost(cacheMode, compiledRecordsCache(t));
}

function scanned(t: CompiledTrace): boolean {
  const r = t.records;
  for (let at = 0; at < t.calls * CompiledField.Stride; at += CompiledField.Stride) {
    if (r[at + CallField.RecordedCached]! + r[at + CallField.RecordedCacheWrite]! + r[at + CallField.RecordedCacheWrite1h]! > 0) return true;
  }
  return false;
}

/**
 * The real loop's `cacheWrites` option (AgentLoopOptions): how long the cache writes it asks its provider for
 * last — its own setting, which a live loop knows before any call, and which its recorder states in the
 * header (headerRecord.ts) — as the fact its session's predictive bound reads (kernel/cacheWrites.ts, where
 * each value's fact is written once), and back (a trace-driven model says what the recorded run's loop would have).
 */
import { cacheWritesOfSetting, settingOfCacheWrites, type CacheWrites } from '../kernel/cacheWrites.js';
import { CACHE_WRITES_SETTINGS } from '../trace/types.js';
import type { AgentCacheWrites } from './types.js';

/** The option's values. */
export const CACHE_WRITES_OPTIONS: readonly AgentCacheWrites[] = CACHE_WRITES_SETTINGS;

/** The fact the option stands for; left out, the writes may last an hour (the dearest write price: safe). */
export function cacheWritesOfOption(option: AgentCacheWrites | undefined): CacheWrites {
  return cacheWritesOfSetting(option ?? 'may-last-an-hour');
}

/** The option that stands for `writes`. */
export function cacheWritesOption(writes: CacheWrites): AgentCacheWrites {
  return settingOfCacheWrites(writes);
}

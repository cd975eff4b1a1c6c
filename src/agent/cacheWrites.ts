/**
 * The real loop's `cacheWrites` option (AgentLoopOptions): how long the cache writes it asks its provider for
 * last — its own setting, which a live loop knows before any call — as the fact its session's predictive bound
 * reads (kernel/cacheWrites.ts), and back (a trace-driven model says what the recorded run's loop would have).
 */
import { CacheWrites } from '../kernel/cacheWrites.js';
import type { AgentCacheWrites } from './types.js';

/** The option's values, the fact each stands for. */
const FACTS: Record<AgentCacheWrites, CacheWrites> = {
  'five-minutes': CacheWrites.FiveMinutes,
  'may-last-an-hour': CacheWrites.MayLastAnHour,
  none: CacheWrites.None,
};

export const CACHE_WRITES_OPTIONS = Object.keys(FACTS) as readonly AgentCacheWrites[];

/** The fact the option stands for; left out, the writes may last an hour (the dearest write price: safe). */
export function cacheWritesOfOption(option: AgentCacheWrites | undefined): CacheWrites {
  return FACTS[option ?? 'may-last-an-hour'];
}

/** The option that stands for `writes`. */
export function cacheWritesOption(writes: CacheWrites): AgentCacheWrites {
  return CACHE_WRITES_OPTIONS.find((option) => FACTS[option] === writes)!;
}

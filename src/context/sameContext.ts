/** When two context strategies are one context for the runs that took them. Pure. */
import { canonicalJson } from '../brakes/fingerprint.js';
import type { ContextStrategy } from './strategy.js';

/** Whether runs under `a` and under `b` took one context: the same strategy and tool-result cap (the cache, said apart as runsCache says it, aside). */
export function sameContext(a: ContextStrategy, b: ContextStrategy): boolean {
  return a === b || canonicalJson({ ...a, cache: undefined }) === canonicalJson({ ...b, cache: undefined });
}

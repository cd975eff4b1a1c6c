/**
 * Each expectation's limits as a baseline stores them (`limits`, beside what each measured), so a check can
 * say a bound changed in place: `population.costPerRunUsd.p95 max 0.02 → 5 (loosened)`. The numbers are the
 * scenario file's (USD, a share 0..1, steps); a stopReason's limit is its list of reasons. Said with what
 * else changed since the baseline (settingChanges.ts), informational: the scenario file's bound decides.
 * A baseline written before it stored limits holds none: nothing is said. Pure.
 */
import { z } from 'zod';
import type { ExpectationResult } from './evaluate.js';

export const limitSchema = z.strictObject({ min: z.number().optional(), max: z.number().optional(), stopReasons: z.array(z.string()).optional() });
export type StoredLimit = z.infer<typeof limitSchema>;

/** One expectation's limits as stored. */
function limitOf(result: ExpectationResult): StoredLimit {
  return {
    ...(result.limitMin === undefined ? {} : { min: result.limitMin }),
    ...(result.limitMax === undefined ? {} : { max: result.limitMax }),
    ...(result.limitStopReasons === undefined ? {} : { stopReasons: [...result.limitStopReasons] }),
  };
}

/** The `limits` a baseline scenario stores: each expectation's, by name. */
export function limitsOf(results: readonly ExpectationResult[]): Record<string, StoredLimit> {
  return Object.fromEntries(results.map((result) => [result.expectation, limitOf(result)]));
}

const shown = (value: number | undefined) => (value === undefined ? 'none' : `${value}`);

/** `max 0.02 → 5 (loosened)`, `min 0.7 → 0.01 (loosened)`: one bound that changed; undefined when not. */
function boundChange(side: 'min' | 'max', before: number | undefined, now: number | undefined): string | undefined {
  if (before === now) return undefined;
  // A higher max, a lower min, or a bound dropped lets more through.
  const looser = now === undefined || (before !== undefined && (side === 'max' ? now > before : now < before));
  return `${side} ${shown(before)} → ${shown(now)} (${looser ? 'loosened' : 'tightened'})`;
}

/** `stopReason one of repeat → repeat, max_steps (loosened)`: the reasons allowed, when they changed. */
function reasonsChange(before: readonly string[] | undefined, now: readonly string[] | undefined): string | undefined {
  if (before === undefined || now === undefined || before.join(',') === now.join(',')) return undefined;
  const grew = before.every((reason) => now.includes(reason));
  const shrank = now.every((reason) => before.includes(reason));
  return `one of ${before.join(', ')} → ${now.join(', ')}${grew ? ' (loosened)' : shrank ? ' (tightened)' : ''}`;
}

/** Each expectation held then and now whose limits changed: `population.completionRate min 0.7 → 0.01 (loosened)`. */
export function limitChanges(stored: Record<string, StoredLimit> | undefined, results: readonly ExpectationResult[]): string[] {
  if (stored === undefined) return [];
  return results.flatMap((result) => {
    const before = stored[result.expectation];
    if (before === undefined) return [];
    const now = limitOf(result);
    const parts = [boundChange('min', before.min, now.min), boundChange('max', before.max, now.max), reasonsChange(before.stopReasons, now.stopReasons)].filter((part) => part !== undefined);
    return parts.map((part) => `${result.expectation} ${part}`);
  });
}

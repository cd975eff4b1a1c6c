/**
 * What a context strategy did, added up over runs: summary calls and their cost (exact, BigInt), cache
 * hits lost, skipped actions — each absent where 0. The one sum behind replay's summary, what-if totals
 * and sweep rows.
 */
import type { StrategyFigures } from '../loop/types.js';

export interface StrategySums {
  summaryCalls?: number;
  summaryCostPico?: bigint;
  strategyCacheLostTokens?: number;
  skippedActions?: number;
}

export function sumStrategyFigures(runs: Iterable<Partial<StrategyFigures>>): StrategySums {
  let summaryCalls = 0;
  let summaryCostPico = 0n;
  let lost = 0;
  let skipped = 0;
  for (const run of runs) {
    summaryCalls += run.summaryCalls ?? 0;
    summaryCostPico += BigInt(run.summaryCostPico ?? 0);
    lost += run.strategyCacheLostTokens ?? 0;
    skipped += run.skippedActions ?? 0;
  }
  return {
    ...(summaryCalls > 0 ? { summaryCalls, summaryCostPico } : {}),
    ...(lost > 0 ? { strategyCacheLostTokens: lost } : {}),
    ...(skipped > 0 ? { skippedActions: skipped } : {}),
  };
}

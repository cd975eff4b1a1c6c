/**
 * A scenario's figures as a baseline stores them (baselineFile.ts), and what makes them of a check's figures:
 * written once for the baseline file, the drift against it (driftFigures.ts) and the re-run of its agents
 * that must give them (pairedAgents.ts), which baselineFile.ts reads its stored agents from. Pure.
 */
import { z } from 'zod';
import { MAX_COUNT, MAX_USD } from '../io/limits.js';
import { MAX_RUN_COST_TEXT } from '../money.js';
import type { PopulationMetrics } from '../metrics/population.js';

export const shareOrNull = z.number().min(0).max(1).nullable();
/** One run's cost: at most $9,007.199254740991 (2^53 − 1 picodollars), the most a run can cost (kernel/cost.ts). */
export const runUsd = z.number().nonnegative().max(MAX_USD, `must be at most ${MAX_RUN_COST_TEXT} (2^53 − 1 picodollars), the most one run can cost`);

/** A figure over the runs (their total, the spend per completed run) is at most that per run. */
function overRuns(figures: { runs: number; costUsd: number; costPerCompletedUsd: number | null }, ctx: z.RefinementCtx): void {
  const most = figures.runs * MAX_USD;
  for (const field of ['costUsd', 'costPerCompletedUsd'] as const) {
    const value = figures[field];
    if (value !== null && value > most) {
      ctx.addIssue({ code: 'custom', path: [field], message: `$${value} is more than ${figures.runs} runs can cost at ${MAX_RUN_COST_TEXT} each (2^53 − 1 picodollars, the most one run can cost)` });
    }
  }
}

export const figuresSchema = z
  .strictObject({
    runs: z.number().int().nonnegative().max(MAX_COUNT),
    completionRate: z.number().min(0).max(1),
    falseStopRate: shareOrNull,
    wastedShare: z.number().min(0).max(1),
    costUsd: z.number().nonnegative(),
    costPerRunUsd: z.strictObject({ mean: runUsd, p50: runUsd, p95: runUsd, max: runUsd }),
    costPerCompletedUsd: z.number().nonnegative().nullable(),
    // The most one run can cost under the brakes (worstCase.ts), null: unbounded; absent in files written before.
    worstCasePerRunUsd: z.number().nonnegative().nullable().optional(),
  })
  .superRefine(overRuns);

export type BaselineFigures = z.infer<typeof figuresSchema>;

/** The stored figures of a check's (every figure but the worst case, which the baseline takes from the check's own: worstCase.ts). */
export function figuresOf(m: PopulationMetrics): BaselineFigures {
  return {
    runs: m.runs,
    completionRate: m.completionRate,
    falseStopRate: m.falseStopRate,
    wastedShare: m.wastedShare,
    costUsd: m.costUsd,
    costPerRunUsd: { ...m.costPerRunUsd },
    costPerCompletedUsd: m.costPerCompletedUsd,
  };
}

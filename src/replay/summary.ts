import { STOP_REASONS, type StopReason } from '../brakes/stopReasons.js';
import type { RunResult } from './replay.js';
import { sumStrategyFigures } from '../metrics/strategyFigures.js';
import { meanPico } from '../money.js';
import type { StrategyFigures } from '../loop/types.js';

/** Totals over runs. Money is BigInt picodollars: no float is ever accumulated. */
export interface Summary {
  runs: number;
  completed: number;
  completionRate: number;
  totalCostPico: bigint;
  /** Spend on runs that did not complete: what the brakes let burn. */
  wastedPico: bigint;
  totalOvershootPico: bigint;
  maxOvershootPico: number;
  steps: number;
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  stopReasons: Record<StopReason, number>;
  recordedCostPico?: bigint;
  /** Context summary calls and their cost; prompt tokens the strategy moved out of the cached prefix; actions skipped (present when not 0). */
  summaryCalls?: number;
  summaryCostPico?: bigint;
  strategyCacheLostTokens?: number;
  skippedActions?: number;
}

/** What the summary reads of a run (a replayed run; `replay --tree`'s session trees give the same of each tree). */
export type SummarisedRun = Pick<RunResult, 'stopReason' | 'costPico' | 'overshootPico' | 'recordedCostPico' | 'steps' | 'inputTokens' | 'cachedInputTokens' | 'outputTokens'> & Partial<StrategyFigures>;

/** `results`: any list walked once (an array, or runs kept as columns: runColumns.ts). */
export function summarise(results: Iterable<SummarisedRun> & { readonly length: number }): Summary {
  const stopReasons = Object.fromEntries(STOP_REASONS.map((reason) => [reason, 0])) as Record<StopReason, number>;
  let totalCost = 0n;
  let wasted = 0n;
  let overshoot = 0n;
  let maxOvershoot = 0;
  let recorded = 0n;
  let recordedRuns = 0;
  let completed = 0;
  let steps = 0;
  let input = 0;
  let cached = 0;
  let output = 0;
  for (const run of results) {
    stopReasons[run.stopReason] += 1;
    totalCost += BigInt(run.costPico);
    overshoot += BigInt(run.overshootPico);
    maxOvershoot = Math.max(maxOvershoot, run.overshootPico);
    if (run.stopReason === 'completed') completed += 1;
    else wasted += BigInt(run.costPico);
    if (run.recordedCostPico !== undefined) {
      recorded += BigInt(run.recordedCostPico);
      recordedRuns += 1;
    }
    steps += run.steps;
    input += run.inputTokens;
    cached += run.cachedInputTokens;
    output += run.outputTokens;
  }
  const summary: Summary = {
    runs: results.length,
    completed,
    completionRate: results.length === 0 ? 0 : completed / results.length,
    totalCostPico: totalCost,
    wastedPico: wasted,
    totalOvershootPico: overshoot,
    maxOvershootPico: maxOvershoot,
    steps,
    inputTokens: input,
    cachedInputTokens: cached,
    outputTokens: output,
    stopReasons,
  };
  if (recordedRuns === results.length && recordedRuns > 0) summary.recordedCostPico = recorded;
  Object.assign(summary, sumStrategyFigures(results));
  return summary;
}

/** Cost per completed run: everything spent, failures included, over the runs whose stop reason is `completed` (tasks done: report/records.ts tasksDone). */
export function costPerCompletedPico(summary: Summary): bigint | undefined {
  // Rounded as every mean of picodollars is (meanPico: half up), so replay's figure is sweep's.
  return summary.completed === 0 ? undefined : meanPico(summary.totalCostPico, summary.completed);
}

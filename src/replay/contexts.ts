/**
 * The same runs under several context strategies and cache modes (`loopcost contexts`): per cell the
 * runs' total and mean cost, tokens, summary calls and cache hits lost to the strategy, each run
 * replayed by replayTrace (its compiled trace is built once and reused for every cell). Money is
 * summed as BigInt picodollars.
 */
import type { BrakeConfig } from '../brakes/config.js';
import { COMMAND_LINE_CONTEXT, contextSpecOf, type ContextStrategy } from '../context/strategy.js';
import type { LatencyModel } from '../loop/latency.js';
import type { ModelPricing, PriceTable } from '../pricing/types.js';
import type { Trace } from '../trace/types.js';
import { replayTrace, type RunResult } from './replay.js';

export interface ContextCell {
  /** `--context` syntax. */
  context: string;
  strategy: ContextStrategy;
  cache: 'on' | 'off';
}

export interface ContextCellTotals {
  runs: number;
  completed: number;
  costPico: bigint;
  inputTokens: number;
  cachedInputTokens: number;
  summaryCalls: number;
  summaryCostPico: bigint;
  strategyCacheLostTokens: number;
}

/** Every strategy under every cache mode, strategies first. */
export function contextCells(strategies: readonly ContextStrategy[], caches: readonly ('on' | 'off')[]): ContextCell[] {
  return strategies.flatMap((strategy) => caches.map((cache) => ({ context: contextSpecOf(strategy), strategy: { ...strategy, cache }, cache })));
}

export function emptyTotals(): ContextCellTotals {
  return { runs: 0, completed: 0, costPico: 0n, inputTokens: 0, cachedInputTokens: 0, summaryCalls: 0, summaryCostPico: 0n, strategyCacheLostTokens: 0 };
}

/** One trace under every cell. */
export function replayCells(trace: Trace, cells: readonly ContextCell[], options: { brakes: BrakeConfig; prices: PriceTable; pricing: ModelPricing; model?: string; latency?: LatencyModel }): RunResult[] {
  return cells.map((cell) => replayTrace(trace, { ...options, strategy: cell.strategy, strategyPlace: COMMAND_LINE_CONTEXT }));
}

/** Adds one trace's results (one per cell, in cell order) to the totals. */
export function addResults(totals: ContextCellTotals[], results: readonly RunResult[]): void {
  results.forEach((run, i) => {
    const t = totals[i]!;
    t.runs += 1;
    if (run.stopReason === 'completed') t.completed += 1;
    t.costPico += BigInt(run.costPico);
    t.inputTokens += run.inputTokens;
    t.cachedInputTokens += run.cachedInputTokens;
    t.summaryCalls += run.summaryCalls ?? 0;
    t.summaryCostPico += BigInt(run.summaryCostPico ?? 0);
    t.strategyCacheLostTokens += run.strategyCacheLostTokens ?? 0;
  });
}

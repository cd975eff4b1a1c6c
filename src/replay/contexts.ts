/**
 * The same runs under several context strategies and cache modes (`loopcost contexts`): per cell the
 * runs' total and mean cost, tokens, summary calls and cache hits lost to the strategy, each run
 * replayed by replayTrace (its compiled trace is built once and reused for every cell). Money is
 * summed as BigInt picodollars. A real loop's recording that states the strategy it ran under (header `context`,
 * recordedStrategy.ts) is compared from its full history: every strategy's cell, `full` too, replays it rebuilt
 * (that strategy's own cell: as it ran), and the `as recorded` cells replay each run as its loop ran it.
 */
import type { BrakeConfig } from '../brakes/config.js';
import { COMMAND_LINE_CONTEXT, contextSpecOf, isIdentity, type ContextStrategy } from '../context/strategy.js';
import type { LatencyModel } from '../loop/latency.js';
import type { ModelPricing, PriceTable } from '../pricing/types.js';
import type { Trace } from '../trace/types.js';
import { rebuiltInCell, uncomparedRecording, unrebuildableSpecOf } from './recordedCells.js';
import { recordedContextPlace, recordingUnder } from './recordedStrategy.js';
import { replayTrace, type RunResult } from './replay.js';

export interface ContextCell {
  /** `--context` syntax, or `as recorded` (recordedCells.ts AS_RECORDED). */
  context: string;
  strategy: ContextStrategy;
  cache: 'on' | 'off';
  /** Each run as its loop ran it: a recording that states its strategy under that strategy, any other as it stands (full context). */
  asRecorded?: true;
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

/**
 * One trace under every cell (rebuilt where rebuiltInCell says). A run that states no strategy is under its `as
 * recorded` cell what it is under full context: that cell's result, where one has the same cache mode. A summary
 * strategy's recording is refused (uncomparedRecording: the CLI leaves it out before).
 */
export function replayCells(trace: Trace, cells: readonly ContextCell[], options: { brakes: BrakeConfig; prices: PriceTable; pricing: ModelPricing; model?: string; latency?: LatencyModel }): RunResult[] {
  const unrebuildable = unrebuildableSpecOf(trace);
  if (unrebuildable !== undefined) throw uncomparedRecording({ place: recordedContextPlace(trace), spec: unrebuildable });
  const results: RunResult[] = [];
  for (const cell of cells) {
    const same = cell.asRecorded === true && trace.header.context === undefined ? cells.findIndex((c) => c.asRecorded !== true && isIdentity(c.strategy) && c.cache === cell.cache) : -1;
    const recording = rebuiltInCell(trace, cell) ? recordingUnder(trace, cell.strategy) : trace;
    results.push(same >= 0 && same < results.length ? results[same]! : replayTrace(recording, { ...options, strategy: cell.strategy, strategyPlace: COMMAND_LINE_CONTEXT }));
  }
  return results;
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

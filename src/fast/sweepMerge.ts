/** Slices of one sweep swept apart (consecutive trace ranges) joined into one result, column by column. */
import { EMPTY, type Column, type SweepResult } from './sweepResult.js';
import { requireSweepParts } from '../options/entryArguments.js';

/** Slices of one sweep (consecutive trace ranges, any order) merged into one, in trace order. */
export function mergeSweeps(parts: readonly SweepResult[]): SweepResult {
  requireSweepParts(parts);
  const sorted = [...parts].sort((a, b) => a.from - b.from);
  sorted.forEach((part, k) => {
    if (k > 0 && part.from !== sorted[k - 1]!.from + sorted[k - 1]!.traces) throw new Error('mergeSweeps: the slices do not follow each other');
  });
  const first = sorted[0]!;
  const size = sorted.reduce((n, part) => n + part.stop.length, 0);
  const joined = <A extends Column>(pick: (r: SweepResult) => A, make: (n: number) => A): A => {
    const out = make(size);
    let offset = 0;
    for (const part of sorted) {
      out.set(pick(part), offset);
      offset += part.stop.length;
    }
    return out;
  };
  // Optional columns: empty when every part's is, else parts without one count as zeros.
  const optional = (pick: (r: SweepResult) => Float64Array): Float64Array => (sorted.every((part) => pick(part).length === 0) ? EMPTY : joined(pick, (n) => new Float64Array(n)));
  return {
    from: first.from,
    traces: sorted.reduce((n, part) => n + part.traces, 0),
    cells: first.cells,
    stop: joined((r) => r.stop, (n) => new Uint8Array(n)),
    uncappedCell: first.uncappedCell,
    capSteps: first.capSteps,
    keeps: first.keeps,
    budgets: first.budgets,
    calls: joined((r) => r.calls, (n) => new Int32Array(n)),
    stopTool: joined((r) => r.stopTool, (n) => new Int32Array(n)),
    costPico: joined((r) => r.costPico, (n) => new Float64Array(n)),
    tokensUsed: joined((r) => r.tokensUsed, (n) => new Float64Array(n)),
    cachedInputTokens: optional((r) => r.cachedInputTokens),
    cacheWriteTokens: optional((r) => r.cacheWriteTokens),
    cacheRuleLostTokens: optional((r) => r.cacheRuleLostTokens),
    elapsedMs: joined((r) => r.elapsedMs, (n) => new Float64Array(n)),
    strategyCacheLostTokens: optional((r) => r.strategyCacheLostTokens),
    skippedActions: optional((r) => r.skippedActions),
    summaryCalls: optional((r) => r.summaryCalls),
    summaryCostPico: optional((r) => r.summaryCostPico),
    summaryOutputTokens: optional((r) => r.summaryOutputTokens),
    compiled: sorted.flatMap((part) => part.compiled),
    prices: sorted.flatMap((part) => part.prices),
  };
}

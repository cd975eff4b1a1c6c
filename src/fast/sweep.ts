/**
 * Sweeps: a grid of settings evaluated over compiled traces, sharing work. Brakes only cut a run short,
 * so for each trace and each (strategy, cache mode) of the grid one pass under the loosest brakes of its
 * cells is recorded (a run table, runTable.ts); every cell is read off it (tableStop.ts). The step cap
 * only cuts a prefix of that pass: for each combination of the other brakes the run is read once without
 * a cap, and each cap is then one comparison. What no axis changes is hoisted: run settings and brake
 * limits are built once per grid, the repeat / same-error stop once per trace and combination.
 *
 * Each (trace, cell) gets exactly the figures replaying that cell alone gives (test/core/sweep.test.ts).
 * Traces can be swept in slices (a worker pool splits by trace ranges) and merged in order.
 */
import type { BrakeConfig } from '../brakes/config.js';
import type { StopReason } from '../brakes/stopReasons.js';
import type { CacheMode, ContextStrategy } from '../context/strategy.js';
import { beforeCallStop } from '../kernel/brakes.js';
import { predictiveBoundPico } from '../kernel/cost.js';
import { brakeLimits, Limit, predicts, type BrakeLimits } from '../kernel/limits.js';
import type { FlatPrices } from '../kernel/prices.js';
import { StopCode, stopReasonOf } from '../kernel/stopCodes.js';
import type { LatencyModel } from '../loop/latency.js';
import { costOutOfRange } from '../loop/session.js';
import type { CompiledTrace } from './layout.js';
import { toolStopCall } from './replayFast.js';
import { buildRunTable, type RunTable } from './runTable.js';
import { Run, type FastOutcome } from './runState.js';
import { runSettings, type RunSettings } from './settings.js';
import { firstStepCap, stopInTable } from './tableStop.js';
import { passLimits, sweepCells, type SweepCell, type SweepGrid } from './sweepGrid.js';

export type { SweepAxis, SweepCell, SweepGrid, SweepPatch } from './sweepGrid.js';
export { sweepCells } from './sweepGrid.js';

/** One trace of a sweep: compiled, with its prices and its default cache mode (recorded or off). */
export interface SweepTrace {
  compiled: CompiledTrace;
  prices: FlatPrices;
  /** The cache mode when the grid's strategy does not set one. */
  cache: CacheMode;
}

/** Per (trace, cell), at index (trace − from) · cells + cell: the figures that depend on the run. */
export interface SweepResult {
  /** The first trace of the slice, and how many. */
  from: number;
  traces: number;
  cells: SweepCell[];
  /** StopCode of each (trace, cell). */
  stop: Uint8Array;
  calls: Int32Array;
  /** A repeat or same-error stop's tool call, −1 otherwise. */
  stopTool: Int32Array;
  costPico: Float64Array;
  tokensUsed: Float64Array;
  cachedInputTokens: Float64Array;
  cacheWriteTokens: Float64Array;
  cacheRuleLostTokens: Float64Array;
  elapsedMs: Float64Array;
  /** The compiled traces of the slice (figures no setting changes are read from them). */
  compiled: CompiledTrace[];
}

/** A group of cells sharing (strategy, cache mode): one pass per trace. */
interface Pass {
  cells: number[];
  strategy: ContextStrategy;
  /** Cells that differ only in the step cap, each with its brake limits. */
  capGroups: { cells: number[]; noCap: BrakeConfig }[];
}

function groupCells(cells: SweepCell[]): Pass[] {
  const passes = new Map<string, Pass>();
  cells.forEach((cell, index) => {
    const key = JSON.stringify([cell.strategy.kind, cell.strategy.windowSteps, cell.strategy.toolResultCap, cell.strategy.cache]);
    let pass = passes.get(key);
    if (pass === undefined) {
      pass = { cells: [], strategy: cell.strategy, capGroups: [] };
      passes.set(key, pass);
    }
    pass.cells.push(index);
    const { maxSteps: _cap, ...others } = cell.brakes;
    const capKey = JSON.stringify(others);
    let group = pass.capGroups.find((g) => JSON.stringify((({ maxSteps: _m, ...rest }) => rest)(g.noCap)) === capKey);
    if (group === undefined) {
      group = { cells: [], noCap: { ...others } as BrakeConfig };
      pass.capGroups.push(group);
    }
    group.cells.push(index);
  });
  return [...passes.values()];
}

/** Limits per brake setting and model context window, built once per sweep. */
class LimitsCache {
  private readonly byWindow = new Map<number, Map<BrakeConfig, BrakeLimits>>();
  get(brakes: BrakeConfig, contextWindow: number): BrakeLimits {
    let map = this.byWindow.get(contextWindow);
    if (map === undefined) this.byWindow.set(contextWindow, (map = new Map()));
    let limits = map.get(brakes);
    if (limits === undefined) map.set(brakes, (limits = brakeLimits(brakes, contextWindow)));
    return limits;
  }
}

export function sweepCompiled(traces: readonly SweepTrace[], grid: SweepGrid, range: { from: number; to: number } = { from: 0, to: traces.length }): SweepResult {
  const cells = sweepCells(grid);
  const passes = groupCells(cells);
  const count = Math.max(0, range.to - range.from);
  const size = count * cells.length;
  const result: SweepResult = {
    from: range.from,
    traces: count,
    cells,
    stop: new Uint8Array(size),
    calls: new Int32Array(size),
    stopTool: new Int32Array(size),
    costPico: new Float64Array(size),
    tokensUsed: new Float64Array(size),
    cachedInputTokens: new Float64Array(size),
    cacheWriteTokens: new Float64Array(size),
    cacheRuleLostTokens: new Float64Array(size),
    elapsedMs: new Float64Array(size),
    compiled: traces.slice(range.from, range.to).map((t) => t.compiled),
  };
  const limitsCache = new LimitsCache();
  const settingsCache = new Map<string, RunSettings>();
  const settingsFor = (strategy: ContextStrategy, cache: CacheMode): RunSettings => {
    const key = `${JSON.stringify(strategy)}|${cache}`;
    let s = settingsCache.get(key);
    if (s === undefined) settingsCache.set(key, (s = runSettings(strategy, cache, grid.latency)));
    return s;
  };
  const passBrakes = passes.map((pass) => passLimits(pass.cells.map((c) => cells[c]!.brakes)));
  const noCapBrakes = passes.map((pass) => pass.capGroups.map((g) => ({ ...g.noCap, maxSteps: undefined }) as BrakeConfig));
  let scratch: RunTable | undefined;
  const st = new Float64Array(Run.Size);
  for (let ti = range.from; ti < range.to; ti++) {
    const { compiled: t, prices, cache } = traces[ti]!;
    const row = (ti - range.from) * cells.length;
    passes.forEach((pass, p) => {
      const settings = settingsFor(pass.strategy, pass.strategy.cache ?? cache);
      const loosest = limitsCache.get(passBrakes[p]!, prices.contextWindow);
      const table = (scratch = buildRunTable(t, settings, prices, loosest, toolStopCall(t, loosest), scratch));
      pass.capGroups.forEach((group, g) => {
        const noCap = limitsCache.get(noCapBrakes[p]![g]!, prices.contextWindow);
        // Where the run stops without a cap: before call `stopCall`, or inside it (beyond the pass: only caps stop it).
        const code = stopInTable(table, t, noCap, toolStopCall(t, noCap), st);
        const calls = st[Run.Calls]!;
        const inside = st[Run.Exhausted] !== 1 && !isBefore(code);
        const stopCall = code === StopCode.None ? Infinity : inside ? calls - 1 : calls;
        for (const c of group.cells) {
          const limits = limitsCache.get(cells[c]!.brakes, prices.contextWindow);
          const at = row + c;
          const capCall = firstStepCap(t, table.end, limits[Limit.MaxSteps]!);
          if (capCall > table.end && stopCall === Infinity) throw new Error('sweep: a cell runs past its pass');
          if (capCall <= stopCall) writeBeforeCall(result, at, table, t, limits, capCall);
          else writeState(result, at, st);
        }
      });
    });
  }
  return result;
}

function isBefore(code: StopCode): boolean {
  return code === StopCode.MaxSteps || code === StopCode.Timeout || code === StopCode.Budget || code === StopCode.TokenLimit || code === StopCode.ContextOverflow;
}

/** A stop before call k (the kernel decides which brake, in its order), figures from the table. */
function writeBeforeCall(r: SweepResult, at: number, table: RunTable, t: CompiledTrace, limits: BrakeLimits, k: number): void {
  const bound = predicts(limits) ? predictiveBoundPico(table.prices.rows, table.prices.tiers, table.estimate[k]!, limits[Limit.MaxOutputTokens]!) : 0;
  const code = beforeCallStop(limits, k - t.nonStepsBefore[k]!, table.elapsed[k]!, table.spent[k]!, bound, table.tokens[k]!, table.prompt[k]!);
  r.stop[at] = code;
  r.calls[at] = k;
  r.stopTool[at] = -1;
  r.costPico[at] = table.spent[k]!;
  r.tokensUsed[at] = table.tokens[k]!;
  r.cachedInputTokens[at] = table.cached[k]!;
  r.cacheWriteTokens[at] = table.written[k]!;
  r.cacheRuleLostTokens[at] = table.ruleLost[k]!;
  r.elapsedMs[at] = table.elapsed[k]!;
}

function writeState(r: SweepResult, at: number, st: Float64Array): void {
  r.stop[at] = st[Run.Stop]!;
  r.calls[at] = st[Run.Calls]!;
  r.stopTool[at] = st[Run.StopTool]!;
  r.costPico[at] = st[Run.SpentPico]!;
  r.tokensUsed[at] = st[Run.TokensUsed]!;
  r.cachedInputTokens[at] = st[Run.CachedTokens]!;
  r.cacheWriteTokens[at] = st[Run.WrittenTokens]!;
  r.cacheRuleLostTokens[at] = st[Run.RuleLostTokens]!;
  r.elapsedMs[at] = st[Run.ElapsedMs]!;
}

/** The figures of (trace, cell) in a sweep: exactly what replaying that cell alone gives (RunTotals + reason). */
export function sweepTotals(r: SweepResult, trace: number, cell: number): FastOutcome {
  const at = (trace - r.from) * r.cells.length + cell;
  const t = r.compiled[trace - r.from]!;
  const calls = r.calls[at]!;
  const spent = r.costPico[at]!;
  if (!Number.isSafeInteger(spent)) throw costOutOfRange(calls);
  const code = r.stop[at]! as StopCode;
  const tool = r.stopTool[at]!;
  const output = t.outputBefore[calls]!;
  const budget = r.cells[cell]!.brakes.maxCostPico ?? Infinity;
  const reason: StopReason = stopReasonOf(code);
  return {
    reason,
    steps: calls - t.nonStepsBefore[calls]!,
    calls,
    backtracks: t.backtracksBefore[calls]!,
    failedCalls: t.failedBefore[calls]!,
    toolCalls: tool < 0 ? t.toolsBefore[calls]! : t.toolsBefore[calls - 1]! + (tool - t.toolStart[calls - 1]!) + (code === StopCode.ErrorLimit ? 1 : 0),
    inputTokens: r.tokensUsed[at]! - output,
    cachedInputTokens: r.cachedInputTokens[at]!,
    cacheWriteTokens: r.cacheWriteTokens[at]!,
    outputTokens: output,
    reasoningTokens: t.reasoningBefore[calls]!,
    costPico: spent,
    overshootPico: spent > budget ? spent - budget : 0,
    elapsedMs: r.elapsedMs[at]!,
    cacheRuleLostTokens: r.cacheRuleLostTokens[at]!,
  };
}

/** Slices of one sweep (consecutive trace ranges, any order) merged into one, in trace order. */
export function mergeSweeps(parts: readonly SweepResult[]): SweepResult {
  const sorted = [...parts].sort((a, b) => a.from - b.from);
  sorted.forEach((part, k) => {
    if (k > 0 && part.from !== sorted[k - 1]!.from + sorted[k - 1]!.traces) throw new Error('mergeSweeps: the slices do not follow each other');
  });
  const first = sorted[0]!;
  const joined = <A extends Uint8Array | Int32Array | Float64Array>(pick: (r: SweepResult) => A, make: (n: number) => A): A => {
    const out = make(sorted.reduce((n, part) => n + pick(part).length, 0));
    let offset = 0;
    for (const part of sorted) {
      out.set(pick(part), offset);
      offset += pick(part).length;
    }
    return out;
  };
  return {
    from: first.from,
    traces: sorted.reduce((n, part) => n + part.traces, 0),
    cells: first.cells,
    stop: joined((r) => r.stop, (n) => new Uint8Array(n)),
    calls: joined((r) => r.calls, (n) => new Int32Array(n)),
    stopTool: joined((r) => r.stopTool, (n) => new Int32Array(n)),
    costPico: joined((r) => r.costPico, (n) => new Float64Array(n)),
    tokensUsed: joined((r) => r.tokensUsed, (n) => new Float64Array(n)),
    cachedInputTokens: joined((r) => r.cachedInputTokens, (n) => new Float64Array(n)),
    cacheWriteTokens: joined((r) => r.cacheWriteTokens, (n) => new Float64Array(n)),
    cacheRuleLostTokens: joined((r) => r.cacheRuleLostTokens, (n) => new Float64Array(n)),
    elapsedMs: joined((r) => r.elapsedMs, (n) => new Float64Array(n)),
    compiled: sorted.flatMap((part) => part.compiled),
  };
}

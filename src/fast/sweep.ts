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
import type { StopReason } from '../brakes/stopReasons.js';
import type { CacheMode } from '../context/strategy.js';
import type { BrakeLimits } from '../kernel/limits.js';
import type { FlatPrices } from '../kernel/prices.js';
import { StopCode, stopReasonOf } from '../kernel/stopCodes.js';
import type { LatencyModel } from '../loop/latency.js';
import { costOutOfRange } from '../kernel/cost.js';
import type { CompiledTrace } from './layout.js';
import { replayCompiled, toolStopCall } from './replayFast.js';
import { sweepsStepwise } from './strategySteps.js';
import { buildRunTable } from './plainTable.js';
import { isBeforeCall, type RunTable } from './runTable.js';
import { Run, type FastOutcome } from './runState.js';
import { runSettings } from './settings.js';
import { stopInTable } from './tableStop.js';
import { addStrategyFigures } from '../loop/types.js';
import type { SweepCell, SweepGrid } from './sweepGrid.js';
import { sweepPlan, type Pass } from './sweepPlan.js';
import { closedPassApplies, ClosedRun, stopClosed } from './sweepClosed.js';

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
  /** StopCode of each (trace, cell). Cache columns are empty until some run has cache figures (then 0 elsewhere). */
  stop: Uint8Array;
  calls: Int32Array;
  /** A repeat or same-error stop's tool call (read only for those stops). */
  stopTool: Int32Array;
  costPico: Float64Array;
  tokensUsed: Float64Array;
  cachedInputTokens: Float64Array;
  cacheWriteTokens: Float64Array;
  cacheRuleLostTokens: Float64Array;
  elapsedMs: Float64Array;
  /** Cache hits lost to the strategy (a window's), and repeated actions skipped: empty until some run has one (then 0 elsewhere). */
  strategyCacheLostTokens: Float64Array;
  skippedActions: Float64Array;
  /** The compiled traces of the slice (figures no setting changes are read from them). */
  compiled: CompiledTrace[];
}

/**
 * Sweeps traces [range.from, range.to) over the grid's cells. `into`: a result of the same grid and
 * slice size to reuse (its columns are overwritten), as a worker that sweeps slice after slice would.
 */
export function sweepCompiled(traces: readonly SweepTrace[], grid: SweepGrid, range: { from: number; to: number } = { from: 0, to: traces.length }, into?: SweepResult): SweepResult {
  const plan = sweepPlan(grid);
  const { cells, passes, passBrakes, noCapBrakes, capSteps, limitsCache } = plan;
  const count = Math.max(0, range.to - range.from);
  const size = count * cells.length;
  const reuse = into !== undefined && into.stop.length === size && into.cells.length === cells.length;
  // Every cell writes every column but the cache ones, so reused columns need no clearing.
  const column = <A extends Uint8Array | Int32Array | Float64Array>(old: A | undefined, make: (n: number) => A): A => (reuse && old !== undefined && old.length === size ? old : make(size));
  const result: SweepResult = {
    from: range.from,
    traces: count,
    cells,
    stop: column(into?.stop, (n) => new Uint8Array(n)),
    calls: column(into?.calls, (n) => new Int32Array(n)),
    stopTool: column(into?.stopTool, (n) => new Int32Array(n)),
    costPico: column(into?.costPico, (n) => new Float64Array(n)),
    tokensUsed: column(into?.tokensUsed, (n) => new Float64Array(n)),
    // Cache columns only once a run has cache figures.
    cachedInputTokens: EMPTY,
    cacheWriteTokens: EMPTY,
    cacheRuleLostTokens: EMPTY,
    elapsedMs: column(into?.elapsedMs, (n) => new Float64Array(n)),
    strategyCacheLostTokens: EMPTY,
    skippedActions: EMPTY,
    compiled: traces.slice(range.from, range.to).map((t) => t.compiled),
  };
  if (reuse && into.cachedInputTokens.length === size) {
    result.cachedInputTokens = into.cachedInputTokens.fill(0);
    result.cacheWriteTokens = into.cacheWriteTokens.fill(0);
    result.cacheRuleLostTokens = into.cacheRuleLostTokens.fill(0);
  }
  if (reuse && into.skippedActions.length === size) {
    result.strategyCacheLostTokens = into.strategyCacheLostTokens.fill(0);
    result.skippedActions = into.skippedActions.fill(0);
  }
  // Hoisted out of the trace loop: run settings per (pass, cache mode), brake limits per cell and pass
  // (per model context window), the step caps as numbers.
  const passSettings = plan.passSettings;
  let passLoosest: BrakeLimits[] = [];
  let groupNoCap: BrakeLimits[][] = [];
  let limitsWindow = NaN;
  let scratch: RunTable | undefined;
  const callAtStep = new CallAtStep();
  // Passes whose cap groups the closed form can stop (no predictive budget), and its reusable run.
  const passClosed = plan.noCapBrakes.map((groups) => groups.every((b) => b.budgetMode !== 'predict' || b.maxCostPico === undefined));
  const closedRun = new ClosedRun();
  const st = new Float64Array(Run.Size);
  for (let ti = range.from; ti < range.to; ti++) {
    const { compiled: t, prices, cache } = traces[ti]!;
    const row = (ti - range.from) * cells.length;
    if (prices.contextWindow !== limitsWindow) {
      limitsWindow = prices.contextWindow;
      passLoosest = passBrakes.map((b) => limitsCache.get(b, limitsWindow));
      groupNoCap = noCapBrakes.map((groups) => groups.map((b) => limitsCache.get(b, limitsWindow)));
    }
    callAtStep.of(t);
    for (let p = 0; p < passes.length; p++) {
      const pass = passes[p]!;
      const mode = pass.strategy.cache ?? cache;
      let settings = passSettings[p]!.get(mode);
      if (settings === undefined) passSettings[p]!.set(mode, (settings = runSettings(pass.strategy, mode, plan.latency)));
      // Masking, summaries and the skip guard: each cell replayed alone (strategySteps.ts), no run table.
      if (sweepsStepwise(settings, pass.cells.map((c) => cells[c]!.brakes))) {
        for (const c of pass.cells) writeState(result, row + c, replayCompiled(t, settings, limitsCache.get(cells[c]!.brakes, limitsWindow), prices));
        continue;
      }
      if (passClosed[p] && closedPassApplies(t, settings, prices)) {
        sweepPassClosed(closedRun.of(t, settings, prices), pass, groupNoCap[p]!, { callAtStep, capSteps, st }, result, row);
        continue;
      }
      const loosest = passLoosest[p]!;
      const table = (scratch = buildRunTable(t, settings, prices, loosest, toolStopCall(t, loosest), scratch));
      for (let g = 0; g < pass.capGroups.length; g++) {
        const group = pass.capGroups[g]!;
        const noCap = groupNoCap[p]![g]!;
        // Where the run stops without a cap: before call `stopCall`, or inside it (beyond the pass: only caps stop it).
        const code = stopInTable(table, t, noCap, toolStopCall(t, noCap), st);
        const calls = st[Run.Calls]!;
        const inside = st[Run.Exhausted] !== 1 && !isBeforeCall(code);
        const stopCall = code === StopCode.None ? Infinity : inside ? calls - 1 : calls;
        // The step cap is the first brake before a call: a cap reached no later than stopCall stops the run there.
        const groupCells = group.cells;
        for (let i = 0; i < groupCells.length; i++) {
          const c = groupCells[i]!;
          const capCall = callAtStep.call(capSteps[c]!);
          if (capCall <= stopCall && capCall <= table.end) writeCapStop(result, row + c, table, capCall);
          else if (stopCall !== Infinity) writeState(result, row + c, st);
          else throw new Error('sweep: a cell runs past its pass');
        }
      }
    }
  }
  return result;
}

/** A pass in closed form (sweepClosed.ts): each cap group's stop without a cap, then each cell's cap, O(1) each. */
function sweepPassClosed(run: ClosedRun, pass: Pass, noCaps: BrakeLimits[], scratch: { callAtStep: CallAtStep; capSteps: Int32Array; st: Float64Array }, result: SweepResult, row: number): void {
  const t = run.t;
  const { callAtStep, capSteps, st } = scratch;
  for (let g = 0; g < pass.capGroups.length; g++) {
    const noCap = noCaps[g]!;
    const code = stopClosed(run, noCap, toolStopCall(t, noCap), st);
    const calls = st[Run.Calls]!;
    const inside = st[Run.Exhausted] !== 1 && !isBeforeCall(code);
    const stopCall = inside ? calls - 1 : calls;
    const cells = pass.capGroups[g]!.cells;
    const { stop, calls: callsAt, costPico, tokensUsed, elapsedMs } = result;
    for (let i = 0; i < cells.length; i++) {
      const c = cells[i]!;
      const capCall = callAtStep.call(capSteps[c]!);
      const at = row + c;
      if (capCall <= stopCall) {
        const promptSum = run.promptSum(capCall);
        stop[at] = StopCode.MaxSteps;
        callsAt[at] = capCall;
        costPico[at] = run.spentFrom(promptSum, capCall);
        tokensUsed[at] = promptSum + t.outputBefore[capCall]!;
        elapsedMs[at] = t.stepLatencyBefore[capCall]!;
      } else writeState(result, at, st);
    }
  }
}

/** Per trace: the first call before which `steps` steps were taken (a step cap fires there). */
class CallAtStep {
  private calls = new Int32Array(64);
  private n = 0;
  private identity = false;
  of(t: CompiledTrace): void {
    this.n = t.calls;
    this.identity = t.nonStepsBefore[t.calls] === 0;
    // Every call a step: the call is the step count.
    if (this.identity) return;
    if (this.calls.length < t.calls + 2) this.calls = new Int32Array(t.calls + 2);
    // steps before call k = k − non-steps before k, non-decreasing by 0 or 1 per call.
    let m = 0;
    for (let k = 0; k <= t.calls; k++) {
      const steps = k - t.nonStepsBefore[k]!;
      while (m <= steps) this.calls[m++] = k;
    }
    this.n = m;
  }
  /** The first call before which `steps` steps were taken (−1: no cap); past the trace when none. */
  call(steps: number): number {
    if (this.identity) return steps >= 0 && steps <= this.n ? steps : Infinity;
    return steps >= 0 && steps < this.n ? this.calls[steps]! : Infinity;
  }
}

const EMPTY = new Float64Array(0);

/** The cache columns, allocated on first use. */
function cacheColumns(r: SweepResult): void {
  if (r.cachedInputTokens.length > 0) return;
  const size = r.stop.length;
  r.cachedInputTokens = new Float64Array(size);
  r.cacheWriteTokens = new Float64Array(size);
  r.cacheRuleLostTokens = new Float64Array(size);
}

/**
 * A step cap reached before call k, no later than any other stop: the step cap is the first brake of the
 * kernel's order before a call (beforeCallStop; the kernel test pins the order), so it is the stop.
 */
function writeCapStop(r: SweepResult, at: number, table: RunTable, k: number): void {
  r.stop[at] = StopCode.MaxSteps;
  r.calls[at] = k;
  // (stopTool is read only for a repeat or same-error stop.)
  r.costPico[at] = table.spent[k]!;
  r.tokensUsed[at] = table.tokens[k]!;
  r.elapsedMs[at] = table.elapsed[k]!;
  if (table.hasCacheFigures) {
    cacheColumns(r);
    r.cachedInputTokens[at] = table.cached[k]!;
    r.cacheWriteTokens[at] = table.written[k]!;
    r.cacheRuleLostTokens[at] = table.ruleLost[k]!;
  }
  if (table.lostBefore !== null && table.lostBefore[k] !== 0) {
    strategyColumns(r);
    r.strategyCacheLostTokens[at] = table.lostBefore[k]!;
  }
}

/** The strategy columns, allocated on first use. */
function strategyColumns(r: SweepResult): void {
  if (r.skippedActions.length > 0) return;
  r.strategyCacheLostTokens = new Float64Array(r.stop.length);
  r.skippedActions = new Float64Array(r.stop.length);
}

function writeState(r: SweepResult, at: number, st: Float64Array): void {
  r.stop[at] = st[Run.Stop]!;
  r.calls[at] = st[Run.Calls]!;
  r.stopTool[at] = st[Run.StopTool]!;
  r.costPico[at] = st[Run.SpentPico]!;
  r.tokensUsed[at] = st[Run.TokensUsed]!;
  if (st[Run.CachedTokens] !== 0 || st[Run.WrittenTokens] !== 0 || st[Run.RuleLostTokens] !== 0) {
    cacheColumns(r);
    r.cachedInputTokens[at] = st[Run.CachedTokens]!;
    r.cacheWriteTokens[at] = st[Run.WrittenTokens]!;
    r.cacheRuleLostTokens[at] = st[Run.RuleLostTokens]!;
  }
  r.elapsedMs[at] = st[Run.ElapsedMs]!;
  if (st[Run.StrategyCacheLost] !== 0 || st[Run.SkippedActions] !== 0) {
    strategyColumns(r);
    r.strategyCacheLostTokens[at] = st[Run.StrategyCacheLost]!;
    r.skippedActions[at] = st[Run.SkippedActions]!;
  }
}

/** The figures of (trace, cell) in a sweep: exactly what replaying that cell alone gives (RunTotals + reason). */
export function sweepTotals(r: SweepResult, trace: number, cell: number): FastOutcome {
  const at = (trace - r.from) * r.cells.length + cell;
  const t = r.compiled[trace - r.from]!;
  const calls = r.calls[at]!;
  const spent = r.costPico[at]!;
  if (!Number.isSafeInteger(spent)) throw costOutOfRange(calls);
  const code = r.stop[at]! as StopCode;
  const tool = code === StopCode.Repeat || code === StopCode.ErrorLimit ? r.stopTool[at]! : -1;
  const output = t.outputBefore[calls]!;
  const budget = r.cells[cell]!.brakes.maxCostPico ?? Infinity;
  const reason: StopReason = stopReasonOf(code);
  // A skipped action is not executed: not a tool call.
  const skipped = r.skippedActions.length > 0 ? r.skippedActions[at]! : 0;
  const totals: FastOutcome = {
    reason,
    steps: calls - t.nonStepsBefore[calls]!,
    calls,
    backtracks: t.backtracksBefore[calls]!,
    failedCalls: t.failedBefore[calls]!,
    toolCalls: (tool < 0 ? t.toolsBefore[calls]! : t.toolsBefore[calls - 1]! + (tool - t.toolStart[calls - 1]!) + (code === StopCode.ErrorLimit ? 1 : 0)) - skipped,
    inputTokens: r.tokensUsed[at]! - output,
    cachedInputTokens: r.cachedInputTokens.length > 0 ? r.cachedInputTokens[at]! : 0,
    cacheWriteTokens: r.cacheWriteTokens.length > 0 ? r.cacheWriteTokens[at]! : 0,
    outputTokens: output,
    reasoningTokens: t.reasoningBefore[calls]!,
    costPico: spent,
    overshootPico: spent > budget ? spent - budget : 0,
    elapsedMs: r.elapsedMs[at]!,
    cacheRuleLostTokens: r.cacheRuleLostTokens.length > 0 ? r.cacheRuleLostTokens[at]! : 0,
  };
  // (Summary calls and their cost are not kept by a sweep.)
  const lost = r.strategyCacheLostTokens.length > 0 ? r.strategyCacheLostTokens[at]! : 0;
  return addStrategyFigures(totals, { summaryCalls: 0, summaryCostPico: 0, strategyCacheLostTokens: lost, skippedActions: skipped });
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
  // Cache columns: empty when every part's is, else parts without one count as zeros.
  const joinedCache = (pick: (r: SweepResult) => Float64Array): Float64Array => {
    if (sorted.every((part) => pick(part).length === 0)) return EMPTY;
    const out = new Float64Array(sorted.reduce((n, part) => n + part.stop.length, 0));
    let offset = 0;
    for (const part of sorted) {
      out.set(pick(part), offset);
      offset += part.stop.length;
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
    cachedInputTokens: joinedCache((r) => r.cachedInputTokens),
    cacheWriteTokens: joinedCache((r) => r.cacheWriteTokens),
    cacheRuleLostTokens: joinedCache((r) => r.cacheRuleLostTokens),
    elapsedMs: joined((r) => r.elapsedMs, (n) => new Float64Array(n)),
    strategyCacheLostTokens: joinedCache((r) => r.strategyCacheLostTokens),
    skippedActions: joinedCache((r) => r.skippedActions),
    compiled: sorted.flatMap((part) => part.compiled),
  };
}

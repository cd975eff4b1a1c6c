/**
 * A sweep's result: per (trace, cell), at index (trace − from) · cells + cell, the figures that depend
 * on the run, one typed column each (no object per cell); the writers that fill a cell from a run's
 * state or a run table; a cell's RunTotals read back (sweepTotals). Slices are merged in sweepMerge.ts.
 */
import { overshootPico, stoppedByBound } from '../kernel/brakes.js';
import type { StopReason } from '../brakes/stopReasons.js';
import { StopCode, stopReasonOf } from '../kernel/stopCodes.js';
import { addStrategyFigures } from '../loop/types.js';
import type { CompiledTrace } from './layout.js';
import { refusedCalls } from './refusal.js';
import { pastExactError, Run, type FastOutcome, type RunState } from './runState.js';
import type { RunTable } from './runTable.js';
import type { SweepCell } from './sweepGrid.js';
import { capCallOf } from './sweepTrace.js';
import { ownPromptSum, writeClosedCapSpent } from './sweepClosed.js';
import type { FlatPrices } from '../kernel/prices.js';

/** Per (trace, cell), at index (trace − from) · cells + cell: the figures that depend on the run. */
export interface SweepResult {
  /** The first trace of the slice, and how many. */
  from: number;
  traces: number;
  cells: SweepCell[];
  /**
   * StopCode of each (trace, cell), or SAME_AS_UNCAPPED: the run passed the cell's step cap and its figures
   * are those of the cell uncappedCell[cell] in the same row (written once per cap group), or CAP_CLOSED: a
   * closed pass's step cap stop, only its prompt sum written (in tokensUsed): its calls are the cap's call
   * (capCallOf), its cost and tokens follow from the prompt sum and the trace (writeClosedCapSpent), its
   * elapsed time is the trace's step latency before that call, or CAP_SUMS: such a stop over the trace's
   * own step sums (no tool-result cap), only the mark written: its prompt sum follows from the cap, the
   * cell's window (keeps) and the trace (ownPromptSum). Read cells through cellFigures / sweepTotals.
   * Cache columns are empty until some run has cache figures (then 0 elsewhere).
   */
  stop: Uint8Array;
  /** Per cell: the cell of its cap group with the loosest cap (SweepPlan.uncappedCell). */
  uncappedCell: Int32Array;
  /** Per cell: the steps its cap stops before, −1 without (SweepPlan.capSteps; for CAP_CLOSED cells). */
  capSteps: Int32Array;
  /** Per cell: the steps its window keeps (SweepPlan.keeps, for CAP_SUMS cells). */
  keeps: Int32Array;
  /** Per cell: its budget in picodollars (Infinity without), for the overshoot. */
  budgets: Float64Array;
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
  /** Summary calls made (model calls, though no compiled call: the run's calls figure adds them), their cost and output tokens, with the two above. */
  summaryCalls: Float64Array;
  summaryCostPico: Float64Array;
  summaryOutputTokens: Float64Array;
  /** The compiled traces of the slice (figures no setting changes are read from them), and their prices. */
  compiled: CompiledTrace[];
  prices: FlatPrices[];
}

/** A stop column's mark: this cell's figures are its cap group's loosest cell's (not a StopCode). */
export const SAME_AS_UNCAPPED = 254;

/** A stop column's mark: a step cap stop in a closed pass (calls and elapsed time not written: they follow from the cap and the trace). */
export const CAP_CLOSED = 253;

/** A stop column's mark: a CAP_CLOSED cell over the trace's own step sums, its prompt sum not written (ownPromptSum). */
export const CAP_SUMS = 252;

/** Whether a stop column's code is a closed pass's step cap stop (CAP_CLOSED or CAP_SUMS). */
export const capClosed = (code: number): boolean => code === CAP_CLOSED || code === CAP_SUMS;

/** Where (trace, cell)'s figures are: its own index, or its cap group's loosest cell's when marked SAME_AS_UNCAPPED. */
export function figuresAt(r: SweepResult, trace: number, cell: number): number {
  const row = (trace - r.from) * r.cells.length;
  return r.stop[row + cell] === SAME_AS_UNCAPPED ? row + r.uncappedCell[cell]! : row + cell;
}

export type Column = Uint8Array | Int32Array | Float64Array;

export const EMPTY = new Float64Array(0);

/**
 * A result for `count` traces from `from` over `cells`, reusing `into`'s columns when long enough (every cell writes every column
 * but the optional ones, which are cleared); a shorter slice takes views of their start, not new memory (page faults). `into` is not read after.
 */
export function sweepResult(args: { from: number; count: number; cells: SweepCell[]; uncappedCell: Int32Array; capSteps: Int32Array; keeps: Int32Array; compiled: CompiledTrace[]; prices: FlatPrices[]; into: SweepResult | undefined }): SweepResult {
  const { from, count, cells, uncappedCell, capSteps, keeps, compiled, prices, into } = args;
  const size = count * cells.length;
  const reuse = into !== undefined && into.stop.length >= size && into.cells.length === cells.length;
  const column = <A extends Column>(old: A | undefined, make: (n: number) => A): A => (reuse && old !== undefined && old.length >= size ? (old.length === size ? old : (old.subarray(0, size) as A)) : make(size));
  const result: SweepResult = {
    from,
    traces: count,
    cells,
    stop: column(into?.stop, (n) => new Uint8Array(n)),
    uncappedCell,
    capSteps,
    keeps,
    budgets: into !== undefined && into.cells === cells ? into.budgets : Float64Array.from(cells, (c) => c.brakes.maxCostPico ?? Infinity),
    calls: column(into?.calls, (n) => new Int32Array(n)),
    stopTool: column(into?.stopTool, (n) => new Int32Array(n)),
    costPico: column(into?.costPico, (n) => new Float64Array(n)),
    tokensUsed: column(into?.tokensUsed, (n) => new Float64Array(n)),
    // Cache and strategy columns only once a run has such figures.
    cachedInputTokens: EMPTY,
    cacheWriteTokens: EMPTY,
    cacheRuleLostTokens: EMPTY,
    elapsedMs: column(into?.elapsedMs, (n) => new Float64Array(n)),
    strategyCacheLostTokens: EMPTY,
    skippedActions: EMPTY,
    summaryCalls: EMPTY,
    summaryCostPico: EMPTY,
    summaryOutputTokens: EMPTY,
    compiled,
    prices,
  };
  if (reuse && into.cachedInputTokens.length >= size) {
    result.cachedInputTokens = column(into.cachedInputTokens, () => EMPTY).fill(0);
    result.cacheWriteTokens = column(into.cacheWriteTokens, () => EMPTY).fill(0);
    result.cacheRuleLostTokens = column(into.cacheRuleLostTokens, () => EMPTY).fill(0);
  }
  if (reuse && into.skippedActions.length >= size) {
    result.strategyCacheLostTokens = column(into.strategyCacheLostTokens, () => EMPTY).fill(0);
    result.skippedActions = column(into.skippedActions, () => EMPTY).fill(0);
    result.summaryCalls = column(into.summaryCalls, () => EMPTY).fill(0);
    result.summaryCostPico = column(into.summaryCostPico, () => EMPTY).fill(0);
    result.summaryOutputTokens = column(into.summaryOutputTokens, () => EMPTY).fill(0);
  }
  return result;
}

/** The cache columns, allocated on first use. */
function cacheColumns(r: SweepResult): void {
  if (r.cachedInputTokens.length > 0) return;
  const size = r.stop.length;
  r.cachedInputTokens = new Float64Array(size);
  r.cacheWriteTokens = new Float64Array(size);
  r.cacheRuleLostTokens = new Float64Array(size);
}

/** The strategy columns, allocated on first use. */
function strategyColumns(r: SweepResult): void {
  if (r.skippedActions.length > 0) return;
  r.strategyCacheLostTokens = new Float64Array(r.stop.length);
  r.skippedActions = new Float64Array(r.stop.length);
  r.summaryCalls = new Float64Array(r.stop.length);
  r.summaryCostPico = new Float64Array(r.stop.length);
  r.summaryOutputTokens = new Float64Array(r.stop.length);
}

/**
 * A step cap reached before call k, no later than any other stop: the step cap is the first brake of the
 * kernel's order before a call (beforeCallStop; the kernel test pins the order), so it is the stop.
 */
export function writeCapStop(r: SweepResult, at: number, table: RunTable, k: number): void {
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

/** The run's state at its stop, into cell `at`. */
export function writeState(r: SweepResult, at: number, st: RunState): void {
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
  if (st[Run.StrategyCacheLost] !== 0 || st[Run.SkippedActions] !== 0 || st[Run.SummaryCalls] !== 0) {
    strategyColumns(r);
    r.strategyCacheLostTokens[at] = st[Run.StrategyCacheLost]!;
    r.skippedActions[at] = st[Run.SkippedActions]!;
    r.summaryCalls[at] = st[Run.SummaryCalls]!;
    r.summaryCostPico[at] = st[Run.SummaryCostPico]!;
    r.summaryOutputTokens[at] = st[Run.SummaryOutputTokens]!;
  }
}

/** What population figures read of one (trace, cell): filled in place by cellFigures (no object per cell). */
export interface CellFigures {
  stop: StopCode;
  steps: number;
  calls: number;
  costPico: number;
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  overshootPico: number;
  strategyCacheLostTokens: number;
  skippedActions: number;
  /** Summary calls made, among `calls`. */
  summaryCalls: number;
  /** The predictive budget bound refused the call the run stopped at (kernel stoppedByBound, as its stop records it). */
  byPredictiveBound: boolean;
}

export function newCellFigures(): CellFigures {
  return { stop: StopCode.None, steps: 0, calls: 0, costPico: 0, inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, overshootPico: 0, strategyCacheLostTokens: 0, skippedActions: 0, summaryCalls: 0, byPredictiveBound: false };
}

/** The figures of (trace, cell) into `out` (what replaying that cell alone gives). */
export function cellFigures(r: SweepResult, trace: number, cell: number, out: CellFigures): CellFigures {
  const at = figuresAt(r, trace, cell);
  const t = r.compiled[trace - r.from]!;
  const code = r.stop[at]!;
  const capped = capClosed(code);
  const calls = capped ? capCallOf(t, r.capSteps[cell]!) : r.calls[at]!;
  const tokens = code === CAP_SUMS ? ownPromptSum(t, r.keeps[cell]!, calls) : r.tokensUsed[at]!;
  if (capped) writeClosedCapSpent(out, t, r.prices[trace - r.from]!, calls, tokens); // into `out`, not returned
  else out.costPico = r.costPico[at]!;
  const spent = out.costPico;
  if (!Number.isSafeInteger(spent)) throw pastExactError(t, calls, r.prices[trace - r.from]);
  // A summary call's output is output too (what a replay of the cell alone says: runState.ts outcomeOf).
  const output = t.outputBefore[calls]! + (r.summaryOutputTokens.length > 0 ? r.summaryOutputTokens[at]! : 0);
  const budget = r.budgets[cell]!;
  out.stop = capped ? StopCode.MaxSteps : (code as StopCode);
  // (A cap's call is the first with that many steps before it.)
  out.steps = capped ? r.capSteps[cell]! : calls - t.nonStepsBefore[calls]!;
  out.summaryCalls = r.summaryCalls.length > 0 ? r.summaryCalls[at]! : 0;
  out.calls = calls + refusedCalls(code) + out.summaryCalls; // (a provider's refusal: its call made, no step; summary calls: model calls, no compiled call)
  out.inputTokens = capped ? tokens : tokens - output;
  out.cachedInputTokens = r.cachedInputTokens.length > 0 ? r.cachedInputTokens[at]! : 0;
  out.outputTokens = output;
  out.overshootPico = overshootPico(spent, budget);
  out.byPredictiveBound = stoppedByBound(out.stop, spent, budget);
  out.strategyCacheLostTokens = r.strategyCacheLostTokens.length > 0 ? r.strategyCacheLostTokens[at]! : 0;
  out.skippedActions = r.skippedActions.length > 0 ? r.skippedActions[at]! : 0;
  return out;
}

/** The figures of (trace, cell) in a sweep: exactly what replaying that cell alone gives (RunTotals + reason). */
export function sweepTotals(r: SweepResult, trace: number, cell: number): FastOutcome {
  const at = figuresAt(r, trace, cell);
  const t = r.compiled[trace - r.from]!;
  const f = cellFigures(r, trace, cell, newCellFigures());
  const { stop: code, skippedActions: skipped } = f;
  const refused = refusedCalls(code);
  const calls = f.calls - refused - f.summaryCalls;
  const tool = code === StopCode.Repeat || code === StopCode.ErrorLimit ? r.stopTool[at]! : -1;
  const reason: StopReason = stopReasonOf(code);
  const totals: FastOutcome = {
    reason,
    steps: f.steps,
    calls: f.calls,
    backtracks: t.backtracksBefore[calls]!,
    failedCalls: t.failedBefore[calls]! + refused,
    // A skipped action is not executed: not a tool call.
    toolCalls: (tool < 0 ? t.toolsBefore[calls]! : t.toolsBefore[calls - 1]! + (tool - t.toolStart[calls - 1]!) + (code === StopCode.ErrorLimit ? 1 : 0)) - skipped,
    inputTokens: f.inputTokens,
    cachedInputTokens: f.cachedInputTokens,
    cacheWriteTokens: r.cacheWriteTokens.length > 0 ? r.cacheWriteTokens[at]! : 0,
    outputTokens: f.outputTokens,
    reasoningTokens: t.reasoningBefore[calls]!,
    costPico: f.costPico,
    overshootPico: f.overshootPico,
    elapsedMs: capClosed(r.stop[at]!) ? t.stepLatencyBefore[calls]! : r.elapsedMs[at]!,
    cacheRuleLostTokens: r.cacheRuleLostTokens.length > 0 ? r.cacheRuleLostTokens[at]! : 0,
  };
  const summaryCostPico = r.summaryCostPico.length > 0 ? r.summaryCostPico[at]! : 0;
  return addStrategyFigures(totals, { summaryCalls: f.summaryCalls, summaryCostPico, strategyCacheLostTokens: f.strategyCacheLostTokens, skippedActions: skipped });
}

/**
 * Sweeps: a grid of settings evaluated over compiled traces, sharing work. Brakes only cut a run short,
 * so for each trace and each (strategy, cache mode) of the grid one pass under the loosest brakes of its
 * cells serves them all: in closed form for plain traces (sweepClosed.ts), else recorded as a run table
 * (runTable.ts) that every cell is read off (tableStop.ts). The step cap only cuts a prefix of that pass:
 * for each combination of the other brakes the run is read once without a cap, and each cap is then one
 * comparison. What no axis changes is hoisted: run settings and brake limits once per grid (sweepPlan.ts),
 * the stops no strategy changes once per trace (sweepTrace.ts). Results are typed columns (sweepResult.ts).
 *
 * Each (trace, cell) gets exactly the figures replaying that cell alone gives (test/core/sweep.test.ts,
 * sweepClosed.test.ts). Traces can be swept in slices and merged in order (mergeSweeps).
 */
import type { CacheMode } from '../context/strategy.js';
import type { BrakeLimits } from '../kernel/limits.js';
import type { FlatPrices } from '../kernel/prices.js';
import { StopCode } from '../kernel/stopCodes.js';
import type { CompiledTrace } from './layout.js';
import { requireSweepTraces } from '../options/given.js';
import { replayCompiled, toolStopCall } from './replayFast.js';
import { sweepsStepwise } from './strategySteps.js';
import { buildRunTable } from './plainTable.js';
import { isBeforeCall, type RunTable } from './runTable.js';
import { Run } from './runState.js';
import { RunSetting, runSettings, type RunSettings } from './settings.js';
import { stopInTable } from './tableStop.js';
import type { SweepGrid } from './sweepGrid.js';
import { sweepPlan, type SweepPlan } from './sweepPlan.js';
import { closedPassApplies, ClosedRun } from './sweepClosed.js';
import { sweepPassClosed, type PassScratch, type PassShare } from './sweepClosedPass.js';
import { sweepResult, writeCapStop, writeState, type SweepResult } from './sweepResult.js';
import { CapCalls, NO_CAP_CALL, TraceStops } from './sweepTrace.js';

export type { SweepAxis, SweepCell, SweepGrid, SweepPatch } from './sweepGrid.js';
export { sweepCells } from './sweepGrid.js';
export { cellFigures, newCellFigures, sweepTotals, type CellFigures, type SweepResult } from './sweepResult.js';
export { mergeSweeps } from './sweepMerge.js';

/** One trace of a sweep: compiled, with its prices and its default cache mode (recorded or off). */
export interface SweepTrace {
  compiled: CompiledTrace;
  prices: FlatPrices;
  /** The cache mode when the grid's strategy does not set one. */
  cache: CacheMode;
}

/** Brake limits per pass and cap group, for the model context window they were made for. */
class PassLimits {
  contextWindow = NaN;
  loosest: BrakeLimits[] = [];
  noCap: BrakeLimits[][] = [];
  noCaps: BrakeLimits[] = [];
  at(plan: SweepPlan, contextWindow: number): this {
    if (contextWindow === this.contextWindow) return this;
    const cache = plan.limitsCache;
    this.contextWindow = contextWindow;
    this.loosest = plan.passBrakes.map((b) => cache.get(b, contextWindow));
    this.noCap = plan.noCapBrakes.map((groups) => groups.map((b) => cache.get(b, contextWindow)));
    this.noCaps = plan.noCaps.map((b) => cache.get(b, contextWindow));
    return this;
  }
}

/** A pass's run settings under a cache mode, and whether its cells are replayed one by one (kept per pass). */
class PassSettings {
  private mode: CacheMode | undefined;
  settings!: RunSettings;
  stepwise = false;
  of(plan: SweepPlan, p: number, mode: CacheMode): this {
    if (mode === this.mode) return this;
    const pass = plan.passes[p]!;
    let settings = plan.passSettings[p]!.get(mode);
    if (settings === undefined) plan.passSettings[p]!.set(mode, (settings = runSettings(pass.strategy, mode, plan.latency)));
    this.mode = mode;
    this.settings = settings;
    this.stepwise = sweepsStepwise(settings, plan.passCellBrakes[p]!);
    return this;
  }
}

/**
 * Sweeps traces [range.from, range.to) over the grid's cells. `into`: a result of the same grid and
 * slice size to reuse (its columns are overwritten), as a worker that sweeps slice after slice would.
 */
export function sweepCompiled(traces: readonly SweepTrace[], grid: SweepGrid, given?: { from: number; to: number }, into?: SweepResult): SweepResult {
  // Checked before the default range reads traces.length: a missing one is a UserError, not a TypeError.
  requireSweepTraces('sweepCompiled', traces, given);
  const range = given ?? { from: 0, to: traces.length };
  const plan = sweepPlan(grid);
  const { cells, passes } = plan;
  const count = Math.max(0, range.to - range.from);
  const result = sweepResult({ from: range.from, count, cells, uncappedCell: plan.uncappedCell, capSteps: plan.capSteps, keeps: plan.keeps, compiled: traces.slice(range.from, range.to).map((t) => t.compiled), prices: traces.slice(range.from, range.to).map((t) => t.prices), into });
  const limits = new PassLimits();
  const passSettings = passes.map(() => new PassSettings());
  const scratch: PassScratch = { capCalls: new CapCalls(), capIds: plan.capIds, stops: new TraceStops(), st: new Float64Array(Run.Size) };
  const closedRun = new ClosedRun();
  const { sharing } = plan;
  const shares = passShares(plan);
  // Per pass: the last trace it was swept in closed form on (a pass shares only such a pass).
  const closedOn = new Int32Array(passes.length).fill(-1);
  let table: RunTable | undefined;
  for (let ti = range.from; ti < range.to; ti++) {
    const { compiled: t, prices, cache } = traces[ti]!;
    const row = (ti - range.from) * cells.length;
    limits.at(plan, prices.contextWindow);
    scratch.capCalls.of(t, plan.caps, plan.capIds);
    scratch.stops.of(t, limits.noCaps);
    for (let o = 0; o < passes.length; o++) {
      const p = sharing.order[o]!;
      const pass = passes[p]!;
      const { settings, stepwise } = passSettings[p]!.of(plan, p, pass.strategy.cache ?? cache);
      // Masking, summaries and the skip guard: each cell replayed alone (strategySteps.ts), no run table.
      if (stepwise) {
        for (const c of pass.cells) writeState(result, row + c, replayCompiled(t, settings, plan.limitsCache.get(cells[c]!.brakes, prices.contextWindow), prices));
      } else if (plan.passClosed[p] && closedPassApplies(t, settings, prices)) {
        const share = shares[p]!;
        const from = sharing.from[p]!;
        share.groups = from >= 0 && closedOn[from] === ti ? sharing.groups[p]! : null;
        share.keep = settings[RunSetting.Keep]!;
        closedOn[p] = ti;
        closedRun.of(t, settings, prices);
        sweepPassClosed(closedRun, pass.capGroups, limits.noCap[p]!, plan.noCapIds[p]!, scratch, share, result, row);
      } else {
        table = buildRunTable(t, settings, prices, limits.loosest[p]!, toolStopCall(t, limits.loosest[p]!), table);
        sweepPassTable(table, t, { plan, p, noCap: limits.noCap[p]! }, scratch, result, row);
      }
    }
  }
  return result;
}

/** Each pass's link to the full-history pass it may share (groups set per trace), and where its group runs stop. */
function passShares(plan: SweepPlan): PassShare[] {
  const reach = plan.passes.map((pass) => new Int32Array(pass.capGroups.length));
  return plan.passes.map((_, p) => {
    const from = plan.sharing.from[p]!;
    return { groups: null, cells: plan.sharing.cells, sourceReach: from >= 0 ? reach[from]! : reach[p]!, keep: Infinity, reach: reach[p]! };
  });
}

/** A pass read off its run table: each cap group's stop without a cap, then each cell's cap. */
function sweepPassTable(table: RunTable, t: CompiledTrace, of: { plan: SweepPlan; p: number; noCap: BrakeLimits[] }, scratch: PassScratch, result: SweepResult, row: number): void {
  const { stops, st } = scratch;
  const capCalls = scratch.capCalls.calls;
  const capGroups = of.plan.passes[of.p]!.capGroups;
  const ids = of.plan.noCapIds[of.p]!;
  for (let g = 0; g < capGroups.length; g++) {
    // Where the run stops without a cap: before call `stopCall`, or inside it (beyond the pass: only caps stop it).
    const code = stopInTable(table, t, of.noCap[g]!, stops.toolStop[ids[g]!]!, st);
    const calls = st[Run.Calls]!;
    const inside = st[Run.Exhausted] !== 1 && !isBeforeCall(code);
    const stopCall = code === StopCode.None ? NO_CAP_CALL : inside ? calls - 1 : calls;
    const groupCells = capGroups[g]!.cells;
    for (let i = 0; i < groupCells.length; i++) {
      const c = groupCells[i]!;
      const capCall = capCalls[c]!;
      if (capCall <= stopCall && capCall <= table.end) writeCapStop(result, row + c, table, capCall);
      else if (stopCall !== NO_CAP_CALL) writeState(result, row + c, st);
      else throw new Error('sweep: a cell runs past its pass');
    }
  }
}

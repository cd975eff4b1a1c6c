/**
 * What a sweep works out once per grid (a worker sweeping slice after slice, or a bench, reuses it):
 * the cells, their grouping into passes (one per strategy and cache mode) and, within a pass, into
 * groups that differ only in the step cap; each pass's loosest brakes; brake limits per model context
 * window; run settings per pass and cache mode. Grids are not changed once swept.
 */
import type { BrakeConfig } from '../brakes/config.js';
import type { CacheMode, ContextStrategy } from '../context/strategy.js';
import { brakeLimits, type BrakeLimits } from '../kernel/limits.js';
import type { LatencyModel } from '../loop/latency.js';
import { RunSetting, runSettings, type RunSettings } from './settings.js';
import { passLimits, SettingIds, sweepCells, type SweepCell, type SweepGrid } from './sweepGrid.js';
import { passSharing, rewriteParts, type PassSharing } from './sweepShare.js';
import { keepSteps } from './sweepClosed.js';

/** A group of cells sharing (strategy, cache mode): one pass per trace. */
export interface Pass {
  cells: number[];
  strategy: ContextStrategy;
  /** Cells that differ only in the step cap (in cap order, no cap last), and their brakes without it. */
  capGroups: CapGroup[];
}

export interface CapGroup {
  cells: Int32Array;
  noCap: BrakeConfig;
  /** Each cell's cap (SweepPlan.capIds), in the cells' order. */
  capIds: Int32Array;
  /** cells[0] when the cells are consecutive (cells[i] = cells[0] + i), else −1. */
  first: number;
}

export interface SweepPlan {
  cells: SweepCell[];
  passes: Pass[];
  /** Per pass: brakes no cell of it stops later than. */
  passBrakes: BrakeConfig[];
  /** Per pass and cap group: its brakes without a step cap. */
  noCapBrakes: BrakeConfig[][];
  /** The distinct brake sets without a step cap over every pass (a trace's stops no strategy changes are worked out once for each: sweepTrace.ts). */
  noCaps: BrakeConfig[];
  /** Per pass and cap group: its index in noCaps. */
  noCapIds: Int32Array[];
  /** Per pass: its cells' brakes. */
  passCellBrakes: BrakeConfig[][];
  /** Per pass: whether every cap group can be stopped in closed form (no predictive budget). */
  passClosed: boolean[];
  /** Per cell: the steps its cap stops before (kernel stepCapReached: steps ≥ cap, steps whole), −1 without. */
  capSteps: Int32Array;
  /** Per cell: the cell of its cap group with the loosest cap (a run past one cell's cap is past its cap too: it holds their figures, SweepResult.uncappedCell). */
  uncappedCell: Int32Array;
  /** Per cell: the steps its window keeps as a closed pass reads them (sweepClosed.ts keepSteps). */
  keeps: Int32Array;
  /** The distinct values of capSteps, and per cell the index of its own in them. */
  caps: Int32Array;
  capIds: Int32Array;
  /** Window passes that may copy a full-history pass's cells (sweepShare.ts), and the order passes are swept in. */
  sharing: PassSharing;
  latency: LatencyModel | undefined;
  limitsCache: LimitsCache;
  passSettings: Map<CacheMode, RunSettings>[];
}

/** Limits per brake setting and model context window. */
export class LimitsCache {
  private readonly byWindow = new Map<number, Map<BrakeConfig, BrakeLimits>>();
  get(brakes: BrakeConfig, contextWindow: number): BrakeLimits {
    let map = this.byWindow.get(contextWindow);
    if (map === undefined) this.byWindow.set(contextWindow, (map = new Map()));
    let limits = map.get(brakes);
    if (limits === undefined) map.set(brakes, (limits = brakeLimits(brakes, contextWindow)));
    return limits;
  }
}

/** A pass's strategy as a key: cells of equal keys are one pass. */
function strategyKey(s: ContextStrategy): string {
  return JSON.stringify([s.kind, s.windowSteps, ...rewriteParts(s)]);
}

/** Brakes without the step cap as a key: cells of a pass with equal keys are one cap group. */
function noCapKey(brakes: BrakeConfig): string {
  const { maxSteps: _cap, ...others } = brakes;
  return JSON.stringify(others);
}

function groupCells(cells: SweepCell[]): Pass[] {
  const passes = new Map<number, { cells: number[]; strategy: ContextStrategy; capGroups: { cells: number[]; noCap: BrakeConfig }[]; groups: Map<number, { cells: number[]; noCap: BrakeConfig }> }>();
  const strategyIds = new SettingIds(strategyKey);
  const noCapIds = new SettingIds(noCapKey);
  cells.forEach((cell, index) => {
    const key = strategyIds.id(cell.strategy);
    let pass = passes.get(key);
    if (pass === undefined) passes.set(key, (pass = { cells: [], strategy: cell.strategy, capGroups: [], groups: new Map() }));
    pass.cells.push(index);
    const capKey = noCapIds.id(cell.brakes);
    let group = pass.groups.get(capKey);
    if (group === undefined) {
      const { maxSteps: _cap, ...others } = cell.brakes;
      group = { cells: [], noCap: others as BrakeConfig };
      pass.groups.set(capKey, group);
      pass.capGroups.push(group);
    }
    group.cells.push(index);
  });
  return [...passes.values()].map(({ cells: c, strategy, capGroups }) => ({ cells: c, strategy, capGroups: capGroups.map((g) => ({ cells: Int32Array.from(g.cells), noCap: g.noCap, capIds: new Int32Array(0), first: -1 })) }));
}

/** Per cell: the steps its window keeps as a closed pass reads them (keepSteps), worked out once per strategy. */
function keepsOf(cells: readonly SweepCell[]): Int32Array {
  const keeps = new Map<ContextStrategy, number>();
  return Int32Array.from(cells, ({ strategy }) => {
    let keep = keeps.get(strategy);
    if (keep === undefined) keeps.set(strategy, (keep = keepSteps(runSettings(strategy, 'off')[RunSetting.Keep]!)));
    return keep;
  });
}

/** Per cell: the cell of its cap group with the most steps allowed (no cap: −1, the loosest). */
function loosestCapCells(passes: readonly Pass[], capSteps: Int32Array): Int32Array {
  const out = new Int32Array(capSteps.length);
  const steps = (c: number) => (capSteps[c]! < 0 ? Infinity : capSteps[c]!);
  for (const pass of passes) {
    for (const { cells } of pass.capGroups) {
      let loosest = cells[0]!;
      for (const c of cells) if (steps(c) > steps(loosest)) loosest = c;
      for (const c of cells) out[c] = loosest;
    }
  }
  return out;
}

/** The distinct brake sets of `noCapBrakes` (per pass and cap group) over every pass, and each group's index in them: the same brakes in several passes (one per strategy) share one entry. */
function distinctNoCaps(noCapBrakes: readonly BrakeConfig[][]): { noCaps: BrakeConfig[]; noCapIds: Int32Array[] } {
  const noCapIndex = new Map<string, number>();
  const noCaps: BrakeConfig[] = [];
  const noCapIds = noCapBrakes.map((groups) =>
    Int32Array.from(groups, (b) => {
      const key = JSON.stringify(b);
      let id = noCapIndex.get(key);
      if (id === undefined) noCapIndex.set(key, (id = noCaps.push(b) - 1));
      return id;
    }),
  );
  return { noCaps, noCapIds };
}

/** Per cell: the steps its cap stops before (kernel stepCapReached: steps ≥ cap, steps whole), −1 without. */
function capStepsOf(cells: readonly SweepCell[]): Int32Array {
  return Int32Array.from(cells, (cell) => {
    const cap = cell.brakes.maxSteps ?? Infinity;
    return cap === Infinity ? -1 : Math.max(0, Math.ceil(cap));
  });
}

/** Each cap group's cells in cap order (no cap last; ties as in the grid: the closed pass writes them in runs), their cap ids, and whether they are consecutive. */
function orderCapGroups(passes: readonly Pass[], capSteps: Int32Array, capIds: Int32Array): void {
  const capOrder = (c: number): number => (capSteps[c]! < 0 ? Infinity : capSteps[c]!);
  for (const pass of passes) {
    for (const g of pass.capGroups) {
      g.cells = Int32Array.from([...g.cells].sort((a, b) => capOrder(a) - capOrder(b)));
      g.capIds = g.cells.map((c) => capIds[c]!);
      g.first = g.cells.every((c, i) => c === g.cells[0]! + i) ? g.cells[0]! : -1;
    }
  }
}

const plans = new WeakMap<SweepGrid, SweepPlan>();

export function sweepPlan(grid: SweepGrid): SweepPlan {
  const known = plans.get(grid);
  if (known !== undefined) return known;
  const cells = sweepCells(grid);
  const passes = groupCells(cells);
  const noCapBrakes = passes.map((pass) => pass.capGroups.map((g) => ({ ...g.noCap, maxSteps: undefined }) as BrakeConfig));
  const { noCaps, noCapIds } = distinctNoCaps(noCapBrakes);
  const capSteps = capStepsOf(cells);
  const caps = Int32Array.from(new Set(capSteps));
  const capIds = Int32Array.from(capSteps, (steps) => caps.indexOf(steps));
  orderCapGroups(passes, capSteps, capIds);
  const plan: SweepPlan = {
    cells,
    passes,
    passBrakes: passes.map((pass) => passLimits(pass.cells.map((c) => cells[c]!.brakes))),
    noCapBrakes,
    noCaps,
    noCapIds,
    passCellBrakes: passes.map((pass) => pass.cells.map((c) => cells[c]!.brakes)),
    passClosed: noCapBrakes.map((groups) => groups.every((b) => b.budgetMode !== 'predict' || b.maxCostPico === undefined)),
    capSteps,
    uncappedCell: loosestCapCells(passes, capSteps),
    keeps: keepsOf(cells),
    caps,
    capIds,
    sharing: passSharing(passes, cells),
    latency: grid.latency,
    limitsCache: new LimitsCache(),
    passSettings: passes.map(() => new Map()),
  };
  plans.set(grid, plan);
  return plan;
}

/**
 * Passes that share a full-history pass. A window of w steps keeps every step of calls 0..w (the
 * prompt before call k slides only once k > w), so a window pass runs exactly as full history does up
 * to call w: when the full-history run of a cap group stops at a call ≤ w (its figures read no later
 * call), the window run stops there too with the same figures, and so does every step cap of the group
 * (a cap call ≤ the stop call). Such a group's cells are copied from the full-history pass's cells with
 * the same brakes instead of worked out again. Only between closed-form passes (sweepClosed.ts) whose
 * strategies differ in nothing but the window: there a window changes nothing but the prompt.
 */
import type { ContextStrategy } from '../context/strategy.js';
import { SettingIds, type SweepCell } from './sweepGrid.js';
import type { Pass } from './sweepPlan.js';
import { CAP_CLOSED, CAP_SUMS, SAME_AS_UNCAPPED, type SweepResult } from './sweepResult.js';

/** Per grid: which full-history pass each pass may share, and how their groups and cells match. */
export interface PassSharing {
  /** Per pass: the full-history pass of the same strategy but the window, or −1. */
  from: Int32Array;
  /** Per pass and cap group: the cap group with the same brakes in `from`, or −1. */
  groups: Int32Array[];
  /** Per cell: the cell with the same brakes in its pass's `from` pass, or −1. */
  cells: Int32Array;
  /** The passes in the order a trace is swept: full-history passes that others share first. */
  order: Int32Array;
}

/** A strategy's parts beside its kind and window, as the pass keys list them (sweepPlan strategyKey, withoutWindow): a new strategy field goes here once. */
export function rewriteParts(s: ContextStrategy): unknown[] {
  return [s.toolResultCap, s.cache, s.maskSteps, s.maskBatchSteps ?? 1, s.placeholderTokens, s.summary];
}

/** The strategy a pass runs without its window (full history), as a key. */
function withoutWindow(pass: Pass): string {
  return JSON.stringify(rewriteParts(pass.strategy));
}

export function passSharing(passes: readonly Pass[], cells: readonly SweepCell[]): PassSharing {
  const fullByKey = new Map<string, number>();
  passes.forEach((pass, p) => {
    if (pass.strategy.kind === 'full' && !fullByKey.has(withoutWindow(pass))) fullByKey.set(withoutWindow(pass), p);
  });
  const from = new Int32Array(passes.length).fill(-1);
  // Brakes equal as JSON are the same brakes (each object's key made once: cells share them).
  const brakeIds = new SettingIds<SweepCell['brakes']>((brakes) => JSON.stringify(brakes));
  const cellMap = new Int32Array(cells.length).fill(-1);
  const groups = passes.map((pass, p) => {
    const q = pass.strategy.kind === 'window' ? (fullByKey.get(withoutWindow(pass)) ?? -1) : -1;
    if (q < 0) return new Int32Array(pass.capGroups.length).fill(-1);
    from[p] = q;
    // The source's cells by brakes, and the cap group each is in.
    const byBrakes = new Map<number, number>();
    const groupOf = new Map<number, number>();
    passes[q]!.capGroups.forEach((g, gi) => g.cells.forEach((c) => (byBrakes.set(brakeIds.id(cells[c]!.brakes), c), groupOf.set(c, gi))));
    return Int32Array.from(pass.capGroups, (g) => {
      let source = -2;
      for (const c of g.cells) {
        const s = byBrakes.get(brakeIds.id(cells[c]!.brakes));
        const sg = s === undefined ? -1 : groupOf.get(s)!;
        if (sg < 0 || (source !== -2 && sg !== source)) return -1;
        source = sg;
        cellMap[c] = s!;
      }
      return source < 0 ? -1 : source;
    });
  });
  const isSource = new Set(from);
  const order = Int32Array.from([...passes.keys()].sort((a, b) => Number(isSource.has(b)) - Number(isSource.has(a))));
  return { from, groups, cells: cellMap, order };
}

/**
 * A shared cap group: each cell's figures copied from its cell in the full-history pass (same trace row);
 * a cell past its cap is marked (its group's loosest cell, past its cap too, gets the figures).
 */
export function copyShared(result: SweepResult, row: number, groupCells: Int32Array, sourceCells: Int32Array): void {
  const { stop, calls, stopTool, costPico, tokensUsed, elapsedMs, uncappedCell } = result;
  for (let i = 0; i < groupCells.length; i++) {
    const cell = groupCells[i]!;
    const to = row + cell;
    const source = sourceCells[cell]!;
    let from = row + source;
    let code = stop[from]!;
    if (code === SAME_AS_UNCAPPED) {
      if (uncappedCell[cell] !== cell) {
        stop[to] = SAME_AS_UNCAPPED;
        continue;
      }
      from = row + uncappedCell[source]!;
      code = stop[from]!;
    }
    stop[to] = code;
    // (CAP_SUMS: nothing but the mark; the source's cap is within this window, which had not slid by then.)
    if (code === CAP_SUMS) continue;
    tokensUsed[to] = tokensUsed[from]!;
    if (code === CAP_CLOSED) continue;
    costPico[to] = costPico[from]!;
    calls[to] = calls[from]!;
    stopTool[to] = stopTool[from]!;
    elapsedMs[to] = elapsedMs[from]!;
  }
}

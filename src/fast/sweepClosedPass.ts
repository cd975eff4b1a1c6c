/**
 * A sweep pass in closed form (sweepClosed.ts's ClosedRun and stopClosed): each cap group's stop
 * without a cap, or the full-history pass's cells when the window holds that run (sweepShare.ts), then
 * each cell's cap in O(1), written as little as the result's marks allow (SweepResult.stop): a step
 * cap stop over the trace's own sums is one byte, its figures worked out when read.
 */
import type { BrakeLimits } from '../kernel/limits.js';
import { StopCode } from '../kernel/stopCodes.js';
import { Run, type RunState } from './runState.js';
import { isBeforeCall } from './runTable.js';
import { stopClosed, type ClosedRun } from './sweepClosed.js';
import { CAP_CLOSED, CAP_SUMS, SAME_AS_UNCAPPED, type SweepResult } from './sweepResult.js';
import { copyShared } from './sweepShare.js';
import type { CapGroup } from './sweepPlan.js';
import type { CapCalls, TraceStops } from './sweepTrace.js';

/** What a pass reads besides its run: each cell's cap call and the stops no strategy changes on this trace, scratch state. */
export interface PassScratch {
  capCalls: CapCalls;
  /** Each cell's cap (an index into capCalls.byCap). */
  capIds: Int32Array;
  stops: TraceStops;
  st: RunState;
}

/**
 * A closed pass's link to the full-history pass it may share (sweepShare.ts): per cap group the group
 * there (−1 none) and per cell the cell there, how far that pass's group runs read on this trace (its
 * stop's calls), the steps this pass's window keeps; `reach`: where this pass's own group runs stop.
 */
export interface PassShare {
  groups: Int32Array | null;
  cells: Int32Array;
  sourceReach: Int32Array;
  keep: number;
  reach: Int32Array;
}

/**
 * A pass in closed form: each cap group's stop without a cap (stopClosed), then each cell's cap, O(1)
 * each: a cap reached no later than the stop is the stop (the step cap is the first brake of the
 * kernel's order before a call), with the figures before its call (ClosedRun's sums).
 */
export function sweepPassClosed(run: ClosedRun, capGroups: readonly CapGroup[], noCaps: readonly BrakeLimits[], noCapIds: Int32Array, scratch: PassScratch, share: PassShare, result: SweepResult, row: number): void {
  const { stops, st } = scratch;
  const at = { toolStop: 0, hard: 0 };
  const shared = share.groups;
  for (let g = 0; g < capGroups.length; g++) {
    const from = shared === null ? -1 : shared[g]!;
    // The full-history run of this group read no call past this window's last unslid one: it is this run.
    if (from >= 0 && share.sourceReach[from]! <= share.keep) {
      copyShared(result, row, capGroups[g]!.cells, share.cells);
      share.reach[g] = share.sourceReach[from]!;
      continue;
    }
    const u = noCapIds[g]!;
    at.toolStop = stops.toolStop[u]!;
    at.hard = stops.hardStop[u]!;
    const code = stopClosed(run, noCaps[g]!, at, st);
    const calls = st[Run.Calls]! | 0;
    share.reach[g] = calls;
    const stopCall = st[Run.Exhausted] !== 1 && !isBeforeCall(code) ? calls - 1 : calls;
    writeCells(run, capGroups[g]!, scratch.capCalls.byCap, stopCall, result, row, code, st);
  }
}

/**
 * Each cell of a cap group, in cap order (SweepPlan sorts a group's cells by cap, so cap calls never
 * decrease and the caps reached by `stopCall` are a prefix, found by a binary search): step cap stops —
 * over the trace's own step sums (no tool-result cap) marked CAP_SUMS and nothing else written, else
 * CAP_CLOSED with their prompt sum — then the cells past their cap, marked, but the loosest.
 */
function writeCells(run: ClosedRun, group: CapGroup, byCap: Int32Array, stopCall: number, result: SweepResult, row: number, code: StopCode, st: RunState): void {
  const { stop, tokensUsed } = result;
  const { cells, capIds, first } = group;
  const n = cells.length;
  let reached = 0;
  let hi = n;
  while (reached < hi) {
    const mid = (reached + hi) >>> 1;
    if (byCap[capIds[mid]!]! <= stopCall) reached = mid + 1;
    else hi = mid;
  }
  if (run.beforeSum !== run.t.stepTokensBeforeSum) {
    for (let i = 0; i < reached; i++) {
      stop[row + cells[i]!] = CAP_CLOSED;
      tokensUsed[row + cells[i]!] = run.promptSum(byCap[capIds[i]!]!);
    }
  } else if (first >= 0) {
    for (let at = row + first, end = at + reached; at < end; at++) stop[at] = CAP_SUMS;
  } else {
    for (let i = 0; i < reached; i++) stop[row + cells[i]!] = CAP_SUMS;
  }
  if (reached === n) return;
  // Past their cap: the group's loosest cell (past its cap too, so among these) holds the run's figures.
  if (first >= 0) for (let at = row + first + reached, end = row + first + n; at < end; at++) stop[at] = SAME_AS_UNCAPPED;
  else for (let i = reached; i < n; i++) stop[row + cells[i]!] = SAME_AS_UNCAPPED;
  writeStop(result, row + result.uncappedCell[cells[0]!]!, code, st);
}

/** The run's stop into cell `at` (a closed pass has no cache or strategy figures). */
function writeStop(result: SweepResult, at: number, code: StopCode, st: RunState): void {
  result.stop[at] = code;
  result.calls[at] = st[Run.Calls]! | 0;
  result.stopTool[at] = st[Run.StopTool]!;
  result.costPico[at] = st[Run.SpentPico]!;
  result.tokensUsed[at] = st[Run.TokensUsed]!;
  result.elapsedMs[at] = st[Run.ElapsedMs]!;
}

/**
 * A sweep pass in closed form (sweepClosed.ts's ClosedRun and stopClosed): each cap group's stop
 * without a cap, or the full-history pass's cells when the window holds that run (sweepShare.ts), then
 * each cell's cap in O(1), written as little as the result's marks allow (SweepResult.stop).
 */
import type { BrakeLimits } from '../kernel/limits.js';
import { StopCode } from '../kernel/stopCodes.js';
import { Run, type RunState } from './runState.js';
import { isBeforeCall } from './runTable.js';
import { stopClosed, type ClosedRun } from './sweepClosed.js';
import { CAP_CLOSED, SAME_AS_UNCAPPED, type SweepResult } from './sweepResult.js';
import { copyShared } from './sweepShare.js';
import { CapField, type CapCalls, type CapFigures, type TraceStops } from './sweepTrace.js';

/** What a pass reads besides its run: each cell's cap call and the stops no strategy changes on this trace, scratch state. */
export interface PassScratch {
  capCalls: CapCalls;
  /** The figures at each distinct cap's call (filled once per trace before its first closed pass), and each cell's cap. */
  capFigures: CapFigures;
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
 * kernel's order before a call), with the figures before its call (ClosedRun's sums, inlined).
 */
export function sweepPassClosed(run: ClosedRun, capGroups: readonly { cells: Int32Array }[], noCaps: readonly BrakeLimits[], noCapIds: Int32Array, scratch: PassScratch, share: PassShare, result: SweepResult, row: number): void {
  const { stops, st, capIds } = scratch;
  const block = scratch.capFigures.block;
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
    writeCells(run, capGroups[g]!.cells, { capIds, block }, stopCall, result, row, code, st);
  }
}

/**
 * Each cell of a cap group: its cap's figures when the cap is reached by `stopCall` (the prompts from
 * this pass's sums, the rest from the trace's cap block: CapFigures), else the run's stop in `st`.
 */
function writeCells(run: ClosedRun, cells: Int32Array, caps: { capIds: Int32Array; block: Float64Array }, stopCall: number, result: SweepResult, row: number, code: StopCode, st: RunState): void {
  const { stop, calls: callsAt, stopTool, costPico, tokensUsed, elapsedMs } = result;
  const { beforeSum, keep, fixed } = run;
  const { capIds, block } = caps;
  const calls = st[Run.Calls]! | 0;
  const stateCost = st[Run.SpentPico]!;
  const stateTokens = st[Run.TokensUsed]!;
  const stateElapsed = st[Run.ElapsedMs]!;
  const stateTool = st[Run.StopTool]!;
  const uncapped = result.uncappedCell;
  const uncappedSums = beforeSum === run.t.stepTokensBeforeSum;
  for (let i = 0; i < cells.length; i++) {
    const cell = cells[i]!;
    const c = row + cell;
    const at = capIds[cell]! * CapField.Stride;
    const k = block[at + CapField.Call]!;
    if (k <= stopCall) {
      // (The same sums in the same order as ClosedRun.promptSum: with uncapped sums the block holds k·fixed + S[k].)
      const full = uncappedSums ? block[at + CapField.FullPromptSum]! : k * fixed + beforeSum[k]!;
      const promptSum = k > keep ? full - beforeSum[k - keep]! : full;
      // A step cap stop: only its prompt sum; the rest follows from the cap and the trace (SweepResult.stop).
      stop[c] = CAP_CLOSED;
      tokensUsed[c] = promptSum;
    } else if (uncapped[cell] !== cell) {
      // Past its cap: the group's loosest cell (past its cap too) holds the run's figures.
      stop[c] = SAME_AS_UNCAPPED;
    } else {
      // (A closed pass has no cache or strategy figures.)
      stop[c] = code;
      callsAt[c] = calls;
      stopTool[c] = stateTool;
      costPico[c] = stateCost;
      tokensUsed[c] = stateTokens;
      elapsedMs[c] = stateElapsed;
    }
  }
}

/**
 * A compiled sweep's cells read as runs of configurations with their baselines (src/population/sweep.ts
 * recordedRuns): trace by trace, each cell's figures filled in place (cellFigures), stops as codes; or,
 * for callers that keep them, as run figures with their stop reasons named.
 */
import { cellFigures, newCellFigures, type CellFigures, type SweepResult } from '../fast/sweep.js';
import { stopReasonOf } from '../kernel/stopCodes.js';
import { isGeneratedTrace } from './generatedRuns.js';
import type { BaselineTruth, CodedBaseline, RunPair } from '../metrics/population.js';
import type { Trace } from '../trace/types.js';
import type { PopulationRunFigures } from './run.js';

/**
 * A run of a configuration and its baseline (`run` may be reused between calls: copy it to keep it); `ownDone`:
 * a closed-loop synthetic run's own ground truth (RunPair.truth), which its completion and false stop are judged by.
 */
export type RunVisitor = (config: number, run: PopulationRunFigures, baseline: RunPair['baseline'], ownDone?: boolean) => void;

/**
 * A cell's baseline, its stop as a code, with its run's ground truth when known (`truth`: the step its task
 * is done at and the step it got stuck from with no brakes, if it did): a synthetic recording's (given, not
 * a cell), or a generated trace's (its header's `synthetic`). Tallies judge false stops and catches by it.
 */
export type CellBaseline = CodedBaseline;

/**
 * A cell of the compiled sweep, a run of a configuration, and its baseline, stops as codes (both reused
 * between calls). Its strategy figures: strategyCacheLostTokens alone (a sweep skips no action and makes
 * no summary call: those configurations are replayed run by run, hasStrategyFigures).
 */
export type CellVisitor = (config: number, run: CellFigures, baseline: CellBaseline) => void;

/** A cell's figures as a run's (stop reason named). */
export function runOfCell(f: CellFigures): PopulationRunFigures {
  const run: PopulationRunFigures = { stopReason: stopReasonOf(f.stop), steps: f.steps, costPico: f.costPico, inputTokens: f.inputTokens, cachedInputTokens: f.cachedInputTokens, outputTokens: f.outputTokens, overshootPico: f.overshootPico };
  if (f.strategyCacheLostTokens) run.strategyCacheLostTokens = f.strategyCacheLostTokens;
  if (f.byPredictiveBound) run.byPredictiveBound = true;
  return run;
}

/** A cell's baseline as a run pair's (stop reason named, its ground truth kept). */
export function baselineOfCell(b: CodedBaseline): RunPair['baseline'] {
  return { stopReason: stopReasonOf(b.stop), steps: b.steps, costPico: b.costPico, ...(b.truth === undefined ? {} : { truth: b.truth }) };
}

/**
 * Where a sweep's baselines are: cells of the sweep (cell cells.length + of[cell], one per distinct
 * baseline, after the configurations'; `truths`: each trace's ground truth, by trace index, if any has
 * one), or given, one per trace (`runs`: a synthetic run's own figures).
 */
export type CellBaselines = { of: Int32Array; count: number; truths?: readonly (BaselineTruth | undefined)[] } | { runs: readonly CellBaseline[] };

/** Each trace's ground truth (its header's, a generated trace's), or undefined when none has one (recorded traces: nothing to carry per cell). */
export function traceTruths(traces: readonly Trace[]): (BaselineTruth | undefined)[] | undefined {
  return traces.some(isGeneratedTrace) ? traces.map((trace) => trace.header.synthetic) : undefined;
}

/**
 * Cells a sweep's caller hands over otherwise (a recording that states its strategy, under full history:
 * replayed as its loop ran it, sweepRecorded.ts): `traces` marks the traces (by index) that may have such
 * cells, and `take` (trace, cell) says whether it took the cell (then `visit` is not called for it).
 */
export interface CellTakeover {
  traces: Uint8Array;
  take: (trace: number, cell: number) => boolean;
}

/** A sweep's cells handed to `visit` trace by trace (the result's columns read in the order they are laid out), each with its baseline; `takeover`'s cells to it instead. */
export function visitCells(result: SweepResult, cells: readonly number[], baselines: CellBaselines, visit: CellVisitor, takeover?: CellTakeover): void {
  const figures = newCellFigures();
  if ('runs' in baselines) {
    for (let t = result.from; t < result.from + result.traces; t++) {
      for (let cell = 0; cell < cells.length; cell++) visit(cells[cell]!, cellFigures(result, t, cell, figures), baselines.runs[t]!);
    }
    return;
  }
  const baseline: CellBaseline[] = Array.from({ length: baselines.count }, () => ({ stop: 0, steps: 0, costPico: 0, truth: undefined }));
  const truths = baselines.truths;
  for (let t = result.from; t < result.from + result.traces; t++) {
    for (let b = 0; b < baselines.count; b++) {
      const f = cellFigures(result, t, cells.length + b, figures);
      const to = baseline[b]!;
      to.stop = f.stop;
      to.steps = f.steps;
      to.costPico = f.costPico;
      if (truths !== undefined) to.truth = truths[t];
    }
    // One mark read per trace: the other traces' cells are read as before.
    const takes = takeover !== undefined && takeover.traces[t] === 1;
    for (let cell = 0; cell < cells.length; cell++) {
      if (takes && takeover.take(t, cell)) continue;
      visit(cells[cell]!, cellFigures(result, t, cell, figures), baseline[baselines.of[cell]!]!);
    }
  }
}

/**
 * Each context strategy's cumulative prompt tokens per step over a population of recorded runs, side by
 * side: what the sweep chart shows when `context` is a grid axis (as `curve --compare-context` does for
 * one constant-step loop). Every run is replayed with no brakes under each strategy (so the curves show
 * the strategy alone); a run that ended stays flat after its last step. Pure: no node:*, no clock.
 */
import { NO_BRAKES } from '../brakes/config.js';
import type { ContextStrategy } from '../context/strategy.js';
import type { LatencyModel } from '../loop/latency.js';
import type { PriceTable } from '../pricing/types.js';
import { replayTrace } from '../replay/replay.js';
import type { Trace } from '../trace/types.js';

export interface ContextTokenCurves {
  /** The strategies in `--context` syntax, in grid order. */
  strategies: string[];
  runs: number;
  /** Sampled steps (at most MAX_CURVE_STEPS, the last always): per strategy, the mean per run of its prompt tokens up to and including that step (summary calls included). */
  steps: { step: number; meanCumulativeInputTokens: number[] }[];
}

export const MAX_CURVE_STEPS = 20;

/** Cumulative prompt tokens after each step of one run (index k: step k+1). */
function cumulativeByStep(trace: Trace, strategy: ContextStrategy, prices: PriceTable, options: { model?: string; latency?: LatencyModel }): number[] {
  const result = replayTrace(trace, { strategy, prices, brakes: NO_BRAKES, keepSteps: true, ...options });
  return result.rows.filter((row) => row.summary !== true).map((row) => row.cumulativeInputTokens);
}

/** The steps shown: every step up to MAX_CURVE_STEPS, else MAX_CURVE_STEPS evenly spaced ones ending at the last. */
function sampledSteps(last: number): number[] {
  if (last <= MAX_CURVE_STEPS) return Array.from({ length: last }, (_, i) => i + 1);
  return [...new Set(Array.from({ length: MAX_CURVE_STEPS }, (_, i) => Math.ceil(((i + 1) * last) / MAX_CURVE_STEPS)))];
}

export function contextTokenCurves(traces: readonly Trace[], strategies: readonly { spec: string; strategy: ContextStrategy }[], prices: PriceTable, options: { model?: string; latency?: LatencyModel } = {}): ContextTokenCurves {
  return contextCurvesOf(contextTokenSums(traces, strategies, prices, options));
}

/**
 * The curves' sums over some runs: per strategy, Σ over the runs of their cumulative prompt tokens at
 * each step up to the longest run (a run that ended counts its last figure). Whole numbers, so shares of
 * the runs summed apart merge (mergeContextTokenSums) into exactly the sums of them all.
 */
export interface ContextTokenSums {
  strategies: string[];
  runs: number;
  /** Per strategy, index k: step k+1. */
  sums: number[][];
}

export function contextTokenSums(traces: readonly Trace[], strategies: readonly { spec: string; strategy: ContextStrategy }[], prices: PriceTable, options: { model?: string; latency?: LatencyModel } = {}): ContextTokenSums {
  const perStrategy = strategies.map(({ strategy }) => traces.map((trace) => cumulativeByStep(trace, strategy, prices, options)));
  const last = Math.max(0, ...perStrategy.flatMap((runs) => runs.map((steps) => steps.length)));
  const sums = perStrategy.map((runs) => Array.from({ length: last }, (_, k) => runs.reduce((sum, byStep) => sum + (byStep.length === 0 ? 0 : byStep[Math.min(k + 1, byStep.length) - 1]!), 0)));
  return { strategies: strategies.map((s) => s.spec), runs: traces.length, sums };
}

/** Sums over disjoint shares of the runs, added up (a share's sums stay flat past its longest run). */
export function mergeContextTokenSums(parts: readonly ContextTokenSums[]): ContextTokenSums {
  const first = parts[0]!;
  const last = Math.max(0, ...parts.flatMap((part) => part.sums.map((byStep) => byStep.length)));
  const at = (byStep: readonly number[], k: number) => (byStep.length === 0 ? 0 : byStep[Math.min(k, byStep.length - 1)]!);
  return {
    strategies: first.strategies,
    runs: parts.reduce((n, part) => n + part.runs, 0),
    sums: first.strategies.map((_, i) => Array.from({ length: last }, (_, k) => parts.reduce((sum, part) => sum + at(part.sums[i]!, k), 0))),
  };
}

export function contextCurvesOf(sums: ContextTokenSums): ContextTokenCurves {
  const last = Math.max(0, ...sums.sums.map((byStep) => byStep.length));
  const steps = sampledSteps(last).map((step) => ({
    step,
    meanCumulativeInputTokens: sums.sums.map((byStep) => (sums.runs === 0 ? 0 : Math.round(byStep[step - 1]! / sums.runs))),
  }));
  return { strategies: sums.strategies, runs: sums.runs, steps };
}

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
  const perStrategy = strategies.map(({ strategy }) => traces.map((trace) => cumulativeByStep(trace, strategy, prices, options)));
  const last = Math.max(0, ...perStrategy.flatMap((runs) => runs.map((steps) => steps.length)));
  const steps = sampledSteps(last).map((step) => ({
    step,
    meanCumulativeInputTokens: perStrategy.map((runs) => {
      const total = runs.reduce((sum, byStep) => sum + (byStep.length === 0 ? 0 : byStep[Math.min(step, byStep.length) - 1]!), 0);
      return runs.length === 0 ? 0 : Math.round(total / runs.length);
    }),
  }));
  return { strategies: strategies.map((s) => s.spec), runs: traces.length, steps };
}

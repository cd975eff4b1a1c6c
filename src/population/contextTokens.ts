/**
 * Each context strategy's cumulative prompt tokens per step over a population of recorded runs, side by
 * side: what the sweep chart shows when `context` is a grid axis (as `curve --compare-context` does for
 * one constant-step loop). Every run is replayed with no brakes under each strategy (so the curves show
 * the strategy alone), by the compiled kernel's run table (its figures before every call) or, for a
 * strategy that rewrites older steps, the readable loop's rows; a run that ended stays flat after its
 * last step. Pure: no node:*, no clock.
 */
import { NO_BRAKES } from '../brakes/config.js';
import type { ContextStrategy } from '../context/strategy.js';
import type { LatencyModel } from '../loop/latency.js';
import type { PriceTable } from '../pricing/types.js';
import { brakeLimits } from '../kernel/limits.js';
import { flattenPrices } from '../kernel/prices.js';
import { compiledOf } from '../replay/compiledRuns.js';
import { buildRunTable } from '../fast/plainTable.js';
import { toolStopCall } from '../fast/replayFast.js';
import type { RunTable } from '../fast/runTable.js';
import { outcomeOf, Run, type RunState } from '../fast/runState.js';
import { runSettings } from '../fast/settings.js';
import { sweepsStepwise } from '../fast/strategySteps.js';
import { stopInTable } from '../fast/tableStop.js';
import { defaultCacheMode, replayTrace, resolveTracePricing } from '../replay/replay.js';
import { inRunContext } from '../replay/runContext.js';
import type { Trace } from '../trace/types.js';
import { maxOf } from '../metrics/extremes.js';

export interface ContextTokenCurves {
  /** The strategies in `--context` syntax, in grid order. */
  strategies: string[];
  runs: number;
  /** Sampled steps (at most MAX_CURVE_STEPS, the last always): per strategy, the mean per run of its prompt tokens up to and including that step (summary calls included). */
  steps: { step: number; meanCumulativeInputTokens: number[] }[];
}

export const MAX_CURVE_STEPS = 20;

/** Cumulative prompt tokens after each call of one run (index k: call k+1; summary calls counted, not listed). */
function cumulativeByStep(trace: Trace, strategy: ContextStrategy, prices: PriceTable, options: { model?: string; latency?: LatencyModel }, scratch: CurveScratch): number[] {
  const pricing = resolveTracePricing(trace, { prices, ...(options.model === undefined ? {} : { model: options.model }) });
  const settings = runSettings(strategy, strategy.cache ?? defaultCacheMode(trace), options.latency);
  // Strategies that rewrite older steps: the readable loop's rows. Else the compiled run's table (runTable.ts: its figures before every call).
  if (sweepsStepwise(settings, [NO_BRAKES])) {
    const result = replayTrace(trace, { strategy, prices, pricing, brakes: NO_BRAKES, keepSteps: true, ...options });
    return result.rows.filter((row) => row.summary !== true).map((row) => row.cumulativeInputTokens);
  }
  return inRunContext(trace, () => {
    const t = compiledOf(trace);
    const flat = flattenPrices(pricing);
    const limits = brakeLimits(NO_BRAKES, flat.contextWindow);
    const toolStop = toolStopCall(t, limits);
    const table = (scratch.table = buildRunTable(t, settings, flat, limits, toolStop, scratch.table));
    stopInTable(table, t, limits, toolStop, scratch.st);
    // (As the replay would: a run whose cost leaves exact picodollars is refused.)
    outcomeOf(t, scratch.st, limits);
    const calls = scratch.st[Run.Calls]!;
    // Input tokens before call k: the table's tokens less the output before k.
    return Array.from({ length: calls }, (_, k) => table.tokens[k + 1]! - t.outputBefore[k + 1]!);
  });
}

/** A run table and run state reused from run to run. */
interface CurveScratch {
  table: RunTable | undefined;
  st: RunState;
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

/** The length of the longest list, 0 for none. */
const longest = (lists: readonly (readonly number[])[]): number => maxOf(lists.map((list) => list.length), 0);

/**
 * One strategy's sums, run by run (no run's list kept): `reached[k]`, Σ of step k+1 over the runs that
 * reach it; `ended[L]`, Σ of the last figure of the runs of L steps, which each step from L+1 on counts.
 */
class StepSums {
  private readonly reached: number[] = [];
  private readonly ended: number[] = [0];
  add(byStep: readonly number[]): void {
    const steps = byStep.length;
    while (this.reached.length < steps) {
      this.reached.push(0);
      this.ended.push(0);
    }
    for (let k = 0; k < steps; k++) this.reached[k] = this.reached[k]! + byStep[k]!;
    if (steps > 0) this.ended[steps] = this.ended[steps]! + byStep[steps - 1]!;
  }
  get longest(): number {
    return this.reached.length;
  }
  /** The sums at steps 1..last (whole numbers: the same whatever order the runs came in). */
  sums(last: number): number[] {
    let flat = 0;
    return Array.from({ length: last }, (_, k) => {
      flat += this.ended[k] ?? 0;
      return (this.reached[k] ?? 0) + flat;
    });
  }
}

export function contextTokenSums(traces: readonly Trace[], strategies: readonly { spec: string; strategy: ContextStrategy }[], prices: PriceTable, options: { model?: string; latency?: LatencyModel } = {}): ContextTokenSums {
  const scratch: CurveScratch = { table: undefined, st: new Float64Array(Run.Size) };
  const perStrategy = strategies.map(({ strategy }) => {
    const sums = new StepSums();
    for (const trace of traces) sums.add(cumulativeByStep(trace, strategy, prices, options, scratch));
    return sums;
  });
  const last = maxOf(perStrategy.map((sums) => sums.longest), 0);
  return { strategies: strategies.map((s) => s.spec), runs: traces.length, sums: perStrategy.map((sums) => sums.sums(last)) };
}

/** Sums over disjoint shares of the runs, added up (a share's sums stay flat past its longest run). */
export function mergeContextTokenSums(parts: readonly ContextTokenSums[]): ContextTokenSums {
  const first = parts[0]!;
  const last = longest(parts.flatMap((part) => part.sums));
  const at = (byStep: readonly number[], k: number) => (byStep.length === 0 ? 0 : byStep[Math.min(k, byStep.length - 1)]!);
  return {
    strategies: first.strategies,
    runs: parts.reduce((n, part) => n + part.runs, 0),
    sums: first.strategies.map((_, i) => Array.from({ length: last }, (_, k) => parts.reduce((sum, part) => sum + at(part.sums[i]!, k), 0))),
  };
}

export function contextCurvesOf(sums: ContextTokenSums): ContextTokenCurves {
  const last = longest(sums.sums);
  const steps = sampledSteps(last).map((step) => ({
    step,
    meanCumulativeInputTokens: sums.sums.map((byStep) => (sums.runs === 0 ? 0 : Math.round(byStep[step - 1]! / sums.runs))),
  }));
  return { strategies: sums.strategies, runs: sums.runs, steps };
}

import { NO_BRAKES, type BrakeConfig } from '../brakes/config.js';
import type { StopReason } from '../brakes/stopReasons.js';
import type { ContextStrategy, StrategyPlace } from '../context/strategy.js';
import type { LatencyModel } from '../loop/latency.js';
import { picoToUsd } from '../money.js';
import type { ModelPricing, PriceTable } from '../pricing/types.js';
import { constantStepsTrace, requireConstantStepsSpec, type ConstantStepsSpec } from '../synthetic/constantSteps.js';
import { replayTrace } from './replay.js';
import { tracePricing } from './tracePricing.js';
import { argumentPlace, type NamedPlace } from '../options/given.js';
import { maxOf } from '../metrics/extremes.js';
import { requireCurveArguments, requireCurveRunArguments } from '../options/entryArguments.js';

export interface CurveRow {
  step: number;
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  cumulativeInputTokens: number;
  cumulativeOutputTokens: number;
  costUsd: number;
  cumulativeCostUsd: number;
  /** A summary call (context `summary`/`hybrid`) was made before this step; its tokens and cost are in the cumulative figures. */
  summaryBefore?: boolean;
}

export interface CurveRun {
  rows: CurveRow[];
  /** `completed` when every step ran; otherwise the brake that stopped the loop. */
  stopReason: StopReason;
  stopDetail: string;
  pricing: ModelPricing;
  summaryCalls: number;
  /** The run's whole cost: the last row's Σ cost, plus a summary call made after the last step (the brakes then stopped the next call). */
  totalCostUsd: number;
  /** A summary call was made after the last step. */
  summaryAfterLast: boolean;
}

/**
 * What a curve's runs take beside the loop and strategy: brakes (none unless given), latency, and where the
 * model and strategy were given, to name them in a complaint (default: the entry point's own arguments,
 * `<curveRun arguments>` field `spec.model`; the CLI passes `--model` and `--context`).
 */
export interface CurveOptions {
  brakes?: BrakeConfig;
  latency?: LatencyModel;
  modelPlace?: NamedPlace;
  strategyPlace?: StrategyPlace;
}

/**
 * Per-step growth of a constant-step loop, run through the same loop, context and brake code as a
 * replay (no brakes unless given). Its arguments are named as its own (`<curveRun arguments>` field 'strategy').
 */
export function curveRun(spec: ConstantStepsSpec, strategy: ContextStrategy, prices: PriceTable, options: CurveOptions = {}): CurveRun {
  const trace = constantStepsTrace(spec, 'curveRun');
  // Named as curveRun's own arguments, not as the replay's or the pricing's they are handed to.
  requireCurveRunArguments('curveRun', { strategy, prices, options });
  const pricing = tracePricing(trace, { prices, model: spec.model, modelPlace: options.modelPlace ?? argumentPlace('curveRun', 'spec.model') });
  const result = replayTrace(trace, {
    brakes: options.brakes ?? NO_BRAKES,
    strategy,
    strategyPlace: options.strategyPlace ?? argumentPlace('curveRun', 'strategy'),
    prices,
    pricing,
    keepSteps: true,
    ...(options.latency === undefined ? {} : { latency: options.latency }),
  });
  // A summary call is not a step: it shows as a mark on the step after it (its figures are in the cumulative ones).
  const summaryBefore = new Set(result.rows.filter((row) => row.summary).map((row) => row.step + 1));
  const rows = result.rows.filter((row) => !row.summary).map((row) => ({
    ...(summaryBefore.has(row.step) ? { summaryBefore: true } : {}),
    step: row.step,
    inputTokens: row.inputTokens,
    cachedInputTokens: row.cachedInputTokens,
    outputTokens: row.outputTokens,
    cumulativeInputTokens: row.cumulativeInputTokens,
    cumulativeOutputTokens: row.cumulativeOutputTokens,
    costUsd: picoToUsd(row.costPico),
    cumulativeCostUsd: picoToUsd(row.cumulativeCostPico),
  }));
  const summaryAfterLast = result.rows.length > 0 && result.rows[result.rows.length - 1]!.summary === true;
  return { rows, stopReason: result.stopReason, stopDetail: result.stopDetail, pricing, summaryCalls: result.summaryCalls ?? 0, totalCostUsd: picoToUsd(result.costPico), summaryAfterLast };
}

/** Cumulative tokens (input + output, summary calls included) per step under each strategy, side by side. */
export interface CurveComparison {
  /** The strategies in `--context` syntax, in the order given. */
  strategies: string[];
  /** Per step: each strategy's cumulative tokens after it (null once that strategy's run stopped). */
  rows: { step: number; cumulativeTokens: (number | null)[] }[];
  /** Each strategy's total cost (USD) and stop reason. */
  totals: { strategy: string; costUsd: number; summaryCalls: number; stopReason: StopReason }[];
}

export function compareCurves(spec: ConstantStepsSpec, strategies: readonly { spec: string; strategy: ContextStrategy }[], prices: PriceTable, options: CurveOptions = {}): CurveComparison {
  requireConstantStepsSpec('compareCurves', spec);
  requireCurveArguments({ strategies, prices, options });
  const modelPlace = options.modelPlace ?? argumentPlace('compareCurves', 'spec.model');
  const runs = strategies.map(({ strategy }, k) => curveRun(spec, strategy, prices, { ...options, modelPlace, strategyPlace: options.strategyPlace ?? argumentPlace('compareCurves', `strategies[${k}].strategy`) }));
  const steps = maxOf(runs.map((run) => run.rows.length), 0);
  const rows = Array.from({ length: steps }, (_, i) => ({
    step: i + 1,
    cumulativeTokens: runs.map((run) => {
      const row = run.rows[i];
      return row === undefined ? null : row.cumulativeInputTokens + row.cumulativeOutputTokens;
    }),
  }));
  const totals = runs.map((run, k) => ({
    strategy: strategies[k]!.spec,
    costUsd: run.totalCostUsd,
    summaryCalls: run.summaryCalls,
    stopReason: run.stopReason,
  }));
  return { strategies: strategies.map((s) => s.spec), rows, totals };
}

/** Per-step growth of a constant-step loop without brakes. */
export function growthCurve(spec: ConstantStepsSpec, strategy: ContextStrategy, prices: PriceTable): CurveRow[] {
  requireConstantStepsSpec('growthCurve', spec);
  requireCurveRunArguments('growthCurve', { strategy, prices });
  return curveRun(spec, strategy, prices, { modelPlace: argumentPlace('growthCurve', 'spec.model'), strategyPlace: argumentPlace('growthCurve', 'strategy') }).rows;
}

import { NO_BRAKES, type BrakeConfig } from '../brakes/config.js';
import type { StopReason } from '../brakes/stopReasons.js';
import type { ContextStrategy } from '../context/strategy.js';
import type { LatencyModel } from '../loop/latency.js';
import { picoToUsd } from '../money.js';
import type { ModelPricing, PriceTable } from '../pricing/types.js';
import { constantStepsTrace, type ConstantStepsSpec } from '../synthetic/constantSteps.js';
import { replayTrace, resolveTracePricing } from './replay.js';

export interface CurveRow {
  step: number;
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  cumulativeInputTokens: number;
  cumulativeOutputTokens: number;
  costUsd: number;
  cumulativeCostUsd: number;
}

export interface CurveRun {
  rows: CurveRow[];
  /** `completed` when every step ran; otherwise the brake that stopped the loop. */
  stopReason: StopReason;
  stopDetail: string;
  pricing: ModelPricing;
}

/**
 * Per-step growth of a constant-step loop, run through the same loop, context and brake code as a
 * replay (no brakes unless given).
 */
export function curveRun(spec: ConstantStepsSpec, strategy: ContextStrategy, prices: PriceTable, options: { brakes?: BrakeConfig; latency?: LatencyModel } = {}): CurveRun {
  const trace = constantStepsTrace(spec);
  const pricing = resolveTracePricing(trace, { prices });
  const result = replayTrace(trace, {
    brakes: options.brakes ?? NO_BRAKES,
    strategy,
    prices,
    pricing,
    keepSteps: true,
    ...(options.latency === undefined ? {} : { latency: options.latency }),
  });
  const rows = result.rows.map((row) => ({
    step: row.call,
    inputTokens: row.inputTokens,
    cachedInputTokens: row.cachedInputTokens,
    outputTokens: row.outputTokens,
    cumulativeInputTokens: row.cumulativeInputTokens,
    cumulativeOutputTokens: row.cumulativeOutputTokens,
    costUsd: picoToUsd(row.costPico),
    cumulativeCostUsd: picoToUsd(row.cumulativeCostPico),
  }));
  return { rows, stopReason: result.stopReason, stopDetail: result.stopDetail, pricing };
}

/** Per-step growth of a constant-step loop without brakes. */
export function growthCurve(spec: ConstantStepsSpec, strategy: ContextStrategy, prices: PriceTable): CurveRow[] {
  return curveRun(spec, strategy, prices).rows;
}

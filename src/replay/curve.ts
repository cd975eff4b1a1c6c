import { NO_BRAKES } from '../brakes/config.js';
import type { ContextStrategy } from '../context/strategy.js';
import { picoToUsd } from '../money.js';
import type { PriceTable } from '../pricing/types.js';
import { constantStepsTrace, type ConstantStepsSpec } from '../synthetic/constantSteps.js';
import { replayTrace } from './replay.js';

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

/** Per-step growth of a constant-step loop, run through the same loop and context code as a replay. */
export function growthCurve(spec: ConstantStepsSpec, strategy: ContextStrategy, prices: PriceTable): CurveRow[] {
  const result = replayTrace(constantStepsTrace(spec), { brakes: NO_BRAKES, strategy, prices, keepSteps: true });
  return result.rows.map((row) => ({
    step: row.call,
    inputTokens: row.inputTokens,
    cachedInputTokens: row.cachedInputTokens,
    outputTokens: row.outputTokens,
    cumulativeInputTokens: row.cumulativeInputTokens,
    cumulativeOutputTokens: row.cumulativeOutputTokens,
    costUsd: picoToUsd(row.costPico),
    cumulativeCostUsd: picoToUsd(row.cumulativeCostPico),
  }));
}

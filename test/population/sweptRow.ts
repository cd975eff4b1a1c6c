/**
 * What a sweep row holds for a configuration's run pairs, computed independently of the sweep: the
 * population figures, and what the runs cost with no brakes in all (baselineCostUsd, summed exactly).
 */
import { populationMetrics, type PopulationMetrics, type RunPair } from '../../src/metrics/population.js';
import { picoToUsd } from '../../src/money.js';

export function sweptRowOf(pairs: readonly RunPair[]): PopulationMetrics & { baselineCostUsd: number } {
  const baselinePico = pairs.reduce((sum, pair) => sum + BigInt(pair.baseline.costPico), 0n);
  return { ...populationMetrics(pairs), baselineCostUsd: picoToUsd(baselinePico) };
}

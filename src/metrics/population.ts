/**
 * The figures of a population of runs under one configuration, as `sweep`, `calibrate`, `project` and
 * `check` report them — one definition, so a `check` expectation means what a sweep column means.
 *
 * Each run is seen twice: under the configuration (`run`) and with no brakes at all (`baseline`: the
 * recorded run replayed as recorded, or the synthetic agent under its policy up to the hard cap). The
 * baseline tells a false stop (a run that completes without brakes, stopped here by a brake) from a
 * caught run (one that would not have completed, stopped here before its end).
 *
 * Money stays in integer picodollars (BigInt sums) until the USD figures are made; quantiles are
 * nearest-rank (the smallest cost at or above which p% of runs lie: always a cost some run had, no
 * interpolation), so every figure can be recomputed by hand from per-run rows.
 */
import { isBrakeStop, STOP_REASONS, type StopReason } from '../brakes/stopReasons.js';
import { picoToUsd, type Pico } from '../money.js';

/** What the population figures need of one run. */
export interface RunFigures {
  stopReason: StopReason;
  steps: number;
  costPico: Pico;
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  overshootPico: Pico;
}

/** One run under the configuration and the same run with no brakes. */
export interface RunPair {
  run: RunFigures;
  baseline: Pick<RunFigures, 'stopReason' | 'steps' | 'costPico'>;
}

export interface CostQuantilesUsd {
  mean: number;
  p50: number;
  p95: number;
  max: number;
}

/** JSON names as the sweep issue fixes them; CSV columns are the same names (nested ones dotted). */
export interface PopulationMetrics {
  runs: number;
  completed: number;
  completionRate: number;
  costUsd: number;
  costPerRunUsd: CostQuantilesUsd;
  /** Total spend over completions; null when nothing completed. */
  costPerCompletedUsd: number | null;
  /** Spend on runs that did not complete, and its share of all spend (0 when nothing was spent). */
  wastedUsd: number;
  wastedShare: number;
  /** Runs the baseline completes that a brake stops here, and their rate among the baseline's completions (null: none completes). */
  falseStops: number;
  falseStopRate: number | null;
  /** Runs the baseline does not complete that a brake stops here before their end, and the spend that saves. */
  caughtEarly: number;
  savedUsd: number;
  stopReasons: Partial<Record<StopReason, number>>;
  tokens: { input: number; cached: number; output: number };
  overshootUsd: number;
}

/** The nearest-rank p-quantile (0 < p ≤ 1) of ascending values: the value at rank ⌈p·n⌉. */
export function nearestRank<T>(ascending: readonly T[], p: number): T | undefined {
  if (ascending.length === 0) return undefined;
  const rank = Math.max(1, Math.ceil(p * ascending.length));
  return ascending[Math.min(rank, ascending.length) - 1];
}

/** total / n in picodollars, rounded half up, as USD. */
function meanUsd(totalPico: bigint, n: number): number {
  if (n === 0) return 0;
  const count = BigInt(n);
  return picoToUsd((totalPico * 2n + count) / (2n * count));
}

export function populationMetrics(pairs: readonly RunPair[]): PopulationMetrics {
  let total = 0n;
  let wasted = 0n;
  let saved = 0n;
  let overshoot = 0n;
  let completed = 0;
  let baselineCompleted = 0;
  let falseStops = 0;
  let caughtEarly = 0;
  const tokens = { input: 0, cached: 0, output: 0 };
  const stopReasons: Partial<Record<StopReason, number>> = {};
  const costs: number[] = [];
  for (const { run, baseline } of pairs) {
    const cost = BigInt(run.costPico);
    total += cost;
    overshoot += BigInt(run.overshootPico);
    costs.push(run.costPico);
    tokens.input += run.inputTokens;
    tokens.cached += run.cachedInputTokens;
    tokens.output += run.outputTokens;
    stopReasons[run.stopReason] = (stopReasons[run.stopReason] ?? 0) + 1;
    if (run.stopReason === 'completed') completed += 1;
    else wasted += cost;
    const braked = isBrakeStop(run.stopReason);
    if (baseline.stopReason === 'completed') {
      baselineCompleted += 1;
      if (braked) falseStops += 1;
    } else if (braked && run.steps < baseline.steps) {
      caughtEarly += 1;
      if (baseline.costPico > run.costPico) saved += BigInt(baseline.costPico - run.costPico);
    }
  }
  costs.sort((a, b) => a - b);
  const n = pairs.length;
  const orderedReasons: Partial<Record<StopReason, number>> = {};
  for (const reason of STOP_REASONS) if (stopReasons[reason] !== undefined) orderedReasons[reason] = stopReasons[reason];
  return {
    runs: n,
    completed,
    completionRate: n === 0 ? 0 : completed / n,
    costUsd: picoToUsd(total),
    costPerRunUsd: {
      mean: meanUsd(total, n),
      p50: picoToUsd(nearestRank(costs, 0.5) ?? 0),
      p95: picoToUsd(nearestRank(costs, 0.95) ?? 0),
      max: picoToUsd(costs[n - 1] ?? 0),
    },
    costPerCompletedUsd: completed === 0 ? null : meanUsd(total, completed),
    wastedUsd: picoToUsd(wasted),
    wastedShare: total === 0n ? 0 : Number((wasted * 1_000_000_000n) / total) / 1e9,
    falseStops,
    falseStopRate: baselineCompleted === 0 ? null : falseStops / baselineCompleted,
    caughtEarly,
    savedUsd: picoToUsd(saved),
    stopReasons: orderedReasons,
    tokens,
    overshootUsd: picoToUsd(overshoot),
  };
}

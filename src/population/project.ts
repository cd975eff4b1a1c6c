/**
 * Cost projection: daily and period spend of a population of runs under one configuration, by seeded
 * Monte Carlo (pure-rand streams, as src/synthetic draws them), with how far to trust it.
 *
 * - Each simulated period first resamples its population from the per-run costs (a bootstrap draw of
 *   the n runs: recorded runs replayed under the brakes; synthetic runs of the scenario files), then draws
 *   `days` days of `runsPerDay` runs each from it, with replacement; `trials` periods are simulated. So a
 *   day's p95 and p99 carry how little n runs say of the population, not only day-to-day spread (drawn
 *   from the n runs as if they were the population, the p99 day sat below the mean's own 95% interval).
 *   Quantiles are nearest-rank. A day is drawn run by run, or as multinomial counts when it has many runs
 *   per distinct cost (projectDays.ts). Runs that stand for fewer (`strata`: a fitted profile's synthetic
 *   runs stand for the recorded runs it was fitted to) are resampled part by part, each at the runs it stands
 *   for and weighted by its runs, as the per-run intervals resample them: more --runs do not narrow the days.
 * - Draws index the costs in ascending order, not in the order the runs came: the same runs and seed
 *   give the same projection however they were listed (files in another order, a directory or a glob).
 * - 95% intervals on the mean (seeded bootstrap, `resamples`) and the p95 (order statistics) of the per-run
 *   cost, each only where the runs are enough for it to hold its 95% (projectConfidence.ts).
 * - Distribution-free bound: a cap at the largest of n runs stops at most 1 − 0.05^(1/n) of new runs at
 *   95% confidence; claiming a rate r needs n ≥ ln 0.05 / ln(1 − r) runs.
 * - Worst case the brakes allow per run: worstCase.ts.
 * - Where prompts pass a price tier, or the context window less the max_tokens sent (a provider refuses a
 *   call whose prompt + max_tokens passes the window): PromptCrossings.
 * Pure: no node:*, no clock, no Math.random.
 */
import { DEFAULT_MAX_OUTPUT_TOKENS } from '../brakes/config.js';
import { promptAllowedTokens } from '../kernel/limits.js';
import { nearestRank } from '../metrics/population.js';
import { meanPico, picoToUsd } from '../money.js';
import type { ModelPricing } from '../pricing/types.js';
import { Rng, STREAM } from '../synthetic/random.js';
import { PeriodDraws, StratifiedPeriodDraws } from './projectDays.js';
import { maxOf } from '../metrics/extremes.js';
import { runCostConfidence, strataStandingForFewer, type CostStratum, type RunCostConfidence } from './projectConfidence.js';

export interface Quantiles {
  mean: number;
  p50: number;
  p95: number;
  p99: number;
}

export interface ProjectionOptions {
  runsPerDay: number;
  days: number;
  seed: number;
  /** Simulated periods (default 1000). */
  trials?: number;
  /** Bootstrap resamples (default 1000). */
  resamples?: number;
  /** The runs by part, where a part stands for fewer runs than it holds (a fitted profile's: projectConfidence.ts); the intervals and each period's resample rest on those. */
  strata?: readonly CostStratum[];
}

export interface Projection {
  runsPerDay: number;
  days: number;
  seed: number;
  trials: number;
  perDay: Quantiles;
  perPeriod: Quantiles;
  perRunUsd: Quantiles & { max: number; runs: number };
  /** 95% intervals on the per-run mean (bootstrap) and p95 (order statistics), null bounds where too few runs give none (projectConfidence.ts). */
  confidence: RunCostConfidence;
}

/** Mean (rounded half up) and nearest-rank quantiles of exact picodollar amounts, as USD. */
function quantilesUsd(valuesPico: bigint[]): Quantiles {
  const sorted = valuesPico.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const n = sorted.length;
  let total = 0n;
  for (const v of sorted) total += v;
  return {
    mean: n === 0 ? 0 : picoToUsd(meanPico(total, n)),
    p50: picoToUsd(nearestRank(sorted, 0.5) ?? 0n),
    p95: picoToUsd(nearestRank(sorted, 0.95) ?? 0n),
    p99: picoToUsd(nearestRank(sorted, 0.99) ?? 0n),
  };
}

/** Seeded Monte Carlo of daily and period spend from per-run costs (picodollars, whole numbers; their order does not matter). */
export function projectSpend(runCostsPico: readonly number[], options: ProjectionOptions): Projection {
  // One order for any order the runs came in (the draws pick by index).
  const costsPico = [...runCostsPico].sort((a, b) => a - b);
  const trials = options.trials ?? 1000;
  const resamples = options.resamples ?? 1000;
  const n = costsPico.length;
  const dayTotals: bigint[] = [];
  const periodTotals: bigint[] = [];
  // Runs that stand for fewer: each period resamples every part at the runs it stands for (projectDays.ts).
  const strata = strataStandingForFewer(options.strata);
  if (strata !== undefined && strata.reduce((sum, s) => sum + s.costsPico.length, 0) !== n) throw new Error(`projectSpend: the strata hold other runs than the ${n} costs`);
  const periods = strata === undefined ? new PeriodDraws(costsPico, options.runsPerDay) : new StratifiedPeriodDraws(strata, options.runsPerDay);
  for (let trial = 0; trial < trials; trial++) {
    const rng = Rng.stream(options.seed, trial, STREAM.projectDays);
    const daySpend = periods.spender(rng);
    let period = 0n;
    for (let day = 0; day < options.days; day++) {
      const spent = daySpend(rng);
      dayTotals.push(spent);
      period += spent;
    }
    periodTotals.push(period);
  }
  const perRun = quantilesUsd(costsPico.map((cost) => BigInt(cost)));
  return {
    runsPerDay: options.runsPerDay,
    days: options.days,
    seed: options.seed,
    trials,
    perDay: quantilesUsd(dayTotals),
    perPeriod: quantilesUsd(periodTotals),
    perRunUsd: { ...perRun, max: picoToUsd(Math.max(0, maxOf(costsPico))), runs: n },
    confidence: runCostConfidence(costsPico, { seed: options.seed, resamples, ...(strata === undefined ? {} : { strata }) }),
  };
}

/** The most share of new runs a cap at the largest of n observed runs may stop, at 95% confidence: 1 − 0.05^(1/n). */
export function capBoundShare(runs: number): number {
  return runs <= 0 ? 1 : 1 - Math.pow(0.05, 1 / runs);
}

/** Runs needed to claim, at 95% confidence, that a cap at the largest of them stops at most `share` of new runs. */
export function runsToClaim(share: number): number {
  // log1p: 1 − share loses a small share's digits (1e-12 off by ~0.01%, 1e-15 by ~10%).
  return share <= 0 ? Infinity : share >= 1 ? 1 : Math.ceil(Math.log(0.05) / Math.log1p(-share));
}

/**
 * `--suggest-cap R`: the per-run budget that stops at most a share R of the runs that complete: the
 * nearest-rank (1 − R) quantile of their costs (a run costing no more than the cap is not stopped by it
 * in check mode). Undefined when no run completes, or when that quantile is $0 (the runs cost nothing, or
 * all but R of them do): a budget cannot bind runs that cost $0, and `--max-cost` takes no 0.
 */
export function suggestCapPico(completedCostsPico: readonly number[], share: number): number | undefined {
  const sorted = [...completedCostsPico].sort((a, b) => a - b);
  const cap = nearestRank(sorted, 1 - share);
  return cap === 0 ? undefined : cap;
}

/**
 * Where growing prompts pass a price tier or the context window: per threshold, the runs that did and at
 * which step. The window's threshold is the largest prompt a provider accepts with the max_tokens sent
 * (kernel/limits.ts promptAllowedTokens): OpenAI and Anthropic refuse prompt + max_tokens past the window.
 */
export interface PromptCrossing {
  model: string;
  kind: 'price_tier' | 'context_window';
  /** A prompt above this passes the threshold: the tier's, or the context window less max_tokens. */
  aboveInputTokens: number;
  /** `context_window`: the model's window and the max_tokens sent, which aboveInputTokens is the difference of. */
  contextWindowTokens?: number;
  maxOutputTokens?: number;
  /** Runs on this model priced with this threshold, and those whose prompt passed it. */
  runs: number;
  runsCrossing: number;
  /** The earliest step at which a run's prompt passed it, and the median (nearest rank) over the runs that did. */
  firstStep: number | null;
  medianStep: number | null;
}

/** One threshold of one model (a tier, or the context window less max_tokens) and the step each run priced with it first passed it at. */
interface ThresholdCrossings {
  model: string;
  kind: PromptCrossing['kind'];
  aboveInputTokens: number;
  contextWindowTokens?: number;
  /** Runs whose pricing has this threshold. */
  runs: number;
  steps: number[];
}

/** Tiers before the context window, as a model's thresholds are read. */
const KIND_ORDER: Record<PromptCrossing['kind'], number> = { price_tier: 0, context_window: 1 };

function compareThresholds(a: ThresholdCrossings, b: ThresholdCrossings): number {
  if (a.model !== b.model) return a.model < b.model ? -1 : 1;
  return KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || a.aboveInputTokens - b.aboveInputTokens;
}

/**
 * Where the runs' prompts passed each threshold of their model (price tiers, the context window less the
 * max_tokens sent), run by run: a run's rows are read as it is added against its own pricing's thresholds
 * (a model's tiers can be dated: runs recorded on other days may have others), and only the step of each
 * first crossing is kept. Sorted by model, then tiers before the window, then size: the same runs give
 * the same crossings whatever order they came in.
 */
export class PromptCrossings {
  private readonly byThreshold = new Map<string, ThresholdCrossings>();
  private readonly thresholdsByPricing = new Map<ModelPricing, ThresholdCrossings[]>();
  private readonly priced = new Set<ModelPricing>();
  private readonly maxOutputTokens: number;

  /** `maxOutputTokens`: the max_tokens the runs' calls send (`--max-output-tokens`, default 4096), counted against the window. */
  constructor(options: { maxOutputTokens?: number } = {}) {
    this.maxOutputTokens = options.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS;
  }

  add(pricing: ModelPricing, rows: readonly { step: number; inputTokens: number }[]): void {
    this.priced.add(pricing);
    for (const entry of this.thresholdsOf(pricing)) {
      entry.runs += 1;
      const row = rows.find((r) => r.inputTokens > entry.aboveInputTokens);
      if (row !== undefined) entry.steps.push(Math.max(1, row.step));
    }
  }

  /** A pricing's thresholds (its tiers, then its context window), each shared with every pricing of the model that has it. */
  private thresholdsOf(pricing: ModelPricing): ThresholdCrossings[] {
    let entries = this.thresholdsByPricing.get(pricing);
    if (entries !== undefined) return entries;
    const thresholds: Pick<ThresholdCrossings, 'kind' | 'aboveInputTokens' | 'contextWindowTokens'>[] = pricing.tiers.map((tier) => ({ kind: 'price_tier', aboveInputTokens: tier.aboveInputTokens }));
    if (pricing.contextWindow !== undefined) thresholds.push({ kind: 'context_window', aboveInputTokens: promptAllowedTokens(pricing.contextWindow, this.maxOutputTokens), contextWindowTokens: pricing.contextWindow });
    entries = thresholds.map((threshold) => {
      const key = `${pricing.model}\u0000${threshold.kind}\u0000${threshold.aboveInputTokens}\u0000${threshold.contextWindowTokens ?? ''}`;
      let entry = this.byThreshold.get(key);
      if (entry === undefined) this.byThreshold.set(key, (entry = { model: pricing.model, ...threshold, runs: 0, steps: [] }));
      return entry;
    });
    this.thresholdsByPricing.set(pricing, entries);
    return entries;
  }

  /** Every pricing a run came with, in the order first seen (a model's prices can be dated: runs recorded on other days). */
  get pricings(): ModelPricing[] {
    return [...this.priced];
  }

  /** Per model, each threshold and where the runs' prompts passed it. */
  crossings(): PromptCrossing[] {
    return [...this.byThreshold.values()].sort(compareThresholds).map((entry) => {
      const steps = [...entry.steps].sort((a, b) => a - b);
      const window = entry.kind === 'context_window' ? { contextWindowTokens: entry.contextWindowTokens!, maxOutputTokens: this.maxOutputTokens } : {};
      return { model: entry.model, kind: entry.kind, aboveInputTokens: entry.aboveInputTokens, ...window, runs: entry.runs, runsCrossing: steps.length, firstStep: steps[0] ?? null, medianStep: nearestRank(steps, 0.5) ?? null };
    });
  }
}

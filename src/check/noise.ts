/**
 * How much of a figure's change a resample explains: a check's synthetic runs are a sample of their
 * population, so two samples of the same population (another seed, population entries in another order,
 * more runs) give figures apart by chance. Per figure a baseline holds, the half-width of its 95% percentile
 * bootstrap interval: the synthetic runs resampled with replacement (seeded: the same runs give the same
 * noise), the recorded runs kept as they are (a replay is exact: they add none). A drift is judged against
 * the band of the difference of two such figures, sqrt(now² + baseline²) (baseline.ts). The largest cost of
 * a run is no stable figure of a sample and has no band: it is not held when there are synthetic runs.
 */
import { nearestRank, tallyMetrics, type PopulationMetrics } from '../metrics/population.js';
import { TallyBuilder, type CodedBaseline, type CodedRun } from '../metrics/tallyBuilder.js';
import { stopCodeOf } from '../kernel/stopCodes.js';
import { binomialCdf } from '../metrics/binomialCdf.js';
import { rankIndex } from '../metrics/costQuantiles.js';
import { picoToUsd } from '../money.js';
import type { PopulationRun } from '../population/run.js';
import { Rng, STREAM } from '../synthetic/random.js';
import { fnv1a } from '../textHash.js';
import { canonicalJson } from '../brakes/fingerprint.js';
import { pickEntry } from '../scenario/run.js';
import type { Scenario } from '../scenario/load.js';
import type { PopulationEntry } from '../scenario/schema.js';

/**
 * Resamples drawn for the bands of the figures that are sums and shares (a mean, a rate): each band is read at
 * FIGURE_LEVEL, 99.375%, so ~3 resamples lie beyond each end; such a band varies by ~5% with the seed (measured
 * on 200 runs of production-mix, 30 seeds). The quantiles' bands (p50, p95 per run: a lumpy resampled
 * distribution, whose 3 extreme resamples moved the p95's band by 20%) are not drawn: read off the exact
 * bootstrap distribution (exactQuantileHalfWidth).
 */
export const NOISE_RESAMPLES = 1000;
/** The figures whose band is read off the exact bootstrap distribution (exactQuantileHalfWidth), by their quantile: no resample is drawn for them. */
export const EXACT_BAND_FIGURES: readonly (readonly [string, number])[] = [
  ['costPerRunUsd.p50', 0.5],
  ['costPerRunUsd.p95', 0.95],
];
/** The confidence level of the band. */
export const NOISE_LEVEL = 0.95;

/** Half of each figure's bootstrap interval at FIGURE_LEVEL, in its units (USD, a share); null where the figure is none in a resample. */
export interface FigureNoise {
  completionRate: number;
  falseStopRate: number | null;
  wastedShare: number;
  costUsd: number;
  costPerRunUsd: { mean: number; p50: number; p95: number };
  costPerCompletedUsd: number | null;
}

/** The figures a band is drawn for, as baseline.ts names them. */
const NOISE_FIGURES: readonly [string, (m: PopulationMetrics) => number | null][] = [
  ['completionRate', (m) => m.completionRate],
  ['falseStopRate', (m) => m.falseStopRate],
  ['wastedShare', (m) => m.wastedShare],
  ['costUsd', (m) => m.costUsd],
  ['costPerRunUsd.mean', (m) => m.costPerRunUsd.mean],
  ['costPerRunUsd.p50', (m) => m.costPerRunUsd.p50],
  ['costPerRunUsd.p95', (m) => m.costPerRunUsd.p95],
  ['costPerCompletedUsd', (m) => m.costPerCompletedUsd],
];

/**
 * Each figure's level: a harmless change (another seed, run count, entry order) is judged on every figure
 * of a scenario at once, so each band is drawn at 1 − 5%/k (Bonferroni) for the scenario's k figures
 * together to stay within their bands 95% of the time. At 95% each, 14 of 60 re-seeded checks of a support
 * bot failed on some figure (test/check/gateSignal.test.ts).
 */
export const FIGURE_LEVEL = 1 - (1 - NOISE_LEVEL) / NOISE_FIGURES.length;

/** Half the width of the values' FIGURE_LEVEL percentile interval (nearest rank); null when a value is none. */
function halfWidth(values: (number | null)[]): number | null {
  if (values.some((v) => v === null)) return null;
  const sorted = (values as number[]).sort((a, b) => a - b);
  const low = nearestRank(sorted, (1 - FIGURE_LEVEL) / 2) ?? 0;
  const high = nearestRank(sorted, 1 - (1 - FIGURE_LEVEL) / 2) ?? 0;
  return (high - low) / 2;
}

/** A run and its baseline as TallyBuilder.add codes them (stops as codes), for addCoded: made once per run, not per resample. */
function coded({ run, baseline, truth }: PopulationRun): [CodedRun, CodedBaseline, boolean | undefined] {
  return [
    { stop: stopCodeOf(run.stopReason), steps: run.steps, costPico: run.costPico, inputTokens: run.inputTokens, cachedInputTokens: run.cachedInputTokens, outputTokens: run.outputTokens, overshootPico: run.overshootPico, byPredictiveBound: run.byPredictiveBound === true },
    { stop: stopCodeOf(baseline.stopReason), steps: baseline.steps, costPico: baseline.costPico, truth: baseline.truth },
    // A closed-loop run's own ground truth, as populationTally passes it (RunPair.truth).
    truth?.taskDone,
  ];
}

/** The quantiles a resample's figures are made with: none selected (their bands are exact). */
const UNSELECTED = { p50: 0, p95: 0, max: 0 };

/**
 * The noise of the figures of `runs` (synthetic: those with ground truth, checkScenario's count), drawn from
 * `seed`; undefined when there is no synthetic run (every figure is exact).
 */
export function figureNoise(runs: readonly PopulationRun[], seed: number): FigureNoise | undefined {
  const recorded = runs.filter((run) => run.truth === undefined);
  const synthetic = runs.filter((run) => run.truth !== undefined);
  const n = synthetic.length;
  if (n === 0) return undefined;
  const values: (number | null)[][] = NOISE_FIGURES.map(() => []);
  const [kept, drawn] = [recorded.map(coded), synthetic.map(coded)];
  for (let b = 0; b < NOISE_RESAMPLES; b++) {
    const rng = Rng.stream(seed, b, STREAM.checkBootstrap);
    // populationMetrics of the recorded runs and n synthetic ones drawn, the runs coded once (not per resample).
    const builder = new TallyBuilder();
    builder.reserve(recorded.length + n);
    for (const [run, baseline, ownDone] of kept) builder.addCoded(run, baseline, ownDone);
    for (let k = 0; k < n; k++) {
      const [run, baseline, ownDone] = drawn[rng.below(n)]!;
      builder.addCoded(run, baseline, ownDone);
    }
    // No quantile selected: the bands of p50 and p95 are exact (EXACT_BAND_FIGURES, below), the drawn ones unused.
    const metrics = tallyMetrics(builder.finish(), UNSELECTED);
    NOISE_FIGURES.forEach(([, value], i) => values[i]!.push(value(metrics)));
  }
  const bands = values.map(halfWidth);
  // The quantiles' bands exact (no resample's luck in them), in place of the drawn ones.
  const costsOf = (of: readonly PopulationRun[]) => of.map((run) => run.run.costPico);
  for (const [name, p] of EXACT_BAND_FIGURES) bands[NOISE_FIGURES.findIndex(([figure]) => figure === name)] = exactQuantileHalfWidth(costsOf(recorded), costsOf(synthetic), p);
  // Money to the picodollar, shares to the billionth (as wastedShare is counted): the baseline holds short numbers.
  const [completionRate, falseStopRate, wastedShare, costUsd, mean, p50, p95, costPerCompletedUsd] = bands.map((v, i) => (v === null ? null : Number(v.toFixed(NOISE_FIGURES[i]![0].includes('Usd') ? 12 : 9))));
  return {
    completionRate: completionRate ?? 0,
    falseStopRate: falseStopRate ?? null,
    wastedShare: wastedShare ?? 0,
    costUsd: costUsd ?? 0,
    costPerRunUsd: { mean: mean ?? 0, p50: p50 ?? 0, p95: p95 ?? 0 },
    costPerCompletedUsd: costPerCompletedUsd ?? null,
  };
}

/**
 * Half the FIGURE_LEVEL percentile interval, in USD, of the nearest-rank `p`-quantile of the runs' costs
 * (picodollars) were the synthetic runs resampled without end, the recorded ones kept: the distribution a
 * bootstrap draws, exact. The resampled quantile, rank r of the N costs, is at most x when the recorded
 * costs at most x, R(x), and the resampled synthetic ones, B ~ Binomial(n, S(x)/n) with S(x) the synthetic
 * costs at most x, number r or more: P = P(B ≥ r − R(x)), rising with x; each end is the least cost
 * where P reaches it (found by bisection over the costs, O(n log N)).
 */
export function exactQuantileHalfWidth(recordedPico: readonly number[], syntheticPico: readonly number[], p: number): number {
  const n = syntheticPico.length;
  const recorded = [...recordedPico].sort((a, b) => a - b);
  const synthetic = [...syntheticPico].sort((a, b) => a - b);
  const all = [...recorded, ...synthetic].sort((a, b) => a - b);
  const rank = rankIndex(all.length, p) + 1;
  const atMost = (sorted: readonly number[], x: number) => upperBound(sorted, x);
  const cdf = (x: number) => 1 - binomialCdf(rank - atMost(recorded, x) - 1, n, atMost(synthetic, x) / n);
  const least = (level: number) => {
    let lo = 0;
    let hi = all.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cdf(all[mid]!) >= level) hi = mid;
      else lo = mid + 1;
    }
    return all[lo]!;
  };
  const tail = (1 - FIGURE_LEVEL) / 2;
  return picoToUsd(least(1 - tail) - least(tail)) / 2;
}

/** How many of the ascending values are at most x. */
function upperBound(sorted: readonly number[], x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The band of `figure` in `noise` (baseline.ts's names); undefined for a figure with none (the largest cost). */
export function noiseOf(noise: FigureNoise, figure: string): number | null | undefined {
  switch (figure) {
    case 'completionRate':
    case 'falseStopRate':
    case 'wastedShare':
    case 'costUsd':
    case 'costPerCompletedUsd':
      return noise[figure];
    case 'costPerRunUsd.mean':
    case 'costPerRunUsd.p50':
    case 'costPerRunUsd.p95':
      return noise.costPerRunUsd[figure.slice('costPerRunUsd.'.length) as 'mean' | 'p50' | 'p95'];
    default:
      return undefined;
  }
}

/** FNV-1a over a text, two 32-bit lanes of different offset bases: a short stable key. */
export function textKey(text: string): string {
  const lane = (offsetBasis?: number) => fnv1a(text, offsetBasis).toString(16).padStart(8, '0');
  return lane() + lane(0x5bd1e995);
}

/** What a population entry's runs are: its content without its name (a label) and weight (how often it is drawn, not what is drawn). */
export function entryContent(entry: PopulationEntry): string {
  const { name: _name, weight: _weight, ...made } = entry;
  return canonicalJson(made);
}

/** Sample keys of this form key each run on what its entry is (sampleKey); those without it, written before, on its name. */
const CONTENT_KEY = 'entries:';

/** Whether a sample key keys each run on its entry's content (sampleKey), not (written before) on its name. */
export const keysOnContent = (key: string): boolean => key.startsWith(CONTENT_KEY);

/**
 * Which synthetic agents the runs are: the seed, and what the population entry each run drew is (its content,
 * not its name or place: two unnamed entries of one behaviour swapped are other agents), in order. Two checks
 * of one key ran the same agents on the same random draws (a brake, a model, a price changed): their figures
 * differ by the change alone, not by chance, and are judged without a band. Entries in another order, another
 * seed or run count, an entry's content changed: other agents. Undefined without synthetic runs.
 */
export function sampleKey(runs: readonly PopulationRun[], seed: number, scenario: Pick<Scenario, 'population'>): string | undefined {
  const picks = runs.flatMap((run) => (run.truth === undefined ? [] : [entryContent(pickEntry(scenario as Scenario, seed, run.truth.run))]));
  return picks.length === 0 ? undefined : `${CONTENT_KEY}${picks.length}:${textKey(`${seed}\n${picks.map(textKey).join('\n')}`)}`;
}

/** The key baselines held before sampleKey keyed entries on their content: each run's entry by its name, else its behaviour. */
function namedSampleKey(runs: readonly PopulationRun[], seed: number): string | undefined {
  const picks = runs.flatMap((run) => (run.truth === undefined ? [] : [run.truth.name ?? run.truth.behaviour]));
  return picks.length === 0 ? undefined : `${picks.length}:${textKey(`${seed}\n${picks.join('\n')}`)}`;
}

// The runs of each check, kept out of its fields (a check is compared and serialized whole): its noise is drawn when asked, once.
const runsOf = new WeakMap<object, { runs: readonly PopulationRun[]; seed: number; scenario?: Pick<Scenario, 'population'>; noise?: FigureNoise | null }>();

/** Keeps `check`'s runs (and the scenario whose population drew its synthetic ones), for scenarioNoise and scenarioSample. */
export function keepRuns(check: object, runs: readonly PopulationRun[], seed: number, scenario?: Pick<Scenario, 'population'>): void {
  runsOf.set(check, { runs, seed, ...(scenario === undefined ? {} : { scenario }) });
}

/**
 * The sample key of a checked scenario's synthetic runs (sampleKey; undefined: none, or a check made elsewhere);
 * `like`: a key a baseline holds, matched in its form (one written before keys on names).
 */
export function scenarioSample(check: object, like?: string): string | undefined {
  const kept = runsOf.get(check);
  if (kept === undefined) return undefined;
  if ((like !== undefined && !keysOnContent(like)) || kept.scenario?.population === undefined) return namedSampleKey(kept.runs, kept.seed);
  return sampleKey(kept.runs, kept.seed, kept.scenario);
}

/** The noise of a checked scenario's figures (undefined: no synthetic run, or a check made elsewhere). */
export function scenarioNoise(check: object): FigureNoise | undefined {
  const kept = runsOf.get(check);
  if (kept === undefined) return undefined;
  if (kept.noise === undefined) kept.noise = figureNoise(kept.runs, kept.seed) ?? null;
  return kept.noise ?? undefined;
}

/** The runs of a checked scenario (recorded and synthetic, as its figures count them); undefined for a check made elsewhere. */
export function scenarioRuns(check: object): readonly PopulationRun[] | undefined {
  return runsOf.get(check)?.runs;
}

/**
 * `project`'s simulated days: the spend of `runsPerDay` runs drawn with replacement from the per-run
 * costs, exact in picodollars however large it grows. Two ways to draw a day, of the same law:
 * - run by run: one index drawn per run (few runs a day for the distinct costs);
 * - as counts: how many of the day's runs fall on each distinct cost, a multinomial drawn as a chain of
 *   binomials (the first cost's count out of N at its share, the next one's out of what is left at its
 *   share of what is left, …; src/metrics/binomial.ts), the day then Σ count × cost. A day costs
 *   O(distinct costs) instead of O(runs).
 * Which way depends only on runsPerDay and the costs, so the same inputs and seed give the same figures;
 * the two give the same distribution of days, not the same draws. Each period first resamples its
 * population from the runs (PeriodDraws): the days carry the sample's own uncertainty; runs some of which
 * stand for fewer (a fitted profile's) part by part, each at the runs it stands for (StratifiedPeriodDraws).
 * Pure: no node:*, no clock, no Math.random.
 */
import { binomialDraw } from '../metrics/binomial.js';
import { maxOf } from '../metrics/extremes.js';
import type { Rng } from '../synthetic/random.js';
import type { CostStratum } from './projectConfidence.js';

/** One simulated day's spend in picodollars, drawn from `rng`. */
export type DaySpender = (rng: Rng) => bigint;

/**
 * Runs a day per distinct cost from which a day is drawn as counts: a binomial variate costs about as
 * much as ~25 indices drawn and added (measured on this project's machines: ~100 ns against ~4 ns; not critical:
 * either way is exact).
 */
export const COUNTS_FROM_RUNS_PER_COST = 32;

/** The distinct costs, ascending, and how many runs cost each. */
export interface CostCounts {
  costsPico: number[];
  runs: number[];
}

export function costCounts(costsPico: ArrayLike<number>): CostCounts {
  const sorted = Float64Array.from(costsPico).sort();
  const counts: CostCounts = { costsPico: [], runs: [] };
  for (let i = 0; i < sorted.length; i++) {
    if (i > 0 && sorted[i] === sorted[i - 1]) counts.runs[counts.runs.length - 1]! += 1;
    else {
      counts.costsPico.push(sorted[i]!);
      counts.runs.push(1);
    }
  }
  return counts;
}

/** How `project` draws its days from these costs: as counts when the day has many runs for each distinct cost. */
export function daySpender(costsPico: readonly number[], runsPerDay: number): DaySpender {
  const counts = costCounts(costsPico);
  return runsPerDay >= COUNTS_FROM_RUNS_PER_COST * counts.costsPico.length ? spendByCounts(counts, runsPerDay) : spendRunByRun(costsPico, runsPerDay);
}

/** The runs' costs, ascending, each distinct cost its count of times. */
function expanded(counts: CostCounts): Float64Array {
  const costsPico = new Float64Array(counts.runs.reduce((sum, r) => sum + r, 0));
  let at = 0;
  counts.costsPico.forEach((cost, i) => {
    costsPico.fill(cost, at, (at += counts.runs[i]!));
  });
  return costsPico;
}

/**
 * A period's own population: the runs resampled with replacement (a bootstrap draw, as multinomial counts
 * over the distinct costs, costs drawn none of left out). A period's days are drawn from it, so the
 * spread of days carries how little a sample of n runs says of the population it came from, not only
 * the day-to-day spread of a population known exactly.
 */
export function resampledCounts(counts: CostCounts, rng: Rng): CostCounts {
  const n = counts.runs.reduce((sum, r) => sum + r, 0);
  const drawn: CostCounts = { costsPico: [], runs: [] };
  let left = n;
  let runsLeft = n;
  for (let i = 0; i < counts.costsPico.length && left > 0; i++) {
    const count = binomialDraw(left, counts.runs[i]! / runsLeft, rng);
    left -= count;
    runsLeft -= counts.runs[i]!;
    if (count === 0) continue;
    drawn.costsPico.push(counts.costsPico[i]!);
    drawn.runs.push(count);
  }
  return drawn;
}

/**
 * Each simulated period's day spender: its population resampled from the runs (resampledCounts), its days
 * drawn from that. Days by counts (few distinct costs for the runs a day) resample as counts, O(distinct
 * costs); days run by run resample as n costs drawn by index into one reused array, O(n) cheap draws
 * (a chain of binomials over 100,000 distinct costs took ~30 ms a period).
 */
export class PeriodDraws {
  private readonly counts: CostCounts;
  private readonly ascending: Float64Array;
  private readonly sample: Float64Array;
  private readonly byCounts: boolean;
  constructor(
    costsPico: readonly number[],
    private readonly runsPerDay: number,
  ) {
    this.counts = costCounts(costsPico);
    this.byCounts = runsPerDay >= COUNTS_FROM_RUNS_PER_COST * this.counts.costsPico.length;
    this.ascending = this.byCounts ? new Float64Array(0) : expanded(this.counts);
    this.sample = new Float64Array(this.byCounts ? 0 : this.ascending.length);
  }

  /** The next period's day spender, its resample drawn from `rng` (run by run: valid until the next call). */
  spender(rng: Rng): DaySpender {
    // A resample has no more distinct costs than the runs: its days are drawn by counts too.
    if (this.byCounts) return spendByCounts(resampledCounts(this.counts, rng), this.runsPerDay);
    const n = this.ascending.length;
    for (let k = 0; k < n; k++) this.sample[k] = this.ascending[rng.below(n)]!;
    return spendRunByRun(this.sample, this.runsPerDay);
  }
}

/** The longest stretch of runs whose costs (each at most `largestPico`) add up as a Number below 2^53 picodollars. */
function safeStretch(largestPico: number): number {
  return Math.max(1, Math.floor(Number.MAX_SAFE_INTEGER / Math.max(1, largestPico)));
}

/**
 * Run by run: added as a Number in stretches short enough that no partial sum can pass 2^53 picodollars
 * (a float sum past it drops units), each stretch carried into a BigInt.
 */
export function spendRunByRun(costsPico: ArrayLike<number>, runsPerDay: number): DaySpender {
  const stretch = safeStretch(maxOf(costsPico));
  return (rng) => runsSpend(costsPico, { runs: runsPerDay, stretch }, rng);
}

/** `runs` runs drawn by index from `costsPico` (none above the largest `stretch` was taken of), added exactly. */
function runsSpend(costsPico: ArrayLike<number>, day: { runs: number; stretch: number }, rng: Rng): bigint {
  const n = costsPico.length;
  let total = 0n;
  for (let from = 0; from < day.runs; from += day.stretch) {
    const to = Math.min(day.runs, from + day.stretch);
    let spent = 0;
    for (let k = from; k < to; k++) spent += costsPico[rng.below(n)]!;
    total += BigInt(spent);
  }
  return total;
}

/** As counts: a binomial per distinct cost (the last takes what is left), each count × cost added exactly. */
export function spendByCounts(counts: CostCounts, runsPerDay: number): DaySpender {
  const allRuns = counts.runs.reduce((sum, r) => sum + r, 0);
  return (rng) => countsSpend(counts, { allRuns, runs: runsPerDay }, rng);
}

/** `runs` runs drawn as counts over `counts` (`allRuns` its runs in all), added exactly. */
function countsSpend(counts: CostCounts, day: { allRuns: number; runs: number }, rng: Rng): bigint {
  const { costsPico, runs } = counts;
  let left = day.runs;
  let runsLeft = day.allRuns;
  let spent = 0;
  let carried = 0n;
  for (let i = 0; i < costsPico.length && left > 0; i++) {
    const count = binomialDraw(left, runs[i]! / runsLeft, rng);
    left -= count;
    runsLeft -= runs[i]!;
    // count × cost is exact as a Number when it is a safe integer (a product past 2^53 rounds to past it).
    const term = count * costsPico[i]!;
    if (term <= Number.MAX_SAFE_INTEGER - spent) spent += term;
    else if (term <= Number.MAX_SAFE_INTEGER) {
      carried += BigInt(spent);
      spent = term;
    } else carried += BigInt(count) * BigInt(costsPico[i]!);
  }
  return carried + BigInt(spent);
}

/**
 * A part of a stratified period (StratifiedPeriodDraws): its costs ascending, its runs (its weight in the
 * population) and, each period, `sampleRuns` of them drawn with replacement; its share of a day is drawn
 * from that resample, as counts when it has many runs a day for the distinct costs a resample can hold.
 */
class StratumDraws {
  readonly runs: number;
  private readonly sample: Float64Array;
  private readonly byCounts: boolean;
  private readonly stretch: number;
  private counts: CostCounts = { costsPico: [], runs: [] };
  constructor(
    private readonly ascending: readonly number[],
    part: { sampleRuns: number; runsPerDay: number },
  ) {
    this.runs = ascending.length;
    this.sample = new Float64Array(part.sampleRuns);
    const distinct = Math.min(part.sampleRuns, costCounts(ascending).costsPico.length);
    this.byCounts = part.runsPerDay >= COUNTS_FROM_RUNS_PER_COST * distinct;
    this.stretch = safeStretch(maxOf(ascending));
  }

  /** The period's resample: `sampleRuns` costs drawn by index (as counts too, when its days are). */
  resample(rng: Rng): void {
    const n = this.ascending.length;
    for (let k = 0; k < this.sample.length; k++) this.sample[k] = this.ascending[rng.below(n)]!;
    if (this.byCounts) this.counts = costCounts(this.sample);
  }

  /** `runs` of a day's runs drawn from the resample, added exactly. */
  spend(runs: number, rng: Rng): bigint {
    return this.byCounts ? countsSpend(this.counts, { allRuns: this.sample.length, runs }, rng) : runsSpend(this.sample, { runs, stretch: this.stretch }, rng);
  }
}

/**
 * Each period of runs some of which stand for fewer than they are (projectConfidence.ts strata: a fitted
 * profile's synthetic runs stand for the recorded runs it was fitted to), as the per-run interval resamples
 * them: every part resampled at the runs it stands for (`sampleRuns` drawn from its own costs), then
 * weighted by its runs. A day's runs are split over the parts by a chain of binomials at their shares of
 * the runs, each part's drawn from its resample. So the spread of days and periods carries the uncertainty
 * of the runs stood for, and more synthetic runs (--runs) do not narrow it. Exact as the days above are.
 */
export class StratifiedPeriodDraws {
  private readonly strata: StratumDraws[];
  private readonly allRuns: number;
  constructor(
    strata: readonly CostStratum[],
    private readonly runsPerDay: number,
  ) {
    this.allRuns = strata.reduce((sum, s) => sum + s.costsPico.length, 0);
    this.strata = strata.map((s) => new StratumDraws(s.costsPico, { sampleRuns: s.sampleRuns, runsPerDay: (runsPerDay * s.costsPico.length) / Math.max(1, this.allRuns) }));
  }

  /** The next period's day spender, every part resampled from `rng` (valid until the next call). */
  spender(rng: Rng): DaySpender {
    for (const stratum of this.strata) stratum.resample(rng);
    const last = this.strata.length - 1;
    return (dayRng) => {
      let left = this.runsPerDay;
      let runsLeft = this.allRuns;
      let total = 0n;
      for (let i = 0; i <= last && left > 0; i++) {
        const stratum = this.strata[i]!;
        const count = i === last ? left : binomialDraw(left, stratum.runs / runsLeft, dayRng);
        left -= count;
        runsLeft -= stratum.runs;
        if (count > 0) total += stratum.spend(count, dayRng);
      }
      return total;
    };
  }
}

/** Most simulated days a projection keeps (days × trials: each trial keeps its days' spend for the quantiles): 10,000,000 took ~680 MB. */
export const MAX_SIMULATED_DAYS = 2_000_000;

/** Why `days` × `trials` is too many simulated days to keep, or undefined when within MAX_SIMULATED_DAYS. */
export function tooManySimulatedDays(days: number, trials: number): string | undefined {
  if (days * trials <= MAX_SIMULATED_DAYS) return undefined;
  return `${days} days × ${trials} trials is ${(days * trials).toLocaleString('en-US')} simulated days, more than ${MAX_SIMULATED_DAYS.toLocaleString('en-US')} (each is kept for the quantiles)`;
}

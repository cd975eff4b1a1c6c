/**
 * Each figure of one scenario against its baseline's (baseline.ts). Rates drift by points, money by its
 * share of the baseline. A figure of a synthetic sample drifts only when its change passes the tolerance
 * AND the band resampling explains at 95% (noise.ts: the difference of two samples, sqrt(now² + then²));
 * one past the tolerance within the band is `noise`, no failure. Recorded runs replay exactly: a scenario of
 * them alone has no band, and the tolerance alone judges it; so has a synthetic sample of the very agents the
 * baseline ran (its seed and the entry each run drew: a brake or a model changed, common random numbers). The largest cost of a run is not held where
 * there are synthetic runs (`not held`: no stable figure of a sample), and the total spend is not compared
 * across different run counts (`not compared`: the mean per run is). A rate is past the tolerance in points, or
 * by its relative change with a few runs changed (rareRates.ts); a band the baseline stored wider than its runs
 * could give is not used (noiseTrust.ts). Under a price change every figure is judged at the baseline's prices,
 * but a brake outcome only the new prices moved past the tolerance fails as `budget binds` (budgetBinds.ts).
 */
import { usdToPico } from '../money.js';
import type { PopulationMetrics } from '../metrics/population.js';
import { figuresOf, type BaselineFigures, type BaselineScenario } from './baselineFile.js';
import type { DriftRow, DriftStatus } from './baseline.js';
import { noiseOf, scenarioNoise, scenarioSample } from './noise.js';
import { rareRateMoved, rateRuns, type RateRuns } from './rareRates.js';
import { distrusted, type DistrustedBand } from './noiseTrust.js';
import type { ScenarioCheck } from './run.js';
import { budgetBinds, type BudgetBinds } from './budgetBinds.js';
import type { PriceRowChange } from './modelPrices.js';

type FigureKind = 'rate' | 'usd';

/**
 * The figures of what the brakes did to the runs (which finish, which a brake stopped that would have): under a
 * price change they are judged as measured, at the new prices, for a budget that binds differently under them
 * changes what the deployed loop does (budgetBinds.ts). The others are money (or a share of it): judged at the
 * baseline's prices, what only the new prices moved is a `price change`.
 */
export const BRAKE_OUTCOMES: ReadonlySet<string> = new Set(['completionRate', 'falseStopRate']);
export const FIGURES: readonly [string, FigureKind, (f: BaselineFigures) => number | null][] = [
  ['completionRate', 'rate', (f) => f.completionRate],
  ['falseStopRate', 'rate', (f) => f.falseStopRate],
  ['wastedShare', 'rate', (f) => f.wastedShare],
  ['costUsd', 'usd', (f) => f.costUsd],
  ['costPerRunUsd.mean', 'usd', (f) => f.costPerRunUsd.mean],
  ['costPerRunUsd.p50', 'usd', (f) => f.costPerRunUsd.p50],
  ['costPerRunUsd.p95', 'usd', (f) => f.costPerRunUsd.p95],
  ['costPerRunUsd.max', 'usd', (f) => f.costPerRunUsd.max],
  ['costPerCompletedUsd', 'usd', (f) => f.costPerCompletedUsd],
];

/** Whether `measured` moved from `baseline` by more than `allowed` (a share of the baseline for money, points for a rate). */
function movedBy(kind: FigureKind, values: { was: number | null; is: number | null }, allowed: { share: number; usd?: number }): boolean {
  const { was, is } = values;
  if (was === null || is === null) return was !== is;
  if (kind === 'usd') {
    // Money in whole picodollars: at tolerance 0 a change of one picodollar is drift, in every figure alike.
    const change = Math.abs(usdToPico(is) - usdToPico(was));
    return change > (allowed.usd === undefined ? allowed.share * Math.abs(usdToPico(was)) : Math.round(allowed.usd * 1e12));
  }
  // A tiny epsilon keeps a float's last bit from counting as drift at tolerance 0.
  return Math.abs(is - was) > allowed.share + 1e-12;
}

/** `relativeChange`: (is − was) / was, null when either is none or was is 0 and is is not. */
export function relativeChange(was: number | null, is: number | null): number | null {
  if (was === null || is === null) return null;
  if (was === 0) return is === 0 ? 0 : null;
  return (is - was) / Math.abs(was);
}

/** How a scenario's figures are judged: its tolerance, and what the runs were. */
interface Judging {
  tolerance: number;
  /** Synthetic runs now or in the baseline: the figures are a sample's. */
  sampled: boolean;
  /** The run counts differ: totals are not compared. */
  runsDiffer: boolean;
  /** Per figure, the band of the difference resampling explains (undefined: none known; null: a value is none). */
  band: (figure: string) => number | null | undefined;
  /** Per rate, its count on both sides in runs (rareRates.ts; undefined: not a rate, or not told): of the figure judged. */
  rateRuns: (figure: string) => RateRuns | undefined;
  /** Under a price change, the same of the figure measured at the new prices (a brake outcome is judged there too). */
  rateRunsMeasured: (figure: string) => RateRuns | undefined;
}

function statusOf(figure: string, kind: FigureKind, values: { was: number | null; is: number | null; atBaseline?: number | null }, judging: Judging): DriftStatus {
  if (figure === 'costUsd' && judging.runsDiffer) return 'not compared';
  const judged = 'atBaseline' in values ? (values.atBaseline ?? null) : values.is;
  // A rate: in points, or by its relative change with a few runs changed (rareRates.ts).
  const pastTolerance = (is: number | null, runs = judging.rateRuns(figure)) => movedBy(kind, { was: values.was, is }, { share: judging.tolerance }) || (kind === 'rate' && rareRateMoved({ was: values.was, is }, runs, judging.tolerance));
  if (figure === 'costPerRunUsd.max' && judging.sampled) return pastTolerance(judged) ? 'not held' : 'ok';
  const beyondNoise = (is: number | null) => {
    const band = judging.band(figure);
    return band === undefined || band === null || movedBy(kind, { was: values.was, is }, { share: band, usd: band });
  };
  if (pastTolerance(judged)) return beyondNoise(judged) ? 'drift' : 'noise';
  if (!('atBaseline' in values) || !pastTolerance(values.is, judging.rateRunsMeasured(figure))) return 'ok';
  // Only the new prices moved it: money is no brake regression; a brake outcome is — a budget binds differently (budgetBinds.ts).
  if (!BRAKE_OUTCOMES.has(figure)) return 'price change';
  return beyondNoise(values.is) ? 'budget binds' : 'noise';
}

/**
 * The band of the difference of a figure now and in the baseline, sqrt(now² + then²); the baseline's, when it stored
 * none or one wider than its runs could give (`distrust` is told of it: noiseTrust.ts), the one now scaled to its runs.
 */
function bandOf(check: ScenarioCheck, before: BaselineScenario, distrust: (figure: string, band: DistrustedBand) => void): Judging['band'] {
  const noise = scenarioNoise(check);
  const nowRuns = check.syntheticRuns;
  const thenRuns = before.syntheticRuns ?? before.figures.runs;
  return (figure) => {
    // Now: the runs' own band; none without synthetic runs; unknown for a check whose runs were not kept.
    const now = noise !== undefined ? noiseOf(noise, figure) : nowRuns === 0 ? 0 : undefined;
    const stored = before.noise === undefined ? undefined : noiseOf(before.noise, figure);
    const untrusted = distrusted(figure, stored, before);
    if (untrusted !== undefined) distrust(figure, untrusted);
    // Then: the band the baseline stored; for one written before baselines stored it (or past what its runs give), the band now scaled to its runs.
    const then = before.noise !== undefined && untrusted === undefined ? stored : thenRuns === 0 ? 0 : typeof now === 'number' && nowRuns > 0 ? now * Math.sqrt(nowRuns / thenRuns) : undefined;
    if (now === undefined || then === undefined) return undefined;
    return now === null || then === null ? null : Math.hypot(now, then);
  };
}

/** Whether `check` ran the very synthetic agents the baseline scenario ran (noise.ts sampleKey). */
export function sameAgents(check: ScenarioCheck, before: BaselineScenario): boolean {
  return before.sample !== undefined && before.sample === scenarioSample(check, before.sample);
}

/**
 * Every figure of `check` against the baseline scenario's; under a price change judged at the baseline's prices
 * (`atBaselinePrices`); with `paired` (the baseline's agents run again on this check's draws: pairedAgents.ts),
 * judged against those, by the tolerance alone.
 */
export function figureRows(check: ScenarioCheck, before: BaselineScenario, args: { tolerance: number; atBaselinePrices?: ScenarioCheck; paired?: PopulationMetrics }): DriftRow[] {
  const figures = figuresOf(check.metrics);
  const judgedCheck = args.atBaselinePrices ?? check;
  const then = args.atBaselinePrices === undefined ? undefined : figuresOf(args.atBaselinePrices.metrics);
  const reference = args.paired === undefined ? undefined : figuresOf(args.paired);
  // The same synthetic agents as the baseline's (noise.ts sampleKey), or its agents on these draws: what moved, moved with the change; no band.
  const sampled = reference === undefined && !sameAgents(judgedCheck, before) && (check.syntheticRuns > 0 || (before.syntheticRuns ?? (before.seed === undefined ? 0 : 1)) > 0);
  const untrusted = new Map<string, DistrustedBand>();
  const band = sampled ? bandOf(judgedCheck, before, (figure, b) => untrusted.set(figure, b)) : () => undefined;
  const base = judgedCheck.baselineCompleted;
  const counts = { now: judgedCheck.metrics, against: args.paired === undefined ? { figures: before.figures } : { metrics: args.paired }, ...(base === undefined ? {} : { baselineCompleted: base }) };
  const measuredCounts = { ...counts, now: check.metrics, ...(check.baselineCompleted === undefined ? {} : { baselineCompleted: check.baselineCompleted }) };
  const runsDiffer = (reference?.runs ?? before.figures.runs) !== judgedCheck.metrics.runs;
  const judging: Judging = { tolerance: args.tolerance, sampled, runsDiffer, band, rateRuns: (figure) => rateRuns(figure, counts), rateRunsMeasured: (figure) => rateRuns(figure, measuredCounts) };
  return FIGURES.map(([figure, kind, value]) => {
    const values = { was: value(reference ?? before.figures), is: value(figures), ...(then === undefined ? {} : { atBaseline: value(then) }) };
    // Each change from what the status judged it against: the baseline's agents on these draws when paired, else the stored figure.
    const atBaselinePrices = then === undefined ? {} : { atBaselinePrices: values.atBaseline ?? null, relativeChangeAtBaselinePrices: relativeChange(values.was, values.atBaseline ?? null) };
    const paired = reference === undefined ? {} : { paired: values.was, relativeChangeFromStored: relativeChange(value(before.figures), values.is) };
    const noise = band(figure);
    const from = reference === undefined ? ('baseline' as const) : ('paired' as const);
    const change = { relativeChange: relativeChange(values.was, values.is), relativeChangeFrom: from, ...atBaselinePrices, ...paired, ...(noise === undefined ? {} : { noise }) };
    const status = statusOf(figure, kind, values, judging);
    const distrustedBand = untrusted.get(figure);
    return { scenario: check.source, figure, baseline: value(before.figures), measured: values.is, ...change, ...rateRunsField(kind, figure, judging, status), ...(distrustedBand === undefined ? {} : { noiseDistrusted: distrustedBand }), status };
  });
}

/** A rate's count on both sides, in runs (what its relative rule counts: rareRates.ts; a budget that binds: at the new prices); nothing for money. */
function rateRunsField(kind: FigureKind, figure: string, judging: Judging, status: DriftStatus): { rateRuns?: RateRuns } {
  const runs = kind !== 'rate' ? undefined : status === 'budget binds' ? judging.rateRunsMeasured(figure) : judging.rateRuns(figure);
  return runs === undefined ? {} : { rateRuns: runs };
}

/** The drift's field of the scenarios whose budget binds differently under a price change (budgetBinds.ts). */
export interface BudgetBindsDrift {
  /** Under a price change, the scenarios where a brake outcome only the new prices moved past the tolerance: each a failure. Absent when none is. */
  budgetBinds?: BudgetBinds[];
}

/** That field of these checks (`priceChange.atBaselinePrices`: the same checks under the baseline's prices, in their order). */
export function budgetBindsField(checks: readonly ScenarioCheck[], args: { rows: readonly DriftRow[]; priceChange?: { models: PriceRowChange[]; atBaselinePrices: readonly ScenarioCheck[] } }): BudgetBindsDrift {
  const { priceChange } = args;
  if (priceChange === undefined) return {};
  const binds = checks.flatMap((check, i) => {
    const found = budgetBinds(check, { rows: args.rows, atBaselinePrices: priceChange.atBaselinePrices[i]!, changes: priceChange.models });
    return found === undefined ? [] : [found];
  });
  return binds.length === 0 ? {} : { budgetBinds: binds };
}

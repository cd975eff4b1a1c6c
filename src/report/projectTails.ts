/**
 * What `project`'s percentiles are drawn from, said where it could mislead. A nearest-rank p99 of fewer than
 * 100 values is the largest of them (a p95 of fewer than 20 too): the 38 mini-swe-agent runs' p99 per run is
 * their dearest run, not a tail measured. And a period's p95 below the top of the mean's interval (times the
 * runs in the period) is no contradiction: the interval's top is a 97.5% point widened for a small sample, a
 * period's p95 the 95th percentile of the simulated periods. Pure.
 */
import { rankIndex } from '../metrics/costQuantiles.js';
import { meanPico, usdToPico } from '../money.js';
import { counted } from '../plural.js';
import { formatUsd, formatUsdNumber } from './money.js';
import type { Quantiles } from '../population/project.js';
import type { RunCostConfidence } from '../population/projectConfidence.js';

/** How many of n values lie above their nearest-rank q-quantile (the value at rank ⌈q·n⌉: costQuantiles.ts rankIndex). */
function valuesAbove(n: number, q: number): number {
  return n - 1 - rankIndex(n, q);
}

/** The fewest values of which one lies above the nearest-rank q-quantile (20 for p95, 100 for p99), by the same rank rule. */
export function valuesForOneAbove(q: number): number {
  let n = 1;
  while (valuesAbove(n, q) < 1) n += 1;
  return n;
}

/** A row of the spend table and the values its percentiles are drawn from. */
interface TailRow {
  row: string;
  values: number;
  /** What a value is (`run`, `simulated period`). */
  unit: string;
}

/** `the p99 of 38 runs is the largest of them and the p95 the 2nd largest` (`the p99 and the p95 of 8 runs are the largest of them`); undefined where the p99 has a value above it. */
function rowWords({ row, values, unit }: TailRow): string | undefined {
  if (valuesAbove(values, 0.99) > 0) return undefined;
  if (values === 1) return `${row}, every percentile is the one ${unit}`;
  const of = counted(values, unit);
  const p95Above = valuesAbove(values, 0.95);
  if (p95Above === 0) return `${row}, the p99 and the p95 of ${of} are the largest of them`;
  return `${row}, the p99 of ${of} is the largest of them${p95Above === 1 ? ' and the p95 the 2nd largest' : ''}`;
}

/** What the table's rows are drawn from: the runs (session trees), every simulated day, the simulated periods. */
export interface TailSource {
  runs: number;
  days: number;
  trials: number;
  tree: boolean;
}

/**
 * The line under the spend table where a row's p99 is its largest value (fewer than 100 of them), naming the
 * rows and the rule; undefined where every row's p99 has a value above it.
 */
export function fewValuesLine(source: TailSource): string | undefined {
  const rows: TailRow[] = [
    { row: 'per run', values: source.runs, unit: source.tree ? 'session tree' : 'run' },
    { row: 'per day', values: source.days * source.trials, unit: 'simulated day' },
    { row: `per ${source.days} days`, values: source.trials, unit: 'simulated period' },
  ];
  const said = rows.map(rowWords).filter((words) => words !== undefined);
  if (said.length === 0) return undefined;
  return `Percentiles of few values: ${said.join('; ')}: the top of the sample, not a tail measured (nearest rank: a p99 has a value above it only from ${valuesForOneAbove(0.99)} values, a p95 from ${valuesForOneAbove(0.95)}).`;
}

/** A projection's figures the period's p95 is read against: the period's quantiles, the runs in a period, the mean's interval. */
export interface PeriodTail {
  perPeriodUsd: Pick<Quantiles, 'p95'>;
  runsPerDay: number;
  days: number;
  trials: number;
  confidence: Pick<RunCostConfidence, 'meanPerRunUsd'>;
}

/**
 * ` The p95 per 30 days ($4263.3449, $0.0711 a run) sits below the top of the mean's interval ($0.0755): …`, where it is
 * (a reader would take it for a contradiction); '' where it is not, or the mean has no interval.
 */
export function periodBelowMeanTopWords(p: PeriodTail): string {
  const top = p.confidence.meanPerRunUsd[1];
  if (top === null) return '';
  const runs = p.runsPerDay * p.days;
  const periodPico = BigInt(usdToPico(p.perPeriodUsd.p95));
  if (periodPico >= BigInt(usdToPico(top)) * BigInt(runs)) return '';
  return (
    ` The p95 per ${p.days} days (${formatUsdNumber(p.perPeriodUsd.p95)}, ${formatUsd(meanPico(periodPico, runs))} a run) sits below the top of the mean's interval (${formatUsdNumber(top)}): no contradiction,` +
    ` as that top is a 97.5% point widened for a small sample, and a period's p95 the 95th percentile of the ${p.trials} simulated periods.`
  );
}

/**
 * `fit --report`'s line on how far its profile can be trusted, from what the report measured. It said
 * "on runs it has not seen, expect p50s and p95s of cost and steps within about 10%" of any profile fitted
 * on 70 runs or more, right under its own gaps of +227.8% (cost p90) and +304.6% (cost p95) on 300 runs
 * generated from a support agent. The 10% was measured on mini-swe-agent runs (fit.ts RUNS_FOR_A_TAIL):
 * it is said only when this profile reproduces its own runs within 10% at p50, p90 and p95 of cost and
 * steps; a gap past 10% is named, with what it says of unseen runs (no closer). It promises no closeness on
 * unseen runs: random halves of 168 deepseek-chat runs agreed on cost p95 within 10% only 24% of the time, so it
 * states how far sampling alone moves the recorded runs' own p95 (a seeded bootstrap). Where a gap's quantile lands
 * among the runs refused at the context window on one side and not on the other, the gap is that group's
 * share of the runs, not the sizes of either side's runs, and the line says so. A tail quantile too few runs give (their
 * largest run: fitTails.ts) is judged at no gap, and the p95 given no spread. Pure.
 */
import type { RunResult } from '../replay/replay.js';
import { rankIndex, selectInPlace } from '../metrics/costQuantiles.js';
import { nearestRank } from '../metrics/population.js';
import { Rng, STREAM } from '../synthetic/random.js';
import { percentText, signedPercentText, styledPercentText } from '../report/percentText.js';
import { counted } from '../plural.js';
import { someNames } from '../someNames.js';
import { heldOutStatement } from './fit.js';
import { FIT_METRICS, FIT_QUANTILES, type FitComparison, type FitMetric, type QuantileName } from './fitReport.js';
import { judgedQuantilesAt, runsForQuantile, unknownSpreadWords } from './fitTails.js';

/** The largest gap, either way, at which a profile is said to reproduce its runs as mini-swe-agent profiles held unseen runs. */
export const HELD_GAP = 0.1;

/** The quantities the line speaks of: cost and steps per run at these quantiles. */
const CHECKED_METRICS: readonly FitMetric[] = ['costPerRunUsd', 'stepsPerRun'];

type Row = FitComparison['rows'][number];

/** The rows of the checked metrics at `quantiles` (those the runs give) with a gap. */
const checkedRows = (c: Pick<FitComparison, 'rows'>, quantiles: readonly QuantileName[]): Row[] =>
  c.rows.filter((row) => CHECKED_METRICS.includes(row.metric) && quantiles.includes(row.quantile) && row.relativeGap !== null);

const heldText = styledPercentText(HELD_GAP, { trim: true });

const named = (row: Row) => `${row.metric} ${row.quantile} ${signedPercentText(row.relativeGap!)}`;

/** Whether the run at quantile `quantile` of `metric` (the nearer of the two it is read between) ended refused at the context window. */
function atWindow(runs: readonly RunResult[], metric: FitMetric, quantile: QuantileName): boolean {
  const p = FIT_QUANTILES.find(([name]) => name === quantile)![1];
  const sorted = [...runs].sort((a, b) => FIT_METRICS[metric](a) - FIT_METRICS[metric](b));
  return sorted[Math.round((sorted.length - 1) * p)]?.stopReason === 'provider_refused';
}

/** The runs of both sides, and the profile's group of the recorded runs refused at the window (fitWindow.ts CONTEXT_WINDOW_GROUP). */
export interface ReliabilityInputs {
  comparison: FitComparison;
  recorded: readonly RunResult[];
  synthetic: readonly RunResult[];
  windowGroup: string;
}

/** The gaps past HELD_GAP whose quantile lies among the window's runs on one side only, said ('' when none). */
function windowShareWords(far: readonly Row[], inputs: ReliabilityInputs): string {
  const { comparison: c, recorded, synthetic, windowGroup } = inputs;
  const split = far.filter((row) => atWindow(recorded, row.metric, row.quantile) !== atWindow(synthetic, row.metric, row.quantile));
  if (split.length === 0) return '';
  const share = (count: number, of: number) => percentText(of === 0 ? 0 : count / of);
  return (
    ` At ${split.map((row) => `${row.metric} ${row.quantile}`).join(', ')} one side's run ended refused at the context window and the other's did not: ` +
    `${share(c.refusedAtWindow.recorded, c.recordedRuns)} of the recorded runs ended there (${c.refusedAtWindow.recorded} of ${c.recordedRuns}, the profile's '${windowGroup}' group) ` +
    `and ${share(c.refusedAtWindow.synthetic, c.syntheticRuns)} of the synthetic ones, so ${split.length === 1 ? 'that gap is' : 'those gaps are'} that group's share of the runs, ` +
    `not the sizes of either side's runs (a share of ${c.refusedAtWindow.recorded} recorded runs is known only roughly).`
  );
}

/** Resamples of the recorded runs drawn for how uncertain their own p95 cost is (seeded: the same runs, the same words). */
export const P95_RESAMPLES = 1000;

/**
 * How far the recorded runs' own nearest-rank p95 cost moves with the sample: the 2.5% and 97.5% ranks of
 * its value over seeded bootstrap resamples of them, relative to it (−0.3: 30% lower). Undefined with no
 * run or a p95 of $0.
 */
export function recordedP95Spread(costsPico: readonly number[], resamples: number = P95_RESAMPLES): { low: number; high: number } | undefined {
  const n = costsPico.length;
  const ascending = [...costsPico].sort((a, b) => a - b);
  const p95 = nearestRank(ascending, 0.95);
  if (p95 === undefined || p95 <= 0) return undefined;
  const sample = new Float64Array(n);
  const p95s = new Float64Array(resamples);
  for (let b = 0; b < resamples; b++) {
    const rng = Rng.stream(1, b, STREAM.projectBootstrap);
    for (let k = 0; k < n; k++) sample[k] = ascending[rng.below(n)]!;
    p95s[b] = selectInPlace(sample, rankIndex(n, 0.95), 0, n - 1);
  }
  p95s.sort();
  return { low: nearestRank(p95s, 0.025)! / p95 - 1, high: nearestRank(p95s, 0.975)! / p95 - 1 };
}

/** `The recordings' own p95 cost is uncertain by −30%/+87% at 38 runs (…)`: what sampling alone does to a p95 ('' without one). */
function samplingWords(recorded: readonly RunResult[]): string {
  if (recorded.length > 0 && recorded.length < runsForQuantile('p95')) return unknownSpreadWords(recorded.length);
  const spread = recordedP95Spread(recorded.map((run) => run.costPico));
  if (spread === undefined) return '';
  const trim = { trim: true };
  return (
    ` The recordings' own p95 cost is uncertain by ${signedPercentText(spread.low, trim)}/${signedPercentText(spread.high, trim)} at ${counted(recorded.length, 'run')} ` +
    `(95%, a seeded bootstrap of them): another sample of as many runs, recorded or synthetic, moves a p95 about that much, so closeness to these runs is no closeness promised on runs it has not seen.`
  );
}

/** The report's line on unseen runs, from the gaps it measured (`runsForATail`: fit.ts RUNS_FOR_A_TAIL). */
export function reliabilityLine(inputs: ReliabilityInputs, runsForATail: number): string {
  const runs = inputs.comparison.recordedRuns;
  const judged = judgedQuantilesAt(runs);
  const rows = checkedRows(inputs.comparison, judged);
  const far = rows.filter((row) => Math.abs(row.relativeGap!) > HELD_GAP);
  const few = runs < runsForATail;
  const caveat = heldOutStatement(runs, runsForATail);
  if (far.length > 0) {
    const missed =
      `synthetic runs miss these recorded ones by more than ${heldText} at ${far.map(named).join(', ')}: ` +
      `on runs it has not seen expect it no closer there.${windowShareWords(far, inputs)}${samplingWords(inputs.recorded)}`;
    return few ? `${caveat} Its ${missed}` : `Fitted on ${runs} runs, its ${missed}`;
  }
  const largest = rows.reduce<Row | undefined>((top, row) => (top === undefined || Math.abs(row.relativeGap!) > Math.abs(top.relativeGap!) ? row : top), undefined);
  const measured = `its synthetic runs are within ${heldText} of these recorded ones at ${someNames(judged)} of cost and steps per run${largest === undefined ? '' : ` (largest gap: ${named(largest)})`}`;
  return few
    ? `${caveat} Here ${measured}.${samplingWords(inputs.recorded)}`
    : `Fitted on ${runs} runs, ${measured}: that is how well it reproduces the runs it was fitted on.${samplingWords(inputs.recorded)}`;
}

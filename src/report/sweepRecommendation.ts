/**
 * A sweep's recommendation (with --target-completion): the cheapest configuration reaching the target by
 * recommend.ts's rule (ties to the tighter brakes, recommendTie.ts — the same order the resamples and a
 * merge of shards break them by), in plain sentences, a line each, with what halving its step cap would change, how
 * far to trust its completion rate, the configurations it ties with (recommendTie.ts tieSentence), what
 * recorded runs cannot show of it (sweepOpenLoop.ts), what its figures on parts of session trees mean for
 * whole sessions (sessionParts.ts), and how sure the choice is (recommendSureness.ts); or,
 * when none reaches the target, what the runs complete with no brakes, when known. Where runs carry ground
 * truth, each figure it compares and says counts tasks done (recommend.ts countedRow; sweepCounted.ts says so). Pure.
 */
import { countedRow, recommendedIndex, tiedIndices, wilsonInterval, type RankedRow, type RecommendRule } from '../population/recommend.js';
import { fewerFalseStopsIndex } from '../population/recommendReference.js';
import { falseStopsSentence, fewerFalseStopsOf, noBrakesComparisonOf, reachableText } from './sweepRecommendationFacts.js';
import { howSureOf, joinResampled, type HowSure, type Resampled } from '../population/recommendSureness.js';
import { allStandingFor, someStandForFewer, type StandingPart } from '../population/standingRuns.js';
import { scenariosWords } from './projectConfidenceText.js';
import { counted } from '../plural.js';
import { tieOrderOf, tieSentence, type TieOrder } from '../population/recommendTie.js';
import { formatUsdNumber } from './money.js';
import { percentText } from './percentText.js';
import { openLoopOf } from './sweepOpenLoop.js';
import { sessionPartsRecommendation } from './sessionParts.js';
import { completionWords, countsTasksDone, type CompletionWords } from './sweepCounted.js';
import type { SweepHeader, SweepRecommendation, SweepReport, SweepRow } from './sweepReport.js';
import { rowBrakeConfig } from './sweepBrakeConfig.js';

const usd = (value: number): string => formatUsdNumber(value);

/** How the recommendation over `rows` chooses: ties by their grid values (recommendTie.ts), false stops within --max-false-stops when given. */
export function recommendRuleOf(rows: readonly Pick<SweepRow, 'settings'>[], header: Pick<SweepHeader, 'grid' | 'maxFalseStops'>): RecommendRule & { tieOrder: TieOrder } {
  return { tieOrder: tieOrderOf((i) => rows[i]!.settings, header.grid), ...(header.maxFalseStops === undefined ? {} : { maxFalseStopRate: header.maxFalseStops }) };
}

/**
 * The recommendation over `rows` (absent: none reaches `target`). `resampled`: the slices of the whole grid's
 * paired resamples of the runs (one for a sweep, one per shard for a merge), joined here, for how sure the
 * choice is (absent: not said); `replayArgs`: the inputs and their flags, for the command that reproduces it.
 */
export function recommendationOf(rows: readonly SweepRow[], header: Pick<SweepHeader, 'grid' | 'inputs' | 'warnings' | 'maxFalseStops'>, over: { target: number; replayArgs: string | undefined; resampled: readonly Resampled[] | undefined }): SweepRecommendation | null {
  const { target, replayArgs, resampled } = over;
  const rule = recommendRuleOf(rows, header);
  const { tieOrder } = rule;
  // Completion as the recommendation counts it: tasks done where runs carry ground truth (countedRow).
  const ranked = rows.map(countedRow);
  const index = recommendedIndex(ranked, target, rule);
  if (index === undefined) return null;
  const row = rows[index]!;
  const done = ranked[index]!;
  const words = completionWords(row.tasksDone !== undefined);
  const half = row.halfStepCap ?? null;
  const tiedWith = tiedIndices(ranked, index, target, header.maxFalseStops).map((i) => rows[i]!.settings);
  const { fewer, noBrakes, lines: weighedLines } = weighedPick({ rows, ranked, index, words }, { target, rule });
  // One line per thing said (the text report wraps each under the arrow): the pick, how it is weighed, its ties, its halved step cap, how far to trust it, what the runs cannot show, how to reproduce it.
  const lines = [`For at least ${percentText(target)} ${words.target}${boundWords(header.maxFalseStops)}, the cheapest configuration is ${row.settings}: ${done.completed}/${row.runs} ${words.count} (${percentText(done.completionRate)}) at ${usd(done.costPerCompletedUsd!)} ${words.per} (${usd(row.costUsd)} in all).`, ...weighedLines];
  if (tiedWith.length > 0) lines.push(tieSentence(tiedWith));
  lines.push(halfStepCapText(half, { completed: done.completed, runs: row.runs, costUsd: row.costUsd, words }));
  const joined = resampled === undefined || resampled.length === 0 ? undefined : joinResampled(resampled, tieOrder);
  const { standing, interval } = trustOf(joined, { index, completed: done.completed, runs: row.runs });
  lines.push(`How far to trust it: on ${row.runs} runs${standing?.text ?? ''}, ${words.rate} is ${percentText(interval[0])}–${percentText(interval[1])} at 95% confidence (Wilson interval)${interval[0] < target ? `, so it may fall below the target of ${percentText(target)}` : ''}.`);
  const openLoop = openLoopOf(rows, index, header);
  if (openLoop !== undefined) lines.push(openLoop.text);
  // Picked on runs that are parts of session trees (the header warns of them): what that means for whole sessions.
  const parts = sessionPartsRecommendation(header.warnings);
  if (parts !== undefined) lines.push(parts);
  lines.push(`To reproduce it: loopcost replay ${replayArgs ?? '<the same inputs and price flags>'}${row.flags === '' ? '' : ` ${row.flags}`}`);
  const text = lines.map((line) => line.trim()).filter((line) => line !== '').join('\n');
  const howSure = joined === undefined ? {} : { howSure: withCaveat(howSureOf(joined, { chosen: index, settings: rows.map((r) => r.settings), completed: standing?.completed ?? done.completed, runs: standing?.runs ?? row.runs, target, tiedWith }), joined.parts) };
  return {
    settings: row.settings,
    flags: row.flags,
    brakeConfig: rowBrakeConfig(row, index),
    targetCompletion: target,
    completionRate: done.completionRate,
    completionRateInterval: interval,
    costPerCompletedUsd: done.costPerCompletedUsd!,
    costUsd: row.costUsd,
    falseStops: row.falseStops,
    falseStopRate: row.falseStopRate,
    ...(fewer === undefined ? {} : { fewerFalseStops: fewer.json }),
    noBrakes: noBrakes.json,
    halfStepCap: half,
    ...(tiedWith.length === 0 ? {} : { tiedWith }),
    ...(openLoop === undefined ? {} : { openLoop }),
    text,
    ...howSure,
  };
}

/** The pick (row `index`) weighed: its false stops, the configuration with fewer (fewerFalseStopsIndex), and its runs with no brakes — the sentences and their JSON. */
function weighedPick(pick: { rows: readonly SweepRow[]; ranked: readonly RankedRow[]; index: number; words: CompletionWords }, over: { target: number; rule: RecommendRule }) {
  const { rows, ranked, index, words } = pick;
  const weighed = (i: number) => ({ ...ranked[i]!, runs: rows[i]!.runs, completed: countedRow(rows[i]!).completed, falseStops: rows[i]!.falseStops, falseStopRate: rows[i]!.falseStopRate, baselineCostUsd: rows[i]!.baselineCostUsd });
  const fewerAt = fewerFalseStopsIndex(ranked, index, over);
  const fewer = fewerAt === undefined ? undefined : fewerFalseStopsOf(weighed(index), { row: rows[fewerAt]!, counted: weighed(fewerAt) }, words);
  const noBrakes = noBrakesComparisonOf(weighed(index), words);
  return { fewer, noBrakes, lines: [falseStopsSentence(weighed(index), rows[index]!.tasksDone !== undefined), fewer?.text ?? '', noBrakes.text] };
}

/** What halving the pick's step cap would change (`half`: its row's halfStepCap), or that it has none to halve. */
function halfStepCapText(half: SweepRow['halfStepCap'] | null, pick: { completed: number; runs: number; costUsd: number; words: CompletionWords }): string {
  if (half === null || half === undefined) return 'It has no step cap to halve.';
  const halfDone = half.done ?? half.completed;
  const lost = pick.completed - halfDone;
  return `Halving its step cap to ${half.maxSteps} ${pick.words.half(halfDone, pick.runs)} (${lost === 0 ? 'no fewer' : `${lost} fewer`}) and spend ${usd(half.costUsd)} (${usd(pick.costUsd - half.costUsd)} less).`;
}

/** The pick's 95% Wilson interval: of the runs they stand for where a fitted profile's count as the recorded runs it was fitted to (standingRuns.ts, as project counts them). */
function trustOf(joined: Resampled | undefined, pick: { index: number; completed: number; runs: number }) {
  const standing = standingPick(joined, pick.index);
  return { standing, interval: standing === undefined ? wilsonInterval(pick.completed, pick.runs) : wilsonInterval(standing.completed, standing.runs) };
}

/** The pick's completed runs and all runs as the runs they stand for, where a fitted profile's stand for fewer; undefined where the runs are the sample. */
function standingPick(joined: Resampled | undefined, index: number): { completed: number; runs: number; text: string } | undefined {
  const parts = joined?.parts;
  const completed = joined?.completedStandingFor?.[index];
  if (!someStandForFewer(parts) || completed === undefined) return undefined;
  const fitted = parts!.filter((p) => p.fitted === true && p.standsFor < p.runs).map((p) => `${p.source}'s ${counted(p.runs, 'synthetic run')} as the ${counted(p.standsFor, 'recorded run')} it was fitted to`);
  const runs = allStandingFor(parts!);
  return { completed, runs, text: ` standing for ${runs} (this counts ${fitted.join(', ')}: a profile knows its population no better than the runs behind it, and more --runs narrow only the simulation's own noise)` };
}

/** How sure, with project's caveat on hand-written scenario files' runs (projectConfidenceText.ts scenariosWords): no interval and no resample measures their weights. */
function withCaveat(howSure: HowSure, parts: readonly StandingPart[] | undefined): HowSure {
  const handWritten = (parts ?? []).filter((p) => p.fitted === false).map((p) => ({ source: p.source!, syntheticRuns: p.runs }));
  const caveat = scenariosWords(handWritten);
  // A line of its own, as the recommendation's text has one per thing said.
  return caveat === undefined ? howSure : { ...howSure, text: `${howSure.text}\n${caveat}` };
}

/**
 * When no configuration reaches the target: what the runs complete with no brakes (the header's `noBrakes`,
 * when the sweep knows it whole), the ceiling no brake that only stops runs can pass; '' when not known.
 * `tasksDone`: the recommendation counts tasks done (runs with ground truth), so the ceiling is theirs.
 */
export function noBrakesCeilingText(report: Pick<SweepHeader, 'noBrakes'>, tasksDone = false): string {
  const known = report.noBrakes;
  if (known === undefined || known.runs === 0) return '';
  if (tasksDone && known.tasksDone !== undefined) return ` With no brakes these runs get ${known.tasksDone}/${known.runs} tasks done (${percentText(known.tasksDone / known.runs)}): no setting of brakes that only stop runs can get more done.`;
  return ` With no brakes these runs complete ${known.completed}/${known.runs} (${percentText(known.completed / known.runs)}): no setting of brakes that only stop runs can complete more.`;
}

/** That no configuration reaches the target (as the recommendation counts completion, within the false-stop bound), what is reachable, and the ceiling when known. */
export function noneReachesText(report: Pick<SweepReport, 'noBrakes' | 'targetCompletion' | 'maxFalseStops' | 'configurations'>): string {
  const tasksDone = countsTasksDone(report.configurations);
  const words = completionWords(tasksDone);
  const ceiling = noBrakesCeilingText(report, tasksDone);
  return `No configuration ${words.none} ${percentText(report.targetCompletion!)} ${words.noneOf}${boundWords(report.maxFalseStops)}.${ceiling}${reachableText(report.configurations, words, ceiling !== '')}`;
}

/** ` with at most 5.0% false stops` (--max-false-stops), or nothing. */
function boundWords(maxFalseStops: number | undefined): string {
  return maxFalseStops === undefined ? '' : ` with at most ${percentText(maxFalseStops)} false stops`;
}

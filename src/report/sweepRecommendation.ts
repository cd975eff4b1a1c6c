/**
 * A sweep's recommendation (with --target-completion): the cheapest configuration reaching the target by
 * recommend.ts's rule (ties to the tighter brakes, recommendTie.ts — the same order the resamples and a
 * merge of shards break them by), in one plain sentence with what halving its step cap would change, how
 * far to trust its completion rate, the configurations it ties with (recommendTie.ts tieSentence), what
 * recorded runs cannot show of it (sweepOpenLoop.ts), what its figures on parts of session trees mean for
 * whole sessions (sessionParts.ts), and how sure the choice is (recommendSureness.ts); or,
 * when none reaches the target, what the runs complete with no brakes, when known. Where runs carry ground
 * truth, each figure it compares and says counts tasks done (recommend.ts countedRow; sweepCounted.ts says so). Pure.
 */
import { countedRow, recommendedIndex, tiedIndices, wilsonInterval } from '../population/recommend.js';
import { howSureOf, joinResampled, type Resampled } from '../population/recommendSureness.js';
import { tieOrderOf, tieSentence } from '../population/recommendTie.js';
import { formatUsdNumber } from './money.js';
import { percentText } from './percentText.js';
import { openLoopOf } from './sweepOpenLoop.js';
import { sessionPartsRecommendation } from './sessionParts.js';
import { completionWords, countsTasksDone } from './sweepCounted.js';
import type { SweepHeader, SweepRecommendation, SweepReport, SweepRow } from './sweepReport.js';

const usd = (value: number): string => formatUsdNumber(value);

/**
 * The recommendation over `rows` (absent: none reaches `target`). `resampled`: the slices of the whole grid's
 * paired resamples of the runs (one for a sweep, one per shard for a merge), joined here, for how sure the
 * choice is (absent: not said); `replayArgs`: the inputs and their flags, for the command that reproduces it.
 */
export function recommendationOf(rows: readonly SweepRow[], header: Pick<SweepHeader, 'grid' | 'inputs' | 'warnings'>, over: { target: number; replayArgs: string | undefined; resampled: readonly Resampled[] | undefined }): SweepRecommendation | null {
  const { target, replayArgs, resampled } = over;
  const tieOrder = tieOrderOf((i) => rows[i]!.settings, header.grid);
  // Completion as the recommendation counts it: tasks done where runs carry ground truth (countedRow).
  const ranked = rows.map(countedRow);
  const index = recommendedIndex(ranked, target, tieOrder);
  if (index === undefined) return null;
  const row = rows[index]!;
  const done = ranked[index]!;
  const words = completionWords(row.tasksDone !== undefined);
  const half = row.halfStepCap ?? null;
  const tiedWith = tiedIndices(ranked, index, target).map((i) => rows[i]!.settings);
  let text = `For at least ${percentText(target)} ${words.target}, the cheapest configuration is ${row.settings}: ${done.completed}/${row.runs} ${words.count} (${percentText(done.completionRate)}) at ${usd(done.costPerCompletedUsd!)} ${words.per} (${usd(row.costUsd)} in all).`;
  if (tiedWith.length > 0) text += ` ${tieSentence(tiedWith)}`;
  if (half !== null) {
    const halfDone = half.done ?? half.completed;
    const lost = done.completed - halfDone;
    text += ` Halving its step cap to ${half.maxSteps} ${words.half(halfDone, row.runs)} (${lost === 0 ? 'no fewer' : `${lost} fewer`}) and spend ${usd(half.costUsd)} (${usd(row.costUsd - half.costUsd)} less).`;
  } else text += ' It has no step cap to halve.';
  const interval = wilsonInterval(done.completed, row.runs);
  text += ` How far to trust it: on ${row.runs} runs, ${words.rate} is ${percentText(interval[0])}–${percentText(interval[1])} at 95% confidence (Wilson interval)${interval[0] < target ? `, so it may fall below the target of ${percentText(target)}` : ''}.`;
  const openLoop = openLoopOf(rows, index, header);
  if (openLoop !== undefined) text += ` ${openLoop.text}`;
  // Picked on runs that are parts of session trees (the header warns of them): what that means for whole sessions.
  const parts = sessionPartsRecommendation(header.warnings);
  if (parts !== undefined) text += ` ${parts}`;
  text += ` To reproduce it: loopcost replay ${replayArgs ?? '<the same inputs and price flags>'}${row.flags === '' ? '' : ` ${row.flags}`}`;
  const settings = rows.map((r) => r.settings);
  const howSure = resampled === undefined || resampled.length === 0 ? {} : { howSure: howSureOf(joinResampled(resampled, tieOrder), { chosen: index, settings, completed: done.completed, runs: row.runs, target, tiedWith }) };
  return {
    settings: row.settings,
    flags: row.flags,
    targetCompletion: target,
    completionRate: done.completionRate,
    completionRateInterval: interval,
    costPerCompletedUsd: done.costPerCompletedUsd!,
    costUsd: row.costUsd,
    halfStepCap: half,
    ...(tiedWith.length === 0 ? {} : { tiedWith }),
    ...(openLoop === undefined ? {} : { openLoop }),
    text,
    ...howSure,
  };
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

/** That no configuration reaches the target (as the recommendation counts completion), and the ceiling when known. */
export function noneReachesText(report: Pick<SweepReport, 'noBrakes' | 'targetCompletion' | 'configurations'>): string {
  const tasksDone = countsTasksDone(report.configurations);
  const words = completionWords(tasksDone);
  return `No configuration ${words.none} ${percentText(report.targetCompletion!)} ${words.noneOf}.${noBrakesCeilingText(report, tasksDone)}`;
}

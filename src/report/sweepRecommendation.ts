/**
 * A sweep's recommendation (with --target-completion): the cheapest configuration reaching the target by
 * recommend.ts's rule (ties to the tighter brakes, recommendTie.ts — the same order the resamples and a
 * merge of shards break them by), in one plain sentence with what halving its step cap would change, how
 * far to trust its completion rate, the configurations it ties with (recommendTie.ts tieSentence), what
 * recorded runs cannot show of it (sweepOpenLoop.ts), and how sure the choice is (recommendSureness.ts); or,
 * when none reaches the target, what the runs complete with no brakes, when known. Pure.
 */
import { recommendedIndex, tiedIndices, wilsonInterval } from '../population/recommend.js';
import { howSureOf, joinResampled, type Resampled } from '../population/recommendSureness.js';
import { tieOrderOf, tieSentence } from '../population/recommendTie.js';
import { formatUsdNumber } from './money.js';
import { percentText } from './percentText.js';
import { openLoopOf } from './sweepOpenLoop.js';
import type { SweepHeader, SweepRecommendation, SweepRow } from './sweepReport.js';

const usd = (value: number): string => formatUsdNumber(value);

/**
 * The recommendation over `rows` (absent: none reaches `target`). `resampled`: the slices of the whole grid's
 * paired resamples of the runs (one for a sweep, one per shard for a merge), joined here, for how sure the
 * choice is (absent: not said); `replayArgs`: the inputs and their flags, for the command that reproduces it.
 */
export function recommendationOf(rows: readonly SweepRow[], header: Pick<SweepHeader, 'grid' | 'inputs'>, over: { target: number; replayArgs: string | undefined; resampled: readonly Resampled[] | undefined }): SweepRecommendation | null {
  const { target, replayArgs, resampled } = over;
  const tieOrder = tieOrderOf((i) => rows[i]!.settings, header.grid);
  const index = recommendedIndex(rows, target, tieOrder);
  if (index === undefined) return null;
  const row = rows[index]!;
  const half = row.halfStepCap ?? null;
  const tiedWith = tiedIndices(rows, index, target).map((i) => rows[i]!.settings);
  let text = `For at least ${percentText(target)} of runs completed, the cheapest configuration is ${row.settings}: ${row.completed}/${row.runs} complete (${percentText(row.completionRate)}) at ${usd(row.costPerCompletedUsd!)} per completed run (${usd(row.costUsd)} in all).`;
  if (tiedWith.length > 0) text += ` ${tieSentence(tiedWith)}`;
  if (half !== null) {
    const lost = row.completed - half.completed;
    text += ` Halving its step cap to ${half.maxSteps} would complete ${half.completed}/${row.runs} (${lost === 0 ? 'no fewer' : `${lost} fewer`}) and spend ${usd(half.costUsd)} (${usd(row.costUsd - half.costUsd)} less).`;
  } else text += ' It has no step cap to halve.';
  const interval = wilsonInterval(row.completed, row.runs);
  text += ` How far to trust it: on ${row.runs} runs, its completion rate is ${percentText(interval[0])}–${percentText(interval[1])} at 95% confidence (Wilson interval)${interval[0] < target ? `, so it may fall below the target of ${percentText(target)}` : ''}.`;
  const openLoop = openLoopOf(rows, index, header);
  if (openLoop !== undefined) text += ` ${openLoop.text}`;
  text += ` To reproduce it: loopcost replay ${replayArgs ?? '<the same inputs and price flags>'}${row.flags === '' ? '' : ` ${row.flags}`}`;
  const settings = rows.map((r) => r.settings);
  const howSure = resampled === undefined || resampled.length === 0 ? {} : { howSure: howSureOf(joinResampled(resampled, tieOrder), { chosen: index, settings, completed: row.completed, runs: row.runs, target, tiedWith }) };
  return {
    settings: row.settings,
    flags: row.flags,
    targetCompletion: target,
    completionRate: row.completionRate,
    completionRateInterval: interval,
    costPerCompletedUsd: row.costPerCompletedUsd!,
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
 */
export function noBrakesCeilingText(report: Pick<SweepHeader, 'noBrakes'>): string {
  const known = report.noBrakes;
  if (known === undefined || known.runs === 0) return '';
  return ` With no brakes these runs complete ${known.completed}/${known.runs} (${percentText(known.completed / known.runs)}): no setting of brakes that only stop runs can complete more.`;
}

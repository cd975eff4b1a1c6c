/**
 * What a sweep's recommendation says it is weighed against (population/recommendReference.ts): its false
 * stops and the configuration with fewer of them, the same runs with no brakes (and when that beats the pick
 * on both measures), and, when no configuration reaches the target, what is reachable. Sentences and their
 * JSON, completion in the recommendation's words (sweepCounted.ts completionWords). Pure.
 */
import { baselineCompletedOf, dominatedByNoBrakes, mostCompletingIndex, noBrakesReferenceOf, type NoBrakesReference, type WeighedRow } from '../population/recommendReference.js';
import { countedRow } from '../population/recommend.js';
import { isBrakeStop, STOP_REASONS, type StopReason } from '../brakes/stopReasons.js';
import { formatUsdNumber as usd } from './money.js';
import { percentText } from './percentText.js';
import type { CompletionWords } from './sweepCounted.js';
import type { SweepRow } from './sweepReport.js';

/** The pick's runs with no brakes, and whether they beat it on both measures (its brakes only cut runs). */
export type NoBrakesComparison = NoBrakesReference & { dominates: boolean };

/** The configuration reaching the target with fewer false stops than the pick (what `--max-false-stops` would pick), as JSON gives it. */
export interface FewerFalseStops {
  settings: string;
  completionRate: number;
  costPerCompletedUsd: number;
  falseStops: number;
  falseStopRate: number | null;
  /** The --max-false-stops value that picks it. */
  maxFalseStops: number;
}

/** `the runs that complete with no brakes` in the recommendation's words. */
const goodRuns = (tasksDone: boolean): string => (tasksDone ? 'runs whose task is done with no brakes' : 'runs that complete with no brakes');

/** ` It stops 4 of the 28 runs that complete with no brakes (14.3%: false stops, good runs cut short).`; '' when none completes with no brakes. */
export function falseStopsSentence(row: WeighedRow, tasksDone: boolean): string {
  const good = baselineCompletedOf(row);
  if (good === 0) return '';
  if (row.falseStops === 0) return ` It stops none of the ${good} ${goodRuns(tasksDone)} (no false stop).`;
  return ` It stops ${row.falseStops} of the ${good} ${goodRuns(tasksDone)} (${percentText(row.falseStopRate ?? 0)}: false stops, good runs cut short).`;
}

/** The shortest decimal in [bound, below): a --max-false-stops value that lets in exactly the rows at or under `bound`. */
export function boundText(bound: number, below: number): number {
  for (let decimals = 2; decimals <= 8; decimals++) {
    const scale = 10 ** decimals;
    const written = Math.ceil(bound * scale - 1e-9) / scale;
    if (written >= bound && written < below) return written;
  }
  return bound;
}

/** The row with fewer false stops than the pick, as JSON and a sentence. */
export function fewerFalseStopsOf(pick: WeighedRow, other: { row: SweepRow; counted: WeighedRow }, words: CompletionWords): { json: FewerFalseStops; text: string } {
  const { row, counted } = other;
  const maxFalseStops = boundText(counted.falseStopRate ?? 0, pick.falseStopRate ?? 0);
  const json = { settings: row.settings, completionRate: counted.completionRate, costPerCompletedUsd: counted.costPerCompletedUsd!, falseStops: row.falseStops, falseStopRate: row.falseStopRate, maxFalseStops };
  const more = counted.costPerCompletedUsd! / pick.costPerCompletedUsd! - 1;
  const dearer = more === 0 ? 'as much' : `${percentText(Math.abs(more))} ${more > 0 ? 'more' : 'less'}`;
  const stops = row.falseStops === 0 ? 'no false stop' : `${row.falseStops} false ${row.falseStops === 1 ? 'stop' : 'stops'} (${percentText(row.falseStopRate ?? 0)})`;
  const text = ` With fewer false stops, ${row.settings}: ${counted.completed}/${counted.runs} ${words.count} (${percentText(counted.completionRate)}) at ${usd(counted.costPerCompletedUsd!)} ${words.per} (${dearer}), ${stops}; --max-false-stops ${maxFalseStops} picks it.`;
  return { json, text };
}

/** The pick against its runs with no brakes (its own baseline), as JSON and a sentence. */
export function noBrakesComparisonOf(pick: WeighedRow, words: CompletionWords): { json: NoBrakesComparison; text: string } {
  const reference = noBrakesReferenceOf(pick);
  const dominates = dominatedByNoBrakes(pick, reference);
  const json = { ...reference, dominates };
  if (reference.costPerCompletedUsd === null) return { json, text: '' };
  const figures = `${reference.completed}/${reference.runs} ${words.count} (${percentText(reference.completed / reference.runs)}) at ${usd(reference.costPerCompletedUsd)} ${words.per} (${usd(reference.costUsd)} in all)`;
  const same = reference.completed === pick.completed && reference.costUsd === pick.costUsd;
  const text = dominates ? ` No brakes beats it on both: ${figures} — brakes here only cut runs.` : same ? ' With no brakes, the same: its brakes stop no run here.' : ` With no brakes: ${figures}.`;
  return { json, text };
}

/** Why a run ends unfinished with no brake stopping it, by stop reason. */
const UNFINISHED: Partial<Record<StopReason, string>> = {
  trace_end: 'the run ends as recorded or drawn, e.g. on a provider error or timeout',
  provider_refused: 'the provider refused a prompt past the window',
  aborted: 'aborted',
};

/** The runs of a row that neither complete nor are stopped by a brake (`10 … (trace_end 10: …)`): why they never complete; '' when none. */
function unfinishedText(row: SweepRow): string {
  const ends = STOP_REASONS.filter((reason) => reason !== 'completed' && !isBrakeStop(reason) && (row.stopReasons[reason] ?? 0) > 0);
  const runs = ends.reduce((sum, reason) => sum + row.stopReasons[reason]!, 0);
  return runs === 0 ? '' : ` Of its runs, ${runs} end unfinished with no brake stopping them (${ends.map((reason) => `${reason} ${row.stopReasons[reason]}: ${UNFINISHED[reason]}`).join('; ')}): no brake setting completes those.`;
}

/** When no configuration reaches the target: the most any completes, what its runs complete with no brakes (`ceilingKnown`: said after, from the header), and why the rest never complete. */
export function reachableText(rows: readonly SweepRow[], words: CompletionWords, ceilingKnown: boolean): string {
  if (rows.length === 0) return '';
  const ranked = rows.map(countedRow);
  const best = mostCompletingIndex(ranked);
  const at = best ?? 0;
  const row = rows[at]!;
  const done = { ...ranked[at]!, falseStops: row.falseStops, falseStopRate: row.falseStopRate, baselineCostUsd: row.baselineCostUsd };
  let text = best === undefined ? ' None completes any run.' : ` The most reached: ${row.settings}, ${done.completed}/${done.runs} ${words.count} (${percentText(done.completionRate)}) at ${usd(done.costPerCompletedUsd!)} ${words.per}.`;
  const good = baselineCompletedOf(done);
  if (!ceilingKnown) text += ` With no brakes ${best === undefined ? 'these' : 'its'} runs: ${good}/${row.runs} ${words.count} (${percentText(good / row.runs)}).`;
  return text + unfinishedText(row);
}

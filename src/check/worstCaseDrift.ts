/**
 * The worst case per run the brakes allow (worstCase.ts, as `project` says it) against the baseline's:
 * loosening a brake (a budget 0.10 → 1.00) may move no figure of the runs at hand (none reached it) while
 * the next run may now cost three times as much. A rise past the tolerance (money: a share of the
 * baseline), or to unbounded, is a failure in its own words (`worst case per run $0.1210 → $0.3156
 * (+160.8%): the brakes now allow more`, status `looser`); a fall past it is tighter brakes, reported, no
 * failure (status `tighter`). Under a price change it is judged at the baseline's prices, as every figure
 * is: a rise the new prices alone make is a `price change`. A baseline written before baselines held it
 * has none: not compared, said once for all such scenarios.
 */
import { usdToPico } from '../money.js';
import { formatUsdNumber } from '../report/money.js';
import { signedPercentText } from '../report/percentText.js';
import type { BaselineScenario } from './baselineFile.js';
import type { Drift, DriftRow, DriftStatus } from './baseline.js';
import { acceptText, scenariosNamed } from './gateCounts.js';
import { relativeChange } from './driftFigures.js';
import type { ScenarioCheck } from './run.js';
import { modelCauseAdvice, modelCauseText, worstCaseModelCause, type WorstCaseModelCause } from './worstCaseModel.js';
import { shellWord } from '../report/settings.js';

/** The figure's name in the drift rows, as the baseline's `figures` holds it. */
export const WORST_CASE_FIGURE = 'worstCasePerRunUsd';

/** A worst case that moved past the tolerance: rose (a failure) or fell (reported). */
export interface WorstCaseMove {
  scenario: string;
  /** In USD; null: unbounded. */
  baselineUsd: number | null;
  /** As judged (under a price change, at the baseline's prices); null: unbounded. */
  measuredUsd: number | null;
  relativeChange: number | null;
  way: 'rose' | 'fell';
  /** Which brake bounds it now, in words (project's rule). */
  rule: string;
  /** `worst case per run $0.1210 → $0.3156 (+160.8%): the brakes now allow more`; a rise with the model: `…: it rose with the model, not the brakes (…)`. */
  text: string;
  /** A move with the brakes as they were: the model or its window changed (worstCaseModel.ts). */
  cause?: WorstCaseModelCause;
}

/** What the worst case of one scenario says against its baseline: a row (none when the baseline has no figure), and a move past the tolerance. */
export interface WorstCaseJudged {
  row?: DriftRow;
  move?: WorstCaseMove;
  /** The baseline holds no worst case (written before baselines held it): not compared. */
  notCompared?: true;
}

/** `$0.1210`, or `unbounded` (null: the brakes set no bound). */
export function worstCaseValue(usd: number | null): string {
  return usd === null ? 'unbounded' : formatUsdNumber(usd);
}

/** Whether the worst case moved from `was` by more than `tolerance` of it (in whole picodollars); to or from unbounded always does. */
function moved(was: number | null, is: number | null, tolerance: number): boolean {
  if (was === null || is === null) return was !== is;
  return Math.abs(usdToPico(is) - usdToPico(was)) > tolerance * Math.abs(usdToPico(was));
}

/** Whether `is` allows more than `was`: higher, or unbounded where it was bounded. */
function rose(was: number | null, is: number | null): boolean {
  if (is === null) return was !== null;
  return was !== null && is > was;
}

/** The sentence of a move: the values, the change as a share when both are bounded, and what it means. */
function moveText(was: number | null, is: number | null, args: { atBaselinePrices: boolean; cause?: WorstCaseModelCause }): string {
  const way = rose(was, is) ? 'rose' : 'fell';
  const change = relativeChange(was, is);
  const share = change === null || was === null || is === null ? '' : ` (${signedPercentText(change)})`;
  const where = args.atBaselinePrices ? " at the baseline's prices" : '';
  // One attribution both ways: with the brakes as they were and the model changed, the model moved it.
  const why = args.cause === undefined ? `the brakes now allow ${way === 'rose' ? 'more' : 'less'}` : modelCauseText(args.cause, way);
  return `worst case per run ${worstCaseValue(was)} → ${worstCaseValue(is)}${share}${where}: ${why}`;
}

/**
 * What bounds the worst case now (project's rule), and for a rise with the model what lets it rise and bounds it
 * (worstCaseModel.ts) in place of the rule's remark on the step cap (`; these runs backtrack, …`), which is no
 * part of what changed.
 */
export function nowText(move: Pick<WorstCaseMove, 'rule' | 'cause' | 'way'>): string {
  if (move.cause === undefined || move.way === 'fell') return `now: ${move.rule}`;
  return `now: ${move.rule.split('; these runs ')[0]}; ${modelCauseAdvice(move.cause)}`;
}

/** The scenario's worst case against the baseline scenario's (`atBaselinePrices`: the same scenario run under the baseline's prices). */
export function worstCaseJudged(check: ScenarioCheck, before: BaselineScenario, args: { tolerance: number; atBaselinePrices?: ScenarioCheck }): WorstCaseJudged {
  const was = before.figures.worstCasePerRunUsd;
  if (was === undefined) return { notCompared: true };
  if (check.worstCase === undefined) return {};
  const is = check.worstCase.perRunUsd;
  const repriced = args.atBaselinePrices?.worstCase;
  const judged = repriced === undefined ? is : repriced.perRunUsd;
  const past = moved(was, judged, args.tolerance);
  const status: DriftStatus = past ? (rose(was, judged) ? 'looser' : 'tighter') : repriced !== undefined && moved(was, is, args.tolerance) ? 'price change' : 'ok';
  const atBaseline = repriced === undefined ? {} : { atBaselinePrices: judged, relativeChangeAtBaselinePrices: relativeChange(was, judged) };
  const row: DriftRow = { scenario: check.source, figure: WORST_CASE_FIGURE, baseline: was, measured: is, relativeChange: relativeChange(was, is), relativeChangeFrom: 'baseline', ...atBaseline, status };
  if (!past) return { row };
  const way = rose(was, judged) ? 'rose' : 'fell';
  const rule = (repriced ?? check.worstCase).rule;
  const cause = worstCaseModelCause(check, before);
  const text = moveText(was, judged, { atBaselinePrices: repriced !== undefined, ...(cause === undefined ? {} : { cause }) });
  return { row, move: { scenario: check.source, baselineUsd: was, measuredUsd: judged, relativeChange: relativeChange(was, judged), way, rule, text, ...(cause === undefined ? {} : { cause }) } };
}

/** The brakes now allow more (a failure) in these moves. */
export function rises(moves: readonly WorstCaseMove[] | undefined): WorstCaseMove[] {
  return (moves ?? []).filter((move) => move.way === 'rose');
}

/** A move as its line says it, with what bounds it now and, for a rise, why it fails and how to accept it. */
function moveLine(move: WorstCaseMove, drift: Pick<Drift, 'file' | 'accepted'>): string {
  const now = nowText(move);
  if (move.way === 'fell') return `worst case: ${move.scenario}: ${move.text} (${now}; ${move.cause === undefined ? 'tighter brakes' : 'a fall'}: no failure)`;
  return `worst case: ${move.scenario}: ${move.text} (${now}; a failure even when no run at hand reached the brakes: the next run may); ${acceptText(drift)}`;
}

/** The lines after the drift table: each worst case that moved, then once, the scenarios whose baseline holds none. */
export function worstCaseLines(drift: { file: string; accepted?: string; worstCase?: { moved: readonly WorstCaseMove[]; notCompared: readonly string[] } }): string[] {
  const worst = drift.worstCase;
  if (worst === undefined) return [];
  const lines = worst.moved.map((move) => moveLine(move, drift));
  if (worst.notCompared.length > 0) {
    lines.push(`worst case per run: not compared for ${scenariosNamed(worst.notCompared)}: the baseline was written before baselines held it; write it again with --update-baseline ${shellWord(drift.file)} to hold it, so a loosened brake fails the check`);
  }
  return lines;
}

/** `, worst case per run rose in 1 scenario` for the verdict line; empty when none rose. */
export function worstCaseVerdict(drift: { worstCase?: { moved: readonly WorstCaseMove[] } } | undefined): string {
  const n = rises(drift?.worstCase?.moved).length;
  return n === 0 ? '' : `, worst case per run rose in ${n === 1 ? '1 scenario' : `${n} scenarios`}`;
}

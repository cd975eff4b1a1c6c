/**
 * How a drift row's figures and change are written (report.ts, junit.ts): a figure in the report's money or
 * percent format, and the change in the tolerance's units with enough digits that it reads on the side of the
 * tolerance its status says (a DRIFT of +5.03% at a 5% tolerance is `+5.03%`, never `+5.0%`). Pure.
 */
import { formatUsdNumber } from '../report/money.js';
import { signedPercentText, type PercentStyle } from '../report/percentText.js';
import type { DriftRow } from './baseline.js';
import { checkPercent } from './evaluate.js';
import { WORST_CASE_FIGURE, worstCaseValue } from './worstCaseDrift.js';

/** A baseline figure as the report and the JUnit file show it: money in USD, a rate in percent, `none` when there is none. */
export function driftValue(row: Pick<DriftRow, 'figure'>, value: number | null): string {
  // The worst case the brakes allow is none when they set no bound: unbounded.
  if (row.figure === WORST_CASE_FIGURE) return worstCaseValue(value);
  if (value === null) return 'none';
  return row.figure.includes('Usd') ? formatUsdNumber(value) : checkPercent(value);
}

/**
 * The value a DRIFT judges (measured, or under a price change measured at the baseline's prices; a brake outcome
 * the new prices moved, `budget binds`, as measured) and what it is
 * judged from: the baseline's figure, or for another sample paired with it its agents' on these draws (`paired`).
 */
export function judged(row: DriftRow): { value: number | null; relative: number | null | undefined; from: number | null } {
  const from = row.paired === undefined ? row.baseline : row.paired;
  // Both changes are from `from` (driftFigures.ts): the figure measured, or under a price change, at the baseline's prices — but a brake outcome the new prices moved (`budget binds`) as measured.
  const measured = row.atBaselinePrices === undefined || row.status === 'budget binds';
  return { value: measured ? row.measured : (row.atBaselinePrices ?? null), relative: measured ? row.relativeChange : row.relativeChangeAtBaselinePrices, from };
}

/** Whether a DRIFT row's figure fell below the baseline's (what it judges). */
export function droppedBelowBaseline(row: DriftRow): boolean {
  const { value, from } = judged(row);
  return row.status === 'drift' && from !== null && value !== null && value < from;
}

/** The statuses of a change past the tolerance (a price change's is within it at the baseline's prices). */
const PAST_TOLERANCE = new Set(['drift', 'noise', 'not held', 'looser', 'tighter', 'budget binds']);

/**
 * A signed change in percent (or points), `write(style)` at one decimal and more where that would read on the
 * wrong side of the tolerance (`tolerancePercent`, in the same units): past it when `past`, else within it.
 */
export function besideTolerance(write: (style: PercentStyle) => string, args: { tolerancePercent: number; past: boolean }): string {
  let text = write({});
  for (let decimals = 2; decimals <= 12; decimals++) {
    const shown = Math.abs(Number.parseFloat(text.replace(/^\+/, '')));
    if (!Number.isFinite(shown) || shown > args.tolerancePercent === args.past) return text;
    text = write({ decimals, trim: true });
  }
  return text;
}

/**
 * A drift's direction and size in the tolerance's units: `↓ -42.4%` (money, a share of the baseline),
 * `↑ +12.5 points` (a rate), `↑ from $0`; empty when a value is none. `tolerance` (a share): the change is
 * written with the digits that keep it on the side of the tolerance its status says (`+5.03%`, not `+5.0%`).
 */
export function driftDirection(row: DriftRow, tolerance?: number): string {
  const { value, relative, from } = judged(row);
  if (row.figure === WORST_CASE_FIGURE && (from === null) !== (value === null)) return value === null ? '↑ to unbounded' : '↓ from unbounded';
  if (from === null || value === null || value === from) return '';
  const arrow = value > from ? '↑' : '↓';
  const side = { tolerancePercent: (tolerance ?? 0) * 100, past: PAST_TOLERANCE.has(row.status) };
  const exact = (write: (style: PercentStyle) => string) => (tolerance === undefined ? write({}) : besideTolerance(write, side));
  if (!row.figure.includes('Usd')) return rateDirection(row, { arrow, change: value - from, relative, tolerance });
  return relative === null || relative === undefined ? `${arrow} from ${driftValue(row, from)}` : `${arrow} ${exact((style) => signedPercentText(relative, style))}`;
}

/**
 * A rate's change in points (`↑ +12.5 points`); one past the tolerance by its relative change alone (rareRates.ts)
 * says that change and the runs its count moved by: `↑ +1.2 points (+600.0% relative, false stops 2 → 14)`.
 */
function rateDirection(row: DriftRow, args: { arrow: string; change: number; relative: number | null | undefined; tolerance: number | undefined }): string {
  const { arrow, change, relative, tolerance } = args;
  const pointsPast = tolerance !== undefined && Math.abs(change) > tolerance + 1e-12;
  const points = (style: PercentStyle) => signedPercentText(change, style).replace(/%$/, '');
  const past = PAST_TOLERANCE.has(row.status);
  const text = tolerance === undefined ? points({}) : besideTolerance(points, { tolerancePercent: tolerance * 100, past: past && pointsPast });
  if (tolerance === undefined || !past || pointsPast || row.rateRuns === undefined) return `${arrow} ${text} points`;
  const share = relative === null || relative === undefined ? 'from 0' : `${besideTolerance((style) => signedPercentText(relative, style), { tolerancePercent: tolerance * 100, past: true })} relative`;
  return `${arrow} ${text} points (${share}, ${row.figure === 'falseStopRate' ? 'false stops' : 'runs completed'} ${row.rateRuns.was} → ${row.rateRuns.is})`;
}

/**
 * A measured figure as `check` shows it beside its limit: money in the one money format of every report
 * (report/money.ts formatUsd: $0.2187, $0.00389), a rate or share as check writes percentages (85.5%),
 * each with a digit more only where that rounding would put the figure on the other side of its limit (or
 * on it, for a figure that fails): a figure that fails never reads as equal to, or within, its limit, and
 * one that passes never reads as past it (a failing 0.100001 is 10.0001% beside ≤ 10%, not 10%). Pure.
 */
import { formatUsd as fixedUsd, type Pico } from '../money.js';
import { roundPico } from '../moneyRounding.js';
import { formatUsd } from '../report/money.js';
import { styledPercentText } from '../report/percentText.js';

/** A limit in picodollars: a least and/or a most amount. */
export interface PicoBound {
  min?: Pico;
  max?: Pico;
}

/** A limit on a rate or share (0.1 for 10%): a least and/or a most. */
export interface ShareBound {
  min?: number;
  max?: number;
}

/** Whether `value` is within `bound` (its ends included). */
export function within<T extends number | bigint>(value: T, bound: { min?: T; max?: T }): boolean {
  return (bound.min === undefined || value >= bound.min) && (bound.max === undefined || value <= bound.max);
}

/**
 * The fewest decimals, from `from` up, at which the figure rounded is within its limit exactly when the
 * figure itself is (`holds`); `most` when none before it is. `withinAt(decimals)`: whether the figure
 * rounded to that many decimals is within the limit.
 */
export function decimalsBeside(args: { from: number; most: number; holds: boolean; withinAt: (decimals: number) => boolean }): number {
  for (let decimals = args.from; decimals < args.most; decimals += 1) {
    if (args.withinAt(decimals) === args.holds) return decimals;
  }
  return args.most;
}

/** `pico` in the report's money format, with more decimals (up to the picodollar) only while that rounding would move it across `bound`. */
export function usdBeside(pico: Pico, bound: PicoBound): string {
  const shown = formatUsd(pico);
  const point = shown.indexOf('.');
  if (point < 0) return shown; // $0: exact.
  const big = { ...(bound.min === undefined ? {} : { min: BigInt(bound.min) }), ...(bound.max === undefined ? {} : { max: BigInt(bound.max) }) };
  const from = shown.length - point - 1;
  const decimals = decimalsBeside({ from, most: 12, holds: within(BigInt(pico), big), withinAt: (d) => within(roundPico(pico, d), big) });
  return decimals === from ? shown : fixedUsd(pico, decimals);
}

/** Decimals of a percentage check shows (`85.5%`, `0.02%`). */
export const CHECK_PERCENT_DECIMALS = 2;
/** The most a percentage gets (a share to 1e-12): a limit as written, a figure beside it at most. */
export const EXACT_PERCENT_DECIMALS = 10;

/** A rate or share as check writes it at `decimals` decimals of a percent, trailing zeros dropped (`85.5%`, `0%`, `0.002%`). */
export function percentAt(share: number, decimals: number): string {
  return styledPercentText(share, { decimals, trim: true });
}

/** What a percentage as written (`10.0001%`, `1e-8%`) reads as a share: 0.100001, parsed as a limit written 0.100001 is. */
function shareRead(percent: string): number {
  const [mantissa, exponent = '0'] = percent.slice(0, -1).split('e');
  return Number(`${mantissa}e${Number(exponent) - 2}`);
}

/** `share` as check writes rates, with more decimals only while that rounding would move it across `bound` (or onto it, failing). */
export function percentBeside(share: number, bound: ShareBound): string {
  const decimals = decimalsBeside({
    from: CHECK_PERCENT_DECIMALS,
    most: EXACT_PERCENT_DECIMALS,
    holds: within(share, bound),
    withinAt: (d) => within(shareRead(percentAt(share, d)), bound),
  });
  return percentAt(share, decimals);
}

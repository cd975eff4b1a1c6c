/**
 * A measured amount of money as `check` shows it beside its limit: in the one money format of every report
 * (report/money.ts formatUsd: $0.2187, $0.00389), with a digit more only where that rounding would put
 * the figure on the other side of its limit (or on it, for a figure that fails): a figure that fails never
 * reads as equal to, or within, its limit, and one that passes never reads as past it. Pure.
 */
import { formatUsd as fixedUsd, type Pico } from '../money.js';
import { formatUsd } from '../report/money.js';

/** A limit in picodollars: a least and/or a most amount. */
export interface PicoBound {
  min?: Pico;
  max?: Pico;
}

function within(pico: bigint, bound: PicoBound): boolean {
  return (bound.min === undefined || pico >= BigInt(bound.min)) && (bound.max === undefined || pico <= BigInt(bound.max));
}

/** `pico` rounded half up (away from zero) to `decimals` decimals of a dollar, as money.ts formatUsd rounds it. */
function roundedPico(pico: Pico, decimals: number): bigint {
  const value = BigInt(pico);
  const abs = value < 0n ? -value : value;
  const unit = 10n ** BigInt(12 - decimals);
  const rounded = ((abs + unit / 2n) / unit) * unit;
  return value < 0n ? -rounded : rounded;
}

/** `pico` in the report's money format, with more decimals (up to the picodollar) only while that rounding would move it across `bound`. */
export function usdBeside(pico: Pico, bound: PicoBound): string {
  const shown = formatUsd(pico);
  const point = shown.indexOf('.');
  if (point < 0) return shown; // $0: exact.
  const holds = within(BigInt(pico), bound);
  for (let decimals = shown.length - point - 1; decimals < 12; decimals += 1) {
    if (within(roundedPico(pico, decimals), bound) === holds) return decimals === shown.length - point - 1 ? shown : fixedUsd(pico, decimals);
  }
  return fixedUsd(pico, 12);
}

/** How a report writes its percentages (check: `{ decimals: 2, trim: true }`, `85.5%`). */
export interface PercentStyle {
  /** Decimals from 1% up (default 1); below 1%, at least these when they show two significant digits. */
  decimals?: number;
  /** Trailing zeros dropped from 1% up (`85%`, `85.5%`), 0 written `0%` (default: kept, `85.0%`, `0.0%`). */
  trim?: boolean;
}

/**
 * A share (0.02) as reports write it as a percentage: one decimal from 1% up (`2.0%`, `79.3%`), two
 * significant digits below (`0.50%` is `0.5%`, `0.012%`, `1e-8%`), so a share above 0 never reads as `0.0%`
 * (`project --suggest-cap 1e-10` said "at most 0.0% asked"; a sweep's 1 run of 5,000 completed said
 * "0.0%"), and one short of 1 never as `100.0%` (`99.98%`). 0 is `0.0%`.
 */
export function percentText(share: number): string {
  return styledPercentText(share, {});
}

/** percentText in another style: more decimals, trailing zeros dropped (check's figures and limits: `85.5%`, `0%`, `0.002%`). */
export function styledPercentText(share: number, style: PercentStyle): string {
  return `${percentFigure(share * 100, style)}%`;
}

/**
 * A relative change (0.00004, -0.127) as reports write it: percentText's figure with its sign, so a change
 * that is not 0 never reads as `+0.0%` (`contexts`' "vs first" said `+0.0%` for a run 0.004% dearer; it is
 * `+0.004%`). From 1% up it is what `toFixed(decimals)` gives (`-10.0%`, `+71.7%`); no change is `0%`.
 */
export function signedPercentText(change: number, style: PercentStyle = {}): string {
  return `${signedFigure(change * 100, style)}%`;
}

/** A difference of two percentages in points, signed, by the same rule (`+2.3`, `-0.0043`, `0`): never `+0.0` when not 0. */
export function signedPointsText(points: number): string {
  return signedFigure(points, {});
}

function signedFigure(percent: number, style: PercentStyle): string {
  if (percent === 0) return '0';
  return `${percent > 0 ? '+' : ''}${percentFigure(percent, style)}`;
}

/** The figure of a percentage (`percent` already in percent), without its `%`: the one rule above. */
function percentFigure(percent: number, style: PercentStyle): string {
  const decimals = style.decimals ?? 1;
  // Decided on the value as written: 0.996% rounds to 1.0%, which is said as 1% and up are (`1.0%`, not `1%`).
  const small = Number(percent.toPrecision(2));
  if (percent === 0 || Math.abs(small) >= 1) {
    const fixed = percent.toFixed(nearWholeDecimals(percent, decimals));
    return style.trim ? String(Number(fixed)) : fixed;
  }
  // Below 1%: `decimals` decimals where they give two significant digits (0.1234% at 4), else two significant digits.
  return String(Math.abs(percent) >= 10 ** (1 - decimals) ? Number(percent.toFixed(decimals)) : small);
}

/**
 * Decimals for a percentage from 1% up: `decimals`, or as many more as keep one short of 100% from reading
 * 100% (a sweep's 4,999 of 5,000 runs cut short said "100.0%"; it is `99.98%`).
 */
function nearWholeDecimals(percent: number, decimals: number): number {
  let shown = decimals;
  while (Math.abs(percent) < 100 && Math.abs(Number(percent.toFixed(shown))) >= 100 && shown < 20) shown++;
  return shown;
}

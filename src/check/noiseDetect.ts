/**
 * What a check judged against noise bands (noise.ts; another sample than the baseline's, not paired) can
 * detect: a move within a figure's band passes as noise, so at these run counts a real change smaller than
 * the band is mostly missed (a review: +14.9% on the mean, band ±18.9% at 200 runs, caught in 14 of 40
 * re-seeded checks). From the band a check already has, in the tolerance's units: the observed move of a
 * figure is about normal, its spread σ = band / z (the band is the difference's interval at FIGURE_LEVEL), so
 * - a change of max(tolerance, band) fails half the time;
 * - one of max(tolerance, band) + z₀.₈·σ fails 4 times in 5 (80% power);
 * - bands narrow as 1/√runs: (band / tolerance)² times the runs, in the check and in its baseline, bring the
 *   band to the tolerance (past that, the tolerance alone decides).
 * Said on the report's `noise:` line (noiseText.ts). Pure.
 */
import { signedPercentText, signedPointsText, styledPercentText } from '../report/percentText.js';
import type { DriftRow } from './baseline.js';
import { FIGURE_LEVEL } from './noise.js';

/** The standard normal's p-quantile (Acklam's rational approximation, relative error < 1.2e-9), 0 < p < 1. */
export function normalQuantile(p: number): number {
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const tail = (q: number) => (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) / ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1);
  if (p < 0.02425) return tail(Math.sqrt(-2 * Math.log(p)));
  if (p > 1 - 0.02425) return -tail(Math.sqrt(-2 * Math.log(1 - p)));
  const q = p - 0.5;
  const r = q * q;
  return ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) / (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1);
}

/** z of the band: the difference's two-sided interval at FIGURE_LEVEL. */
const Z_BAND = normalQuantile(1 - (1 - FIGURE_LEVEL) / 2);
/** A change this many σ past the threshold is seen 4 times in 5. */
const Z_POWER = normalQuantile(0.8);

/** The smallest changes a band lets through, in the tolerance's units (a share of the baseline, or points as a share). */
export interface Detectable {
  /** A change of this size fails half the time. */
  half: number;
  /** A change of this size fails 4 times in 5. */
  fourInFive: number;
  /** How many times the runs (in the check and its baseline) bring the band to the tolerance: ≤ 1, already; Infinity at tolerance 0. */
  runsToTolerance: number;
}

export function detectable(band: number, tolerance: number): Detectable {
  const threshold = Math.max(tolerance, band);
  return { half: threshold, fourInFive: threshold + (Z_POWER * band) / Z_BAND, runsToTolerance: tolerance > 0 ? (band / tolerance) ** 2 : Infinity };
}

/** A row's band in the tolerance's units: money as a share of its baseline, a rate in points (as a share); undefined without one. */
function relativeBand(row: Pick<DriftRow, 'figure' | 'baseline' | 'noise'>): number | undefined {
  if (row.noise === undefined || row.noise === null || row.noise <= 0) return undefined;
  if (!row.figure.includes('Usd')) return row.noise;
  return row.baseline === null || row.baseline === 0 ? undefined : row.noise / Math.abs(row.baseline);
}

/** Two significant figures, grouped: `2,900`, `540`, `14`. */
function roughly(n: number): string {
  const digits = Math.max(0, Math.floor(Math.log10(n)) - 1);
  return (Math.round(n / 10 ** digits) * 10 ** digits).toLocaleString('en-US');
}

/**
 * `what it can see: at 200 runs a move within its band passes as noise — costPerRunUsd.mean fails half the time
 * moved ±18.9%, 4 times in 5 moved ±24.7%; ~2,900 runs (14× these, in the check and in its baseline) bring its
 * band to the 5% tolerance`; of the mean per run, else the completion rate; undefined when neither has a band.
 */
export function detectText(rows: readonly DriftRow[], args: { tolerance: number; runs?: number }): string | undefined {
  const row = ['costPerRunUsd.mean', 'completionRate'].map((figure) => rows.find((r) => r.figure === figure)).find((r) => r !== undefined && relativeBand(r) !== undefined);
  if (row === undefined) return undefined;
  const band = relativeBand(row)!;
  const money = row.figure.includes('Usd');
  const size = (share: number) => (money ? `±${signedPercentText(share).replace(/^\+/, '')}` : `±${signedPointsText(share * 100).replace(/^\+/, '')} points`);
  const tolerance = money ? styledPercentText(args.tolerance, { decimals: 4, trim: true }) : `${signedPointsText(args.tolerance * 100).replace(/^\+/, '')}-point`;
  const { half, fourInFive, runsToTolerance } = detectable(band, args.tolerance);
  const at = args.runs === undefined ? 'at these runs' : `at ${args.runs.toLocaleString('en-US')} runs`;
  const seen = `what it can see: ${at} a move within its band passes as noise — ${row.figure} fails half the time moved ${size(half)}, 4 times in 5 moved ${size(fourInFive)}`;
  if (runsToTolerance === Infinity) return seen;
  if (runsToTolerance <= 1) return `${seen}; its band is within the ${tolerance} tolerance: the tolerance decides`;
  const runs = args.runs === undefined ? '' : `~${roughly(runsToTolerance * args.runs)} runs (`;
  return `${seen}; ${runs}${roughly(runsToTolerance)}× ${args.runs === undefined ? 'the runs, ' : 'these, '}in the check and in its baseline${runs === '' ? '' : ')'} bring its band to the ${tolerance} tolerance`;
}

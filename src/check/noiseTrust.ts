/**
 * Whether a band a baseline stored (`noise`, noise.ts) is one a resample of its own runs could give. The file is
 * text anyone can edit: a band wider than its runs allow (noise.costPerRunUsd.mean 0.004 over a mean of $0.00388)
 * would let any change of that figure pass as noise. Such a band is not used: the band now, scaled to the
 * baseline's runs, takes its place (as for a baseline that stored none), and the report says so (never a wider
 * band, so never a PASS the stored runs could not give). What a resample of N runs (S of them synthetic) can give:
 * - every figure lies within its range, so its band is at most half of it: a rate or share ½, a cost per run half the
 *   largest run (`max`), the total N times that;
 * - a mean's resamples spread as σ/√S of the synthetic runs', and σ² ≤ m·(max − m) for costs of mean m in
 *   [0, max] (Bhatia–Davis): its band is at most Z·√(m·max/N) (the recorded runs, fixed, count in N only), Z the
 *   band's normal quantile, doubled for the skew of a percentile interval of few runs (a lone outlier in 10 to 1,000
 *   runs gave 0.9 Z·σ);
 * - a completion rate's likewise, σ² ≤ min(¼, N·p/S, N·(1−p)/S).
 * Pure.
 */
import type { BaselineFigures } from './baselineFile.js';
import { normalQuantile } from './noiseDetect.js';
import { FIGURE_LEVEL } from './noise.js';

/** The band's normal quantile (noiseDetect.ts Z_BAND), doubled: the slack for a percentile interval's skew. */
const Z_SLACK = 2 * normalQuantile(1 - (1 - FIGURE_LEVEL) / 2);

/** The widest band of `figure` a resample of the baseline's runs could give, in its units; undefined where none is known. */
export function widestBand(figure: string, before: { figures: BaselineFigures; syntheticRuns?: number }): number | undefined {
  const f = before.figures;
  const n = f.runs;
  const s = Math.min(n, Math.max(1, before.syntheticRuns ?? n));
  const max = f.costPerRunUsd.max;
  const m = f.costPerRunUsd.mean;
  const meanBand = Math.min(max / 2, Z_SLACK * Math.sqrt((m * max) / n));
  switch (figure) {
    case 'completionRate': {
      const p = f.completionRate;
      return Math.min(0.5, (Z_SLACK * Math.sqrt(s) * Math.sqrt(Math.min(0.25, (n * p) / s, (n * (1 - p)) / s))) / n);
    }
    case 'falseStopRate':
    case 'wastedShare':
      return 0.5;
    case 'costPerRunUsd.mean':
      return meanBand;
    case 'costUsd':
      return n * meanBand;
    case 'costPerRunUsd.p50':
    case 'costPerRunUsd.p95':
      return max / 2;
    case 'costPerCompletedUsd':
      return (n * max) / 2;
    default:
      return undefined;
  }
}

/** A stored band past what its runs could give: the band and that most (for the report). */
export interface DistrustedBand {
  stored: number;
  most: number;
}

/** The stored band `stored` of `figure`, when it is wider than the baseline's runs could give (a tiny slack for rounding). */
export function distrusted(figure: string, stored: number | null | undefined, before: { figures: BaselineFigures; syntheticRuns?: number }): DistrustedBand | undefined {
  if (stored === undefined || stored === null) return undefined;
  const most = widestBand(figure, before);
  return most !== undefined && stored > most * (1 + 1e-9) + 1e-12 ? { stored, most } : undefined;
}

/**
 * Token sizes and step counts as distributions. Every draw is a whole number (tokens and steps are
 * counts): continuous draws are rounded and held at a floor (0, or 1 for step counts).
 *   fixed      always `value`
 *   uniform    a whole number from min to max, each equally likely
 *   normal     mean and standard deviation (rounded, never below the floor)
 *   lognormal  given by its median and 95th percentile (σ = ln(p95 / median) / 1.645): heavy right tail
 *   empirical  quantiles at evenly spaced probabilities 0, 1/(n−1), …, 1 (e.g. the sorted values of a
 *              sample), interpolated linearly: its p-quantile is the sample's (type 7, as numpy's)
 */
import { UserError } from '../errors.js';
import { MAX_COUNT } from '../io/limits.js';
import type { Rng } from './random.js';

export type Distribution =
  | { kind: 'fixed'; value: number }
  | { kind: 'uniform'; min: number; max: number }
  | { kind: 'normal'; mean: number; sd: number }
  | { kind: 'lognormal'; median: number; p95: number }
  | { kind: 'empirical'; quantiles: number[] };

/** A bare number is short for `{kind: fixed, value: n}`. */
export type DistributionSpec = number | Distribution;

/** z of the standard normal's 95th percentile. */
export const Z95 = 1.6448536269514722;

export function asDistribution(spec: DistributionSpec): Distribution {
  return typeof spec === 'number' ? { kind: 'fixed', value: spec } : spec;
}

/** One real-valued draw (before rounding). */
export function drawReal(spec: DistributionSpec, rng: Rng): number {
  if (typeof spec === 'number') return spec; // fixed: no object per draw
  const dist = spec;
  switch (dist.kind) {
    case 'fixed':
      return dist.value;
    case 'uniform':
      return rng.int(Math.ceil(dist.min), Math.floor(dist.max));
    case 'normal':
      return dist.mean + dist.sd * rng.normal();
    case 'lognormal': {
      const sigma = Math.log(dist.p95 / dist.median) / Z95;
      return dist.median * Math.exp(sigma * rng.normal());
    }
    case 'empirical':
      return interpolate(dist.quantiles, rng.next());
  }
}

/**
 * A draw past the largest count held exactly (2^53 − 1, the cap on a trace's token counts), or no number
 * at all: a distribution's tail (a lognormal's, a normal's, times a size scale) can reach past any cap its
 * parameters obey. A UserError naming what drew it when known (`field`); the scenario runner adds the
 * file and the population entry (src/scenario/drawPlace.ts).
 */
export class DrawOutOfRange extends UserError {
  constructor(
    readonly value: number,
    readonly spec: DistributionSpec,
    readonly field?: string,
    readonly scale?: number,
  ) {
    const times = scale === undefined ? '' : ` (its draw times the run's sizeScale ${scale})`;
    super({
      code: 'draw_too_large',
      ...(field === undefined ? {} : { field }),
      message: `drew ${value}${times}, more than ${MAX_COUNT} (2^53 − 1), the largest count held exactly`,
      hint: 'the distribution reaches past any real run: lower its p95 (lognormal), sd (normal) or the sizeScale',
    });
  }
}

/** `value` (a rounded draw) when it is a count held exactly; else a DrawOutOfRange. */
export function checkedCount(value: number, spec: DistributionSpec, field?: string, scale?: number): number {
  // Written so that NaN fails too.
  if (!(value <= MAX_COUNT)) throw new DrawOutOfRange(value, spec, field, scale);
  return value;
}

/** One whole-number draw, never below `floor`; past the largest count, a DrawOutOfRange. */
export function drawCount(spec: DistributionSpec, rng: Rng, floor = 0, field?: string): number {
  return checkedCount(Math.max(floor, Math.round(drawReal(spec, rng))), spec, field);
}

/** The value at probability p of quantiles given at evenly spaced probabilities. */
function interpolate(quantiles: readonly number[], p: number): number {
  if (quantiles.length === 1) return quantiles[0]!;
  const position = p * (quantiles.length - 1);
  const i = Math.min(Math.floor(position), quantiles.length - 2);
  return quantiles[i]! + (position - i) * (quantiles[i + 1]! - quantiles[i]!);
}

/** The p-quantile of sorted values, interpolated linearly (type 7, numpy's default). */
export function quantile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return interpolate(sorted, p);
}

/** n evenly spaced quantiles of a sample (all its values, sorted, when it has at most n). */
export function empiricalOf(values: readonly number[], points = 101): Distribution {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length <= points) return { kind: 'empirical', quantiles: sorted };
  const quantiles = Array.from({ length: points }, (_, i) => Math.round(quantile(sorted, i / (points - 1))));
  return { kind: 'empirical', quantiles };
}

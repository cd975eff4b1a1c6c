/**
 * Exact binomial variates from a stream of uniform doubles, for `project`'s days drawn as multinomial
 * counts (src/population/projectDays.ts). Two classic methods, as PyTorch's `sample_binomial`
 * (aten/src/ATen/native/Distributions.h) and TensorFlow's random_binomial combine them:
 * - n·p < 10: inversion by geometric waiting times (each the number of trials to the next success;
 *   the count of successes that fit in n trials), ~n·p + 1 uniforms;
 * - else BTRS, Hörmann's transformed rejection with squeeze ("The generation of binomial random
 *   variates", J. Statist. Comput. Simul. 46, 1993): ~2.2 uniforms a variate, a log or three only
 *   outside the squeeze, the log-factorials by Stirling's series with a table of its tail for k < 10.
 * Both are exact rejection or inversion methods: the variate's law is the binomial's, up to the
 * rounding of double arithmetic. p > 1/2 is drawn as n minus a variate with 1 − p.
 * Pure: the caller passes the uniforms (a seeded stream), in [0, 1).
 */

/** Uniform doubles in [0, 1), seeded (no Math.random): src/synthetic/random.ts's Rng. */
export interface Uniform {
  next(): number;
}

/** log(k!) − [(k + ½)·log(k + 1) − (k + 1) + ½·log(2π)], Stirling's tail, for k = 0…9. */
const STIRLING_TAIL = [
  0.08106146679532726, 0.04134069595540929, 0.02767792568499834, 0.02079067210376509, 0.01664469118982119, 0.01387612882307075, 0.01189670994589177, 0.01041126526197209, 0.009255462182712733,
  0.008330563433362871,
];

/** Stirling's tail of log(k!) (above): the table below 10, else the series 1/12 − 1/360 + 1/1260 in 1/(k + 1). */
export function stirlingTail(k: number): number {
  if (k < 10) return STIRLING_TAIL[k]!;
  const inverse = 1 / (k + 1);
  const inverseSquared = inverse * inverse;
  return (1 / 12 - (1 / 360 - inverseSquared / 1260) * inverseSquared) * inverse;
}

/** Below this mean a variate is drawn by inversion, at or above it by BTRS (whose constants hold from n·p ≥ 10). */
const BTRS_FROM_MEAN = 10;

/** Successes in n trials of probability p (a whole number n ≥ 0, 0 ≤ p ≤ 1). */
export function binomialDraw(n: number, p: number, uniform: Uniform): number {
  if (n === 0 || p <= 0) return 0;
  if (p >= 1) return n;
  if (p > 0.5) return n - binomialDraw(n, 1 - p, uniform);
  return n * p < BTRS_FROM_MEAN ? byInversion(n, p, uniform) : byBtrs(n, p, uniform);
}

/** Inversion: geometric waiting times (trials up to and including the next success) summed until they pass n. */
function byInversion(n: number, p: number, uniform: Uniform): number {
  const logFailure = Math.log1p(-p);
  let trials = 0;
  let successes = 0;
  for (;;) {
    // 1 − u is in (0, 1]: its log is finite or 0 (a wait of 0 trials is impossible, so at least 1).
    trials += Math.max(1, Math.ceil(Math.log(1 - uniform.next()) / logFailure));
    if (trials > n) return successes;
    successes += 1;
  }
}

/** BTRS's constants for one (n, p), p ≤ ½, n·p ≥ 10 (Hörmann's names: b, a, c, v_r, α, m). */
export interface Btrs {
  n: number;
  a: number;
  b: number;
  c: number;
  /** v_r: below it (and us ≥ 0.07) a candidate is accepted without the density ratio. */
  squeezeV: number;
  alpha: number;
  /** p / (1 − p). */
  odds: number;
  mode: number;
  /** The terms of log f(k)/f(mode) that depend on the mode alone. */
  atMode: number;
}

export function btrs(n: number, p: number): Btrs {
  const spread = Math.sqrt(n * p * (1 - p));
  const b = 1.15 + 2.53 * spread;
  const odds = p / (1 - p);
  const mode = Math.floor((n + 1) * p);
  return {
    n,
    a: -0.0873 + 0.0248 * b + 0.01 * p,
    b,
    c: n * p + 0.5,
    squeezeV: 0.92 - 4.2 / b,
    alpha: (2.83 + 5.1 / b) * spread,
    odds,
    mode,
    atMode: (mode + 0.5) * Math.log((mode + 1) / (odds * (n - mode + 1))) + stirlingTail(mode) + stirlingTail(n - mode),
  };
}

/** log(f(k) / f(mode)) of the binomial's density, by Stirling's series (exact to its tail's rounding). */
export function logRatioToMode(s: Btrs, k: number): number {
  const { n, odds } = s;
  return s.atMode + (n + 1) * Math.log((n - s.mode + 1) / (n - k + 1)) + (k + 0.5) * Math.log((odds * (n - k + 1)) / (k + 1)) - stirlingTail(k) - stirlingTail(n - k);
}

/** The candidate of a uniform pair (u in [−½, ½), v in [0, 1)), and whether it is accepted: -1 when not. */
export function btrsCandidate(s: Btrs, u: number, v: number): number {
  const us = 0.5 - Math.abs(u);
  const k = Math.floor(((2 * s.a) / us + s.b) * u + s.c);
  if (!(k >= 0 && k <= s.n)) return -1;
  if (us >= 0.07 && v <= s.squeezeV) return k;
  return Math.log((v * s.alpha) / (s.a / (us * us) + s.b)) <= logRatioToMode(s, k) ? k : -1;
}

/** BTRS: candidates from pairs of uniforms until one is accepted (~1.1 pairs a variate). */
function byBtrs(n: number, p: number, uniform: Uniform): number {
  const s = btrs(n, p);
  for (;;) {
    const u = uniform.next() - 0.5;
    const k = btrsCandidate(s, u, uniform.next());
    if (k >= 0) return k;
  }
}

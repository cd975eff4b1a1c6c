/**
 * The largest and smallest of a list of numbers, by a loop. `Math.max(...values)` passes every value as
 * an argument and overflows the stack past ~120k of them (a population of that many runs, a trace of
 * that many steps); these take any length. Like Math.max/min, a NaN anywhere gives NaN.
 */

/** The largest of `values`, or `empty` when there are none (Math.max() of nothing is -Infinity). */
export function maxOf(values: ArrayLike<number>, empty = -Infinity): number {
  if (values.length === 0) return empty;
  let best = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const value = values[i]!;
    if (Number.isNaN(value)) return NaN;
    if (value > best) best = value;
  }
  return best;
}

/** The smallest of `values`, or `empty` when there are none (Math.min() of nothing is Infinity). */
export function minOf(values: ArrayLike<number>, empty = Infinity): number {
  if (values.length === 0) return empty;
  let best = Infinity;
  for (let i = 0; i < values.length; i++) {
    const value = values[i]!;
    if (Number.isNaN(value)) return NaN;
    if (value < best) best = value;
  }
  return best;
}

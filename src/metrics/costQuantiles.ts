/**
 * Nearest-rank cost quantiles (median, 95th percentile) and maximum, selected (quickselect), not sorted
 * for: exactly the values a sort of all the costs would give.
 */

/** In picodollars. */
export interface CostQuantiles {
  p50: number;
  p95: number;
  max: number;
}
/** The 0-based index of the nearest-rank p-quantile among n ascending values (n > 0). */
export function rankIndex(n: number, p: number): number {
  return Math.min(Math.max(1, Math.ceil(p * n)), n) - 1;
}

/**
 * The value at index k were a[lo..hi] sorted ascending, a partly ordered in place so that every value
 * before index k is at most it (quickselect, Hoare partition around a median of three: linear on average).
 */
function selectInPlace(a: Float64Array, k: number, lo: number, hi: number): number {
  while (lo < hi) {
    const x = a[lo]!;
    const y = a[(lo + hi) >>> 1]!;
    const z = a[hi]!;
    const pivot = x < y ? (y < z ? y : x < z ? z : x) : x < z ? x : y < z ? z : y;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i++] = a[j]!;
        a[j--] = t;
      }
    }
    // a[lo..j] ≤ pivot, a[j+1..i−1] = pivot, a[i..hi] ≥ pivot.
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k]!;
  }
  return a[k]!;
}

/**
 * Where parts are joined for selection: one array per thread, grown when too short and reused (a sweep
 * selects the quantiles of every configuration's costs, ~8 bytes a run each: at 32,000 runs × 960
 * configurations a new array each was ~245 MB of buffers allocated, zeroed and collected).
 */
let joined = new Float64Array(0);

/** Costs in parts, one after another at the start of the shared join array (valid until the next join). */
function joinCosts(parts: readonly Float64Array[]): Float64Array {
  const n = parts.reduce((sum, part) => sum + part.length, 0);
  if (joined.length < n) joined = new Float64Array(Math.max(n, Math.min(2 * joined.length, MAX_KEPT_JOIN_LENGTH)));
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.length;
  }
  return joined.length === n ? joined : joined.subarray(0, n);
}

/** Past this many costs (8 MB) the join array grows to the size asked only (no doubling ahead). */
const MAX_KEPT_JOIN_LENGTH = 1 << 20;

/**
 * costQuantiles of the costs in `parts`, selected in the part itself when there is one, which it
 * reorders (for costs in no particular order), else in the parts joined (a copy: the parts are left as
 * they are).
 */
export function costQuantilesInPlace(parts: readonly Float64Array[]): CostQuantiles {
  const a = parts.length === 1 ? parts[0]! : joinCosts(parts);
  const n = a.length;
  if (n === 0) return { p50: 0, p95: 0, max: 0 };
  let max = a[0]!;
  for (let i = 1; i < n; i++) if (a[i]! > max) max = a[i]!;
  const at95 = rankIndex(n, 0.95);
  const p95 = selectInPlace(a, at95, 0, n - 1);
  // Every value before at95 is at most p95: the median is among a[0..at95].
  return { p50: selectInPlace(a, rankIndex(n, 0.5), 0, at95), p95, max };
}

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
export function selectInPlace(a: Float64Array, k: number, lo: number, hi: number): number {
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
 * costQuantiles of the costs in `parts`: many costs (SAMPLED_SELECTION_MIN or more) by one pass over the
 * parts around pivots taken from a sample (sampledQuantiles, the parts left as they are), else selected
 * in the part itself when there is one, which it reorders (for costs in no particular order), else in
 * the parts joined (a copy: the parts are left as they are).
 */
export function costQuantilesInPlace(parts: readonly Float64Array[]): CostQuantiles {
  const n = parts.reduce((sum, part) => sum + part.length, 0);
  if (n >= SAMPLED_SELECTION_MIN) {
    const sampled = sampledQuantiles(parts, n);
    if (sampled !== undefined) return sampled;
  }
  const a = parts.length === 1 ? parts[0]! : joinCosts(parts);
  if (n === 0) return { p50: 0, p95: 0, max: 0 };
  let max = a[0]!;
  for (let i = 1; i < n; i++) if (a[i]! > max) max = a[i]!;
  const at95 = rankIndex(n, 0.95);
  const p95 = selectInPlace(a, at95, 0, n - 1);
  // Every value before at95 is at most p95: the median is among a[0..at95].
  return { p50: selectInPlace(a, rankIndex(n, 0.5), 0, at95), p95, max };
}

/**
 * From this many costs on, quantiles are selected from a sample's pivots: quickselect's partitions over
 * costs in no particular order mispredict a branch about every other comparison (~24 ns a cost: ~0.9 s
 * for 32,000 runs × 960 configurations), a pass that counts against two pivots mostly does not.
 */
const SAMPLED_SELECTION_MIN = 4096;
/** Costs in the sample (every ⌊n / SAMPLE_COSTS⌋-th). */
const SAMPLE_COSTS = 1024;
/** Sample ranks the pivots are set either side of a quantile's: ~3.5 standard deviations of where it falls (binomial), and 2. */
function marginRanks(m: number, p: number): number {
  return Math.ceil(3.5 * Math.sqrt(m * p * (1 - p))) + 2;
}

/** Where a band's costs are gathered (each quantile its own), grown when too short and reused. */
let band0 = new Float64Array(0);
let band1 = new Float64Array(0);

/**
 * The quantiles of n costs in parts by one pass: for each of p50 and p95, pivots lo ≤ hi from a
 * sample around its rank; the pass counts the costs below lo, gathers those in [lo, hi] and finds the
 * maximum; when the quantile's rank falls in its band (the costs below lo come first, those above hi
 * after), it is selected in the band. Exact; undefined when a rank falls outside its band (an unlucky
 * sample: the caller selects among all the costs).
 */
function sampledQuantiles(parts: readonly Float64Array[], n: number): CostQuantiles | undefined {
  const rank0 = rankIndex(n, 0.5);
  const rank1 = rankIndex(n, 0.95);
  const sample = sampleOf(parts, n);
  const m = sample.length;
  const margin0 = marginRanks(m, 0.5);
  const margin1 = marginRanks(m, 0.95);
  const at0 = Math.floor((rank0 * m) / n);
  const at1 = Math.floor((rank1 * m) / n);
  const pivots = sampleRanks(sample, [at0 - margin0, at0 + margin0, at1 - margin1, at1 + margin1]);
  const lo0 = pivots[0]!;
  const hi0 = pivots[1]!;
  const lo1 = pivots[2]!;
  const hi1 = pivots[3]!;
  if (band0.length < n) {
    band0 = new Float64Array(n);
    band1 = new Float64Array(n);
  }
  const { below0, below1, in0, in1, max } = scanBands(parts, lo0, hi0, lo1, hi1);
  const r0 = rank0 - below0;
  const r1 = rank1 - below1;
  if (r0 < 0 || r0 >= in0 || r1 < 0 || r1 >= in1) return undefined;
  return { p50: selectInPlace(band0, r0, 0, in0 - 1), p95: selectInPlace(band1, r1, 0, in1 - 1), max };
}

/** What one pass over the costs counts against two bands [lo0, hi0] and [lo1, hi1] (each band's costs gathered at the start of band0, band1). */
interface BandCounts {
  below0: number;
  below1: number;
  in0: number;
  in1: number;
  max: number;
}

const counts: BandCounts = { below0: 0, below1: 0, in0: 0, in1: 0, max: -Infinity };

/**
 * The pass, a function of its own: V8 compiled sampledQuantiles' loop on the stack part way through a
 * call, before the code after it had type feedback, and threw that code away at the first subtraction
 * after the loop — about once a call, ~40 times a sweep, each time the loop starting over in the interpreter.
 * For the same reason the counts are stored at the top of each part's turn, and once more after the last
 * part: one store site, which has run before V8 compiles the loop (stores after the loop made its compiled
 * code bail out at the end of every call, up to once per configuration of a sweep).
 */
function scanBands(parts: readonly Float64Array[], lo0: number, hi0: number, lo1: number, hi1: number): BandCounts {
  let below0 = 0;
  let below1 = 0;
  let in0 = 0;
  let in1 = 0;
  let max = -Infinity;
  for (let p = 0; ; p++) {
    counts.below0 = below0;
    counts.below1 = below1;
    counts.in0 = in0;
    counts.in1 = in1;
    counts.max = max;
    if (p === parts.length) return counts;
    const part = parts[p]!;
    for (let i = 0; i < part.length; i++) {
      const x = part[i]!;
      if (x > max) max = x;
      // Without a branch (about half the costs are below the median's pivot): each cost written at the
      // end of each band, which keeps it only when it is in it.
      below0 += +(x < lo0);
      below1 += +(x < lo1);
      band0[in0] = x;
      in0 += +(x >= lo0) & +(x <= hi0);
      band1[in1] = x;
      in1 += +(x >= lo1) & +(x <= hi1);
    }
  }
}

/**
 * The sample's costs at `ranks` (each clamped to the sample) were it sorted: selected one after another
 * in ascending rank, each among the costs from the last one on (a selection leaves none smaller after
 * it), not sorted (~4 passes over the sample against a sort of it).
 */
function sampleRanks(sample: Float64Array, ranks: number[]): Float64Array {
  const last = sample.length - 1;
  const clamped = ranks.map((rank) => Math.min(last, Math.max(0, rank)));
  const order = clamped.map((_, k) => k).sort((a, b) => clamped[a]! - clamped[b]!);
  const values = new Float64Array(ranks.length);
  let from = 0;
  for (const k of order) {
    values[k] = selectInPlace(sample, clamped[k]!, from, last);
    from = clamped[k]!;
  }
  return values;
}

/** Every ⌊n / SAMPLE_COSTS⌋-th cost of the parts (as if joined), in their order. */
function sampleOf(parts: readonly Float64Array[], n: number): Float64Array {
  const step = Math.max(1, Math.floor(n / SAMPLE_COSTS));
  const sample = new Float64Array(Math.ceil(n / step));
  let k = 0;
  let skip = 0;
  for (const part of parts) {
    for (let i = skip; i < part.length; i += step) sample[k++] = part[i]!;
    skip = (skip - part.length) % step;
    if (skip < 0) skip += step;
  }
  return sample.subarray(0, k);
}

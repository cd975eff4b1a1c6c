/**
 * Closed form of the fast loop over a stretch of plain calls (each a step whose tool calls all run, no
 * flag that needs care, no recorded prompt size).
 *
 * Over plain calls the context grows by one step per call, of κ_k = output + results (each capped by
 * the strategy) tokens. With K = Σ_{m<k} κ_m (StepSums.before) the prompt of call k is
 *
 *   full history   view_k = b + K[k]                  (b constant over the stretch; views only grow)
 *   window of w    view_k = fixed + K[k] − K[k − w]    (once the window holds only this stretch's steps)
 *
 * and every running figure is a sum of per-call terms summed in advance over calls:
 *
 *   Σ view over calls x..j−1     from S[j] − S[x] (S = StepSums.beforeSum, the running sum of K)
 *   cache on, full history       call k reuses the previous prompt whole: cached_k = view_{k−1}, the rest
 *                                view_k − view_{k−1} is uncached (or written, with a cache-write price)
 *   cache on, window             the window slid: only system + goal is reused, cached_k = fixed
 *   output, reasoning, latency   differences of running totals (compile.ts)
 *
 * All of it is whole numbers below 2^53 (token counts, integer picodollar prices), so these sums equal,
 * to the last digit, what adding call by call gives. Time too when every latency is a whole number;
 * otherwise it is added call by call, in the readable path's order (fractions round differently in
 * another order), in a scan that does nothing else. Every brake checked before a call (timeout,
 * budget, predictive budget, tokens, context window) compares a non-decreasing figure with a limit, so
 * the first call where one may fire is found by binary search, not by a walk.
 *
 * The caller guarantees: cache off or on, integer non-negative prices, t.closedForm, a non-negative cap
 * and fixed prompt, a whole window. Calls with a recorded prompt size end the stretch, and so does
 * anything the closed form cannot bound (the per-step loop takes it).
 */
import type { CompiledTrace } from './compile.js';

/** State in and out (a Float64Array, so nothing is boxed). */
export const CF_SPENT = 0;
export const CF_ELAPSED = 1;
export const CF_TOKENS = 2;
export const CF_CACHED = 3;
export const CF_WRITE = 4;
/** Kept and uncapped tokens of the context. */
export const CF_KEPT = 5;
export const CF_RAW = 6;
/** The previous prompt (full history: what the cache can reuse). */
export const CF_PREV_VIEW = 7;
export const closedFormState = new Float64Array(8);

/** Limits and settings the closed form needs, at these indices of a Float64Array. */
export const CL_FIXED = 0;
export const CL_TIMEOUT = 1;
export const CL_BUDGET = 2;
export const CL_PREDICT_BUDGET = 3;
export const CL_MAX_TOKENS = 4;
export const CL_WINDOW = 5;
export const CL_CACHE_ON = 6;
export const CL_CACHE_WRITE_PRICE = 7;
/** Steps a window keeps; Infinity for full history. */
export const CL_KEEP = 8;
/** 1 when the uncapped context must be tracked too (raw prefix sums). */
export const CL_TRACK_RAW = 9;
/** 1 when every latency (recorded or modelled) is a whole number: time may be summed out of order. */
export const CL_EXACT_TIME = 10;
/** The latency model (0 without one) and the modelled latency of a tool call. */
export const CL_MODEL_CALL_MS = 11;
export const CL_MODEL_INPUT_MS = 12;
export const CL_MODEL_OUTPUT_MS = 13;
export const CL_PER_TOOL_MS = 14;
export const closedFormLimits = new Float64Array(15);

const EXACT = 2 ** 52;

/** Step tokens under one cap, summed over calls: before[i] = Σ_{k<i} κ_k, beforeSum[i] = Σ_{k<i} before[k]. */
export interface StepSums {
  before: Float64Array;
  beforeSum: Float64Array;
}

const cappedSums = new WeakMap<CompiledTrace, { cap: number; sums: StepSums | null }>();

/**
 * The step sums of a trace under a tool-result cap (Infinity: compiled with the trace); null when they
 * would not be exact. The last cap's sums are kept with the trace, so replaying one strategy under many
 * brake settings computes them once.
 */
export function stepSums(t: CompiledTrace, cap: number): StepSums | null {
  if (cap === Infinity) return { before: t.stepTokensBefore, beforeSum: t.stepTokensBeforeSum };
  const cachedSums = cappedSums.get(t);
  if (cachedSums !== undefined && cachedSums.cap === cap) return cachedSums.sums;
  const n = t.calls;
  const before = new Float64Array(n + 1);
  const beforeSum = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) {
    let kept = t.output[i]!;
    for (let j = t.toolStart[i]!; j < t.toolStart[i + 1]!; j++) kept += Math.min(t.resultTokens[j]!, cap);
    before[i + 1] = before[i]! + kept;
    beforeSum[i + 1] = beforeSum[i]! + before[i]!;
  }
  const sums = beforeSum[n]! < EXACT ? { before, beforeSum } : null;
  cappedSums.set(t, { cap, sums });
  return sums;
}

/** Running totals over calls x..j−1 of one stretch at one price tier. */
class Stretch {
  constructor(
    readonly t: CompiledTrace,
    readonly steps: StepSums,
    readonly x: number,
    /** Full history: view_k = b + before[k]. Window: the system + goal prompt. */
    readonly b: number,
    /** Steps the window keeps; 0 for full history. */
    readonly keep: number,
    /** The previous call's prompt (view_{x−1}); full history only. */
    readonly prevView: number,
    readonly cacheOn: boolean,
    readonly cacheWritePrice: boolean,
    readonly pInput: number,
    readonly pCached: number,
    readonly pWrite: number,
    readonly pOutput: number,
    readonly pReasoning: number,
  ) {}

  view(k: number): number {
    const before = this.steps.before;
    return this.keep === 0 ? this.b + before[k]! : this.b + before[k]! - before[k - this.keep]!;
  }

  /** Σ view over calls x..j−1. */
  viewSum(j: number): number {
    const s = this.steps.beforeSum;
    const x = this.x;
    if (this.keep === 0) return (j - x) * this.b + s[j]! - s[x]!;
    return (j - x) * this.b + s[j]! - s[x]! - (s[j - this.keep]! - s[x - this.keep]!);
  }

  /** Σ cached over calls x..j−1 (cache on). */
  cachedSum(j: number): number {
    if (this.keep !== 0) return (j - this.x) * this.b;
    return j > this.x ? this.prevView + this.viewSum(j - 1) : 0;
  }

  /** Σ (view − cached) over calls x..j−1: uncached, or written with a cache-write price. */
  growth(j: number): number {
    if (this.keep !== 0) return this.viewSum(j) - this.cachedSum(j);
    return j > this.x ? this.view(j - 1) - this.prevView : 0;
  }

  /** Σ cost over calls x..j−1. */
  cost(j: number): number {
    const t = this.t;
    const output = this.pOutput * (t.plainOutputBefore[j]! - t.plainOutputBefore[this.x]!) + this.pReasoning * (t.reasoningBefore[j]! - t.reasoningBefore[this.x]!);
    if (!this.cacheOn) return this.pInput * this.viewSum(j) + output;
    return (this.cacheWritePrice ? this.pWrite : this.pInput) * this.growth(j) + this.pCached * this.cachedSum(j) + output;
  }

  /** Σ (input + output) over calls x..j−1. */
  tokens(j: number): number {
    return this.viewSum(j) + this.t.outputBefore[j]! - this.t.outputBefore[this.x]!;
  }

  latency(j: number): number {
    return this.t.stepLatencyBefore[j]! - this.t.stepLatencyBefore[this.x]!;
  }
}

/** The first k in [lo, hi) with values[k] > limit (values non-decreasing), or hi. */
function firstAbove(values: Float64Array | Int32Array, lo: number, hi: number, limit: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid]! > limit) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * Makes plain calls a..e−1 in closed form until a brake before a call may fire, or a call's latency
 * is not all recorded, or its prompt size is. With a window of w steps, call a must be at least w + 1 calls into the stretch
 * (its window holds only the stretch's steps, and slid at the previous call). Writes the prefix sums
 * of the new steps that later calls may read from prefix[len + 1] (rawPrefix likewise). Returns the
 * call reached (a when nothing was done); closedFormState holds the state there.
 */
export function advanceClosedForm(t: CompiledTrace, steps: StepSums, a: number, e: number, rows: Float64Array, tierCount: number, prefix: Float64Array, rawPrefix: Float64Array, len: number): number {
  const st = closedFormState;
  const lim = closedFormLimits;
  // Time in closed form only when every latency of the stretch is a recorded whole number; otherwise
  // it is added call by call, in order, as the readable path adds it (fractions round differently in
  // another order).
  const missing = t.latencyMissingBefore;
  const timeByCall = lim[CL_EXACT_TIME] !== 1 || missing[e] !== missing[a];
  // Stop before the first call whose prompt size is recorded.
  const recorded = t.recordedInputBefore;
  if (recorded[e] !== recorded[a]) e = firstAbove(recorded, a + 1, e + 1, recorded[a]!) - 1;
  if (e <= a) return a;

  const fixed = lim[CL_FIXED]!;
  const timeout = lim[CL_TIMEOUT]!;
  const budget = lim[CL_BUDGET]!;
  const predictBudget = lim[CL_PREDICT_BUDGET]!;
  const maxTokens = lim[CL_MAX_TOKENS]!;
  const window = lim[CL_WINDOW]!;
  const cacheOn = lim[CL_CACHE_ON] === 1;
  const cacheWritePrice = lim[CL_CACHE_WRITE_PRICE] === 1;
  const windowed = lim[CL_KEEP] !== Infinity;
  const keep = windowed ? lim[CL_KEEP]! : 0;
  const before = steps.before;
  const callData = t.callData;
  const toolStart = t.toolStart;
  const toolLatencyMs = t.toolLatencyMs;
  // Without a latency model a call without latency takes 0 ms: 0 + input · 0 + output · 0.
  const modelCallMs = lim[CL_MODEL_CALL_MS]!;
  const modelInputMs = lim[CL_MODEL_INPUT_MS]!;
  const modelOutputMs = lim[CL_MODEL_OUTPUT_MS]!;
  const perToolMs = lim[CL_PER_TOOL_MS]!;
  let spent = st[CF_SPENT]!;
  let elapsed = st[CF_ELAPSED]!;
  let tokens = st[CF_TOKENS]!;
  let cached = st[CF_CACHED]!;
  let written = st[CF_WRITE]!;
  const kept = st[CF_KEPT]!;
  let prevView = st[CF_PREV_VIEW]!;
  let tier = 0;
  let b: number;
  if (windowed) {
    b = fixed;
    // Views go up and down: bound them (no step keeps more than the largest uncapped step) and leave
    // the stretch to the per-step loop when the bound reaches the context window or a price tier.
    const bound = fixed + keep * t.maxStepTokens;
    if (bound > window || (tierCount > 0 && bound > rows[7]!) || bound >= EXACT) return a;
    if (keep === 0) return a;
  } else {
    b = fixed + kept - before[a]!;
    // Cache on, the previous prompt must be a prefix of this one (it is, unless token counts shrink).
    if (cacheOn && prevView > b + before[a]!) return a;
    if (Math.abs(b) * (e - a) >= EXACT) return a;
  }

  let x = a;
  while (x < e) {
    let y = e;
    if (!windowed) {
      // The price tier of view_x, and the end of the calls that share it (views only grow).
      const vx = b + before[x]!;
      tier = 0;
      while (tier < tierCount && vx > rows[(tier + 1) * 7]!) tier++;
      if (tier < tierCount) y = firstAbove(before, x + 1, e, rows[(tier + 1) * 7]! - b);
    }
    const p = tier * 7;
    const s = new Stretch(t, steps, x, b, keep, prevView, cacheOn, cacheWritePrice, rows[p + 1]!, rows[p + 2]!, rows[p + 3]!, rows[p + 5]!, rows[p + 6]!);

    // The first call in x..y−1 before which a brake may fire (a monotone predicate), or y.
    let lo = x;
    let hi = y;
    // (lo is moved back below when time, added call by call, reaches the timeout first.)
    while (lo < hi) {
      const j = (lo + hi) >>> 1;
      const spentNext = spent + s.cost(j + 1);
      // A brake that may fire, or a sum leaving exact whole numbers: the per-step loop takes call j.
      const fires =
        (!timeByCall && elapsed + s.latency(j) >= timeout) ||
        spent + s.cost(j) >= budget ||
        spentNext > predictBudget ||
        spentNext >= EXACT ||
        tokens + s.tokens(j) >= maxTokens ||
        (!windowed && s.view(j) > window);
      if (fires) hi = j;
      else lo = j + 1;
    }

    if (timeByCall) {
      // Time call by call up to lo, stopping before a call the timeout may refuse.
      for (let j = x, r = x * 8; j < lo; j++, r += 8) {
        if (elapsed >= timeout) {
          lo = j;
          break;
        }
        const latency = callData[r + 4]!;
        elapsed += latency === latency ? latency : modelCallMs + s.view(j) * modelInputMs + callData[r]! * modelOutputMs;
        const toolLatency = callData[r + 5]!;
        if (toolLatency === toolLatency && callData[r + 7]! <= 1) elapsed += toolLatency;
        else {
          for (let k = toolStart[j]!, end = toolStart[j + 1]!; k < end; k++) {
            const latency = toolLatencyMs[k]!;
            elapsed += latency === latency ? latency : perToolMs;
          }
        }
      }
    }

    // Make calls x..lo−1.
    if (lo > x) {
      spent += s.cost(lo);
      if (!timeByCall) elapsed += s.latency(lo);
      tokens += s.tokens(lo);
      if (cacheOn) {
        cached += s.cachedSum(lo);
        if (cacheWritePrice) written += s.growth(lo);
      }
      prevView = s.view(lo - 1);
    }
    x = lo;
    if (lo < y) break;
  }
  // Beyond exact whole numbers the order of additions matters: leave it to the per-step loop.
  if (!(spent < EXACT && tokens < EXACT && (timeByCall || elapsed < EXACT))) return a;

  // The new steps' prefix sums: a later backtrack may read any of them; a window reads the last ones.
  const base = kept - before[a]!;
  const backtrackAhead = t.lastBacktrack > a;
  const from = backtrackAhead || !windowed ? a + 1 : Math.max(a + 1, x - keep);
  if (backtrackAhead || windowed) {
    for (let k = from, at = len + 1 + (from - a - 1); k <= x; k++, at++) prefix[at] = base + before[k]!;
  }
  if (lim[CL_TRACK_RAW] === 1) {
    // Uncapped step tokens are the compiled ones; a recorded prompt reads the uncapped total.
    const raw = st[CF_RAW]!;
    const rawBase = raw - t.stepTokensBefore[a]!;
    if (backtrackAhead) {
      for (let k = a + 1, at = len + 1; k <= x; k++, at++) rawPrefix[at] = rawBase + t.stepTokensBefore[k]!;
    }
    st[CF_RAW] = rawBase + t.stepTokensBefore[x]!;
  }
  st[CF_SPENT] = spent;
  st[CF_ELAPSED] = elapsed;
  st[CF_TOKENS] = tokens;
  st[CF_CACHED] = cached;
  st[CF_WRITE] = written;
  st[CF_KEPT] = base + before[x]!;
  st[CF_PREV_VIEW] = prevView;
  return x;
}

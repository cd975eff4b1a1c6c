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
 * The caller guarantees (closedFormApplies): cache off, or on without a minimum-prefix rule; integer
 * non-negative prices; t.closedForm; a non-negative cap and fixed prompt; a whole window. Calls with a
 * recorded prompt size end the stretch, and so does anything the closed form cannot bound (the
 * per-step loop takes it).
 */
import { budgetSpent, budgetWouldCross, promptTooLarge, timedOut, tokenCapReached } from '../kernel/brakes.js';
import { CallField } from '../kernel/callRecord.js';
import { addSlidWindowLost, appendClosedSteps } from '../kernel/closedSteps.js';
import { modelledCallMs, modelledToolMs } from '../kernel/latency.js';
import { predictiveBoundPico } from '../kernel/cost.js';
import { Limit, predicts, type BrakeLimits } from '../kernel/limits.js';
import { boundWrites, CacheModeCode } from '../kernel/meter.js';
import { PriceField, type FlatPrices } from '../kernel/prices.js';
import { ClosedAt, CompiledField, type CompiledTrace } from './layout.js';
import { Run, type RunState } from './runState.js';
import { CallSearch } from './probe.js';
import { RunSetting, type RunSettings } from './settings.js';
import type { RunPlan } from './steps.js';
import { Stretch, type StepSums } from './stretch.js';

export { stepSums, uncappedSums, type StepSums } from './stretch.js';

const EXACT = 2 ** 52;

/** The stretch being summed (one at a time). */
const stretch = new Stretch();

/** The first k in [lo, hi) with values[k] > limit (values non-decreasing), or hi. */
export function firstAbove(values: Float64Array | Int32Array, lo: number, hi: number, limit: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid]! > limit) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * Whether stretches of plain calls may go in closed form under these settings: every figure must be a
 * whole number (prices, token counts, caps), the cache either off or on with every unchanged prefix
 * served (no provider minimum), and a window a whole number of steps.
 */
export function closedFormApplies(t: CompiledTrace, s: RunSettings, prices: FlatPrices): boolean {
  const cacheMode = s[RunSetting.CacheMode]!;
  const keep = s[RunSetting.Keep]!;
  const cap = s[RunSetting.Cap]!;
  if (cacheMode === CacheModeCode.Recorded || !t.closedForm || !prices.exact || t.fixedTokens < 0 || !(cap >= 0)) return false;
  if (cacheMode === CacheModeCode.On && (prices.minCachePrefix > 0 || prices.cacheIncrement !== 1)) return false;
  return keep === Infinity || (Number.isInteger(keep) && keep >= 0 && keep < 0x3fffffff);
}

/**
 * Makes plain calls a..e−1 in closed form until a brake before a call may fire, or a call's latency
 * is not all recorded, or its prompt size is. With a window of w steps, call a must be at least w + 1
 * calls into the stretch (its window holds only the stretch's steps, and slid at the previous call), or
 * with the cache off the run's first call (the window holds the run's steps; Stretch clamps it).
 * Writes the context's new prefix sums that later calls may read and moves the context and `st` to the
 * call reached; returns it (a when nothing was done). `fillingWindow`: calls a..e−1 are a window's first
 * w + 1 from the run's start, which hold the whole history.
 */
export function advanceClosedForm(plan: RunPlan, steps: StepSums, a: number, e: number, st: RunState, fillingWindow = false): number {
  const { t, settings: set, limits, prices, ctx } = plan;
  const rows = prices.rows;
  const tierCount = prices.tiers;
  // Time in closed form only when every latency of the stretch is a recorded whole number; otherwise
  // it is added call by call, in order, as the readable path adds it (fractions round differently in
  // another order).
  // (Read from the trace's interleaved running totals: the records at a and e are the ones the stretch reads.)
  const closedSums = t.closedSums;
  const atA = (a * ClosedAt.Stride) | 0;
  const atE = (e * ClosedAt.Stride) | 0;
  const timeByCall = !plan.exactTime || closedSums[atE + ClosedAt.LatencyMissing] !== closedSums[atA + ClosedAt.LatencyMissing];
  // Stop before the first call whose prompt size is recorded.
  if (closedSums[atE + ClosedAt.RecordedInputs] !== closedSums[atA + ClosedAt.RecordedInputs]) {
    const recorded = t.recordedInputBefore;
    e = firstAbove(recorded, a + 1, e + 1, recorded[a]!) - 1;
  }
  if (e <= a) return a;

  // System + goal (and a compaction's output after one: kernel/compaction.ts).
  const fixed = ctx.fixed;
  const timeout = limits[Limit.TimeoutMs]!;
  const window = limits[Limit.ContextWindow]!;
  const cacheOn = set[RunSetting.CacheMode] === CacheModeCode.On;
  const cacheWritePrice = prices.hasCacheWritePrice;
  // A window still filling (from the run's start, calls 0..w) holds the whole history: full history's form.
  const windowed = set[RunSetting.Keep] !== Infinity && !fillingWindow;
  const predict = predicts(limits);
  // The predictive bound grows with the prompt only under full history (and with no overhead carried in).
  if (predict && (windowed || st[Run.OverheadTokens] !== 0)) return a;
  // The context window compares the prompt estimate: the view only once no overhead is carried in.
  if (window !== Infinity && st[Run.OverheadTokens] !== 0) return a;
  const keep = windowed ? set[RunSetting.Keep]! : 0;
  const before = steps.before;
  const closed = steps.closed;
  const records = t.records;
  const toolStart = t.toolStart;
  const toolLatencyMs = t.toolLatencyMs;
  // Without a latency model a call without latency takes 0 ms: 0 + input · 0 + output · 0.
  const perCallMs = set[RunSetting.PerCallMs]!, perInputMs = set[RunSetting.PerInputTokenMs]!, perOutputMs = set[RunSetting.PerOutputTokenMs]!;
  const perToolMs = set[RunSetting.PerToolCallMs]!;
  let spent = st[Run.SpentPico]!;
  let elapsed = st[Run.ElapsedMs]!;
  let tokens = st[Run.TokensUsed]!;
  let cached = st[Run.CachedTokens]!;
  let written = st[Run.WrittenTokens]!;
  const len = ctx.length;
  const kept = ctx.keptPrefix[len]!;
  // Full history: what the cache can serve of call a's prompt (the previous prompt, or less after a backtrack).
  let prevView = ctx.unchangedTokens();
  let tier = 0;
  let b: number;
  if (windowed) {
    b = fixed;
    // Views go up and down: bound them (no step keeps more than the largest uncapped step) and leave
    // the stretch to the per-step loop when the bound reaches the context window or a price tier.
    const bound = fixed + keep * t.maxStepTokens;
    if (promptTooLarge(bound, window) || (tierCount > 0 && bound > rows[PriceField.Stride + PriceField.Above]!) || bound >= EXACT) return a;
    if (keep === 0) return a;
  } else {
    b = fixed + kept - closed[atA + ClosedAt.StepTokens]!;
    // Cache on, the previous prompt must be a prefix of this one (it is, unless token counts shrink).
    if (cacheOn && prevView > b + closed[atA + ClosedAt.StepTokens]!) return a;
    if (Math.abs(b) * (e - a) >= EXACT) return a;
  }

  let x = a;
  while (x < e) {
    let y = e;
    if (!windowed) {
      // The price tier of view_x, and the end of the calls that share it (views only grow).
      const vx = b + closed[((x * ClosedAt.Stride) | 0) + ClosedAt.StepTokens]!;
      tier = 0;
      while (tier < tierCount && vx > rows[(tier + 1) * PriceField.Stride + PriceField.Above]!) tier++;
      if (tier < tierCount) y = firstAbove(before, x + 1, e, rows[(tier + 1) * PriceField.Stride + PriceField.Above]! - b);
    }
    const p = tier * PriceField.Stride;
    const s = stretch.set(steps, x, b, keep, prevView, cacheOn, cacheWritePrice, rows, p);

    // The first call in x..y−1 before which a brake may fire (lo is moved back below when time, added
    // call by call, reaches the timeout first).
    st[Run.SpentPico] = spent;
    st[Run.ElapsedMs] = elapsed;
    st[Run.TokensUsed] = tokens;
    let lo = firstFiringCall(plan, s, x, y, st, timeByCall, windowed);

    if (timeByCall) {
      // Time call by call up to lo, stopping before a call the timeout may refuse.
      for (let j = x, at = x * CompiledField.Stride; j < lo; j++, at += CompiledField.Stride) {
        if (timedOut(elapsed, timeout)) {
          lo = j;
          break;
        }
        const latency = records[at + CallField.LatencyMs]!;
        // (The prompt is read only for a latency the trace does not record.)
        elapsed += modelledCallMs(latency, perCallMs, perInputMs, perOutputMs, latency === latency ? 0 : s.view(j), records[at + CallField.Output]!);
        const toolLatency = records[at + CompiledField.ToolLatency]!;
        if (toolLatency === toolLatency && records[at + CompiledField.Tools]! <= 1) elapsed += toolLatency;
        else {
          for (let k = toolStart[j]!, end = toolStart[j + 1]!; k < end; k++) elapsed += modelledToolMs(toolLatencyMs[k]!, perToolMs);
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
  if (x === a || !(spent < EXACT && tokens < EXACT && (timeByCall || elapsed < EXACT))) return a;

  // The new steps' prefix sums later calls may read: a backtrack any of them; a window its last ones;
  // the next call's cache the one before the last.
  const readBack = t.lastBacktrack > a ? Infinity : fillingWindow ? set[RunSetting.Keep]! : keep;
  // (Two of them, x − 1 and x, from the interleaved records the search has just read; more, from the compact totals.)
  if (readBack === 0) appendClosedSteps(ctx, closed, closedSums, a, x, 0, ClosedAt.Stride, ClosedAt.StepTokens);
  else appendClosedSteps(ctx, before, t.stepTokensBefore, a, x, readBack);
  // A window that slid at every call (a is w + 1 calls into the stretch) loses cache hits at each; a filling one none.
  if (cacheOn && windowed) addSlidWindowLost(st, Run.StrategyCacheLost, closed, a, x, keep, ClosedAt.Stride, ClosedAt.StepTokensSum);
  st[Run.Calls] = x;
  st[Run.SpentPico] = spent;
  st[Run.ElapsedMs] = elapsed;
  st[Run.TokensUsed] = tokens;
  st[Run.CachedTokens] = cached;
  st[Run.WrittenTokens] = written;
  // Calls without a recorded prompt size are billed their view: no overhead.
  st[Run.OverheadTokens] = 0;
  return x;
}

const probes = new CallSearch();
/** Below this many calls left after the first look, plain bisection. */
const GUESS_FROM = 8;

/**
 * After the first look (at j) fired: where each figure that reached its limit crosses it at its mean
 * rate over x..j−1 — time, spend (full history's spend is convex, a chord guesses far too early: from
 * its first call's rate up). Whether a guess was made (a function of its own: firstFiringCall stays
 * small enough for the stretch's sums to inline into it).
 */
function guessCrossing(s: Stretch, x: number, j: number, st: RunState, timeByCall: boolean, windowed: boolean, limits: BrakeLimits): boolean {
  const spent = st[Run.SpentPico]!;
  const elapsed = st[Run.ElapsedMs]!;
  const timeout = limits[Limit.TimeoutMs]!;
  const budget = limits[Limit.BudgetPico]!;
  const search = probes;
  search.start(x);
  if (!timeByCall && timedOut(elapsed + s.latency(j), timeout)) search.crossing(j, s.latency(j), timeout - elapsed);
  const spentBefore = spent + s.cost(j);
  if (budgetSpent(spentBefore, budget)) {
    if (windowed) search.crossing(j, spentBefore - spent, budget - spent);
    else search.convexCrossing(j, spentBefore - spent, s.cost(x + 1), budget - spent);
  }
  return search.guessed;
}

/**
 * The first call in x..y−1 of the stretch before which a brake may fire (each a monotone predicate of
 * the call), or y: a binary search (a function of its own, so the stretch's sums inline into it). The
 * run's spend, time and tokens at x are read from `st`.
 */
function firstFiringCall(plan: RunPlan, s: Stretch, x: number, y: number, st: RunState, timeByCall: boolean, windowed: boolean): number {
  const { limits, prices } = plan;
  const spent = st[Run.SpentPico]!;
  const elapsed = st[Run.ElapsedMs]!;
  const tokens = st[Run.TokensUsed]!;
  const timeout = limits[Limit.TimeoutMs]!;
  const budget = limits[Limit.BudgetPico]!;
  const predictBudget = limits[Limit.PredictBudgetPico]!;
  const maxTokens = limits[Limit.MaxTokens]!;
  const window = limits[Limit.ContextWindow]!;
  const maxOutput = limits[Limit.MaxOutputTokens]!;
  const predict = predictBudget !== Infinity;
  let lo = x;
  let hi = y;
  // Spend after the stretch exact: so is every call's (costs are not negative), no need to look per call.
  const exact = spent + s.cost(y) < EXACT;
  // Every predicate is monotone in j: the first look is at the stretch's last call (usually none fires);
  // when the timeout or budget fires there, the next looks start where its figure crosses the limit at
  // the stretch's mean rate (probe.ts), then bisect. Any look order finds the same first call.
  let j = y - 1;
  let guessing = false;
  while (lo < hi) {
    const spentBefore = spent + s.cost(j);
    // Full history only (a window declines under predict): the estimate is the view (no overhead).
    const bound = predict ? predictiveBoundPico(prices.rows, prices.tiers, s.view(j), maxOutput, boundWrites(plan.t.cacheWrites, plan.settings[RunSetting.CacheMode]!)) : 0;
    // A brake that may fire, or a sum leaving exact whole numbers: the per-step loop takes call j.
    const fires =
      (!timeByCall && timedOut(elapsed + s.latency(j), timeout)) ||
      budgetSpent(spentBefore, budget) ||
      budgetWouldCross(spentBefore, bound, predictBudget) ||
      (!exact && spent + s.cost(j + 1) >= EXACT) ||
      tokenCapReached(tokens + s.tokens(j), maxTokens) ||
      (!windowed && promptTooLarge(s.view(j), window));
    if (fires) hi = j;
    else lo = j + 1;
    if (j === y - 1 && fires && hi - lo > GUESS_FROM) guessing = guessCrossing(s, x, j, st, timeByCall, windowed, limits);
    if (guessing) {
      j = probes.next(j, fires, lo, hi);
      guessing = probes.guessing;
    } else j = (lo + hi) >>> 1;
  }
  return lo;
}


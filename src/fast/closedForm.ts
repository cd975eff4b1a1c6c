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
 * the first call where one may fire is found by binary search, not by a walk (closedSearch.ts).
 *
 * The caller guarantees (closedFormApplies): cache off, or on without a minimum-prefix rule and, on a
 * model that bills cache writes, no call without a recorded prompt size that records writes for an hour
 * (the meter writes such a call's prompt for an hour, at that price: hourWrites.ts); integer non-negative
 * prices; t.closedForm; a non-negative cap and fixed prompt; a whole window. Calls with a
 * recorded prompt size end the stretch, and so does anything the closed form cannot bound (the
 * per-step loop takes it).
 */
import { promptTooLarge, timedOut } from '../kernel/brakes.js';
import { CallField } from '../kernel/callRecord.js';
import { addSlidWindowLost, appendClosedSteps } from '../kernel/closedSteps.js';
import { modelledCallMs, modelledToolMs } from '../kernel/latency.js';
import { Limit, predicts } from '../kernel/limits.js';
import { CacheModeCode } from '../kernel/meter.js';
import { PriceField, type FlatPrices } from '../kernel/prices.js';
import { firstAbove, firstFiringCall } from './closedSearch.js';
import { EXACT } from './exactSums.js';
import { hourWritesPricedApart, plainCallWritesForAnHour } from './hourWrites.js';
import { ClosedAt, CompiledField, type CompiledTrace } from './layout.js';
import { Run, type RunState } from './runState.js';
import { RunSetting, type RunSettings } from './settings.js';
import type { RunPlan } from './steps.js';
import { Stretch, type StepSums } from './stretch.js';

export { stepSums, uncappedSums, type StepSums } from './stretch.js';

/** The stretch being summed (one at a time). */
const stretch = new Stretch();
/** The run's figures as the stretch's calls are made (Run offsets), copied into the run's state once they are all exact. */
const figures = new Float64Array(Run.Size);

/** How one advanceClosedForm sums its stretch (one record reused: no allocation per replay). */
const form = {
  /** Full history: view_k = base + K[k]. Window: the system + goal prompt. */
  baseTokens: 0,
  /** Steps a sliding window keeps; 0 for full history (or a window still filling). */
  keep: 0,
  windowed: false,
  /** Time added call by call (not every latency of the stretch a recorded whole number). */
  timeByCall: false,
  cacheOn: false,
};

/**
 * Whether stretches of plain calls may go in closed form under these settings: every figure must be a
 * whole number (prices, token counts, caps), no fee per request, the cache either off or on with every unchanged prefix
 * served (no provider minimum) and every write for five minutes, and a window a whole number of steps.
 */
export function closedFormApplies(t: CompiledTrace, s: RunSettings, prices: FlatPrices): boolean {
  const cacheMode = s[RunSetting.CacheMode]!;
  const keep = s[RunSetting.Keep]!;
  const cap = s[RunSetting.Cap]!;
  // (A fee per request is not in the stretch sums, which hold tokens only: such a model's calls are metered one by one.)
  if (cacheMode === CacheModeCode.Recorded || !t.closedForm || !prices.exact || prices.requestPico > 0 || t.fixedTokens < 0 || !(cap >= 0)) return false;
  if (cacheMode === CacheModeCode.On && (prices.minCachePrefix > 0 || prices.cacheIncrement !== 1)) return false;
  // Stretches price every write at the five-minute price: the meter writes some calls' for an hour.
  if (cacheMode === CacheModeCode.On && prices.hasCacheWritePrice && hourWritesPricedApart(prices) && plainCallWritesForAnHour(t)) return false;
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
  const set = plan.settings;
  // Time in closed form only when every latency of the stretch is a recorded whole number; otherwise
  // it is added call by call, in order, as the readable path adds it (fractions round differently in
  // another order).
  form.timeByCall = !plan.exactTime || latencyMissingIn(plan.t, a, e);
  e = beforeRecordedPrompt(plan.t, a, e);
  if (e <= a) return a;
  // A window still filling (from the run's start, calls 0..w) holds the whole history: full history's form.
  form.windowed = set[RunSetting.Keep] !== Infinity && !fillingWindow;
  form.keep = form.windowed ? set[RunSetting.Keep]! : 0;
  form.cacheOn = set[RunSetting.CacheMode] === CacheModeCode.On;
  if (overheadDeclines(plan, st, form.windowed)) return a;
  // Full history: what the cache can serve of call a's prompt (the previous prompt, or less after a backtrack).
  const prevViewTokens = plan.ctx.unchangedTokens();
  if (!setBaseTokens(plan, steps, a, e, prevViewTokens)) return a;
  figures[Run.SpentPico] = st[Run.SpentPico]!;
  figures[Run.ElapsedMs] = st[Run.ElapsedMs]!;
  figures[Run.TokensUsed] = st[Run.TokensUsed]!;
  figures[Run.CachedTokens] = st[Run.CachedTokens]!;
  figures[Run.WrittenTokens] = st[Run.WrittenTokens]!;
  const x = makeCalls(plan, steps, a, e, prevViewTokens);
  // Beyond exact whole numbers the order of additions matters: leave it to the per-step loop.
  if (x === a || !(figures[Run.SpentPico]! < EXACT && figures[Run.TokensUsed]! < EXACT && (form.timeByCall || figures[Run.ElapsedMs]! < EXACT))) return a;
  commitCalls(plan, steps, a, x, st, fillingWindow);
  return x;
}

/** Whether a call in a..e−1 lacks a recorded latency (read from the trace's interleaved running totals: the records at a and e are the ones the stretch reads). */
function latencyMissingIn(t: CompiledTrace, a: number, e: number): boolean {
  const closedSums = t.closedSums;
  return closedSums[((e * ClosedAt.Stride) | 0) + ClosedAt.LatencyMissing] !== closedSums[((a * ClosedAt.Stride) | 0) + ClosedAt.LatencyMissing];
}

/** The end (≤ e) of the calls from a on before the first whose prompt size is recorded. */
function beforeRecordedPrompt(t: CompiledTrace, a: number, e: number): number {
  const closedSums = t.closedSums;
  if (closedSums[((e * ClosedAt.Stride) | 0) + ClosedAt.RecordedInputs] === closedSums[((a * ClosedAt.Stride) | 0) + ClosedAt.RecordedInputs]) return e;
  const recorded = t.recordedInputBefore;
  return firstAbove(recorded, a + 1, e + 1, recorded[a]!) - 1;
}

/** Whether an overhead carried in (billed − view of the last call) keeps a brake from reading the view: the predictive bound, the context window. */
function overheadDeclines(plan: RunPlan, st: RunState, windowed: boolean): boolean {
  const overheadTokens = st[Run.OverheadTokens]!;
  // The predictive bound grows with the prompt only under full history (and with no overhead carried in).
  if (predicts(plan.limits) && (windowed || overheadTokens !== 0)) return true;
  // The context window compares the prompt estimate: the view only once no overhead is carried in.
  return plan.limits[Limit.ContextWindow] !== Infinity && overheadTokens !== 0;
}

/** Sets the stretch's base b (form.baseTokens, Stretch.b); false when the closed form cannot bound the stretch. (A boolean, not the number: a double returned from a call not inlined is boxed.) */
function setBaseTokens(plan: RunPlan, steps: StepSums, a: number, e: number, prevViewTokens: number): boolean {
  const { t, prices, ctx } = plan;
  // System + goal (and a compaction's output after one: kernel/compaction.ts).
  const fixedTokens = ctx.fixed;
  if (form.windowed) {
    // Views go up and down: bound them (no step keeps more than the largest uncapped step) and leave
    // the stretch to the per-step loop when the bound reaches the context window or a price tier.
    const boundTokens = fixedTokens + form.keep * t.maxStepTokens;
    if (promptTooLarge(boundTokens, plan.limits[Limit.ContextWindow]!) || (prices.tiers > 0 && boundTokens > prices.rows[PriceField.Stride + PriceField.Above]!) || boundTokens >= EXACT) return false;
    form.baseTokens = fixedTokens;
    return form.keep !== 0;
  }
  const stepTokensAtA = steps.closed[((a * ClosedAt.Stride) | 0) + ClosedAt.StepTokens]!;
  const baseTokens = fixedTokens + ctx.keptPrefix[ctx.length]! - stepTokensAtA;
  form.baseTokens = baseTokens;
  // Cache on, the previous prompt must be a prefix of this one (it is, unless token counts shrink).
  if (form.cacheOn && prevViewTokens > baseTokens + stepTokensAtA) return false;
  return Math.abs(baseTokens) * (e - a) < EXACT;
}

/** The price tier of a prompt of `viewTokens` (tiers: rows above the first, each from its Above). */
function tierOf(rows: Float64Array, tierCount: number, viewTokens: number): number {
  let tier = 0;
  while (tier < tierCount && viewTokens > rows[(tier + 1) * PriceField.Stride + PriceField.Above]!) tier++;
  return tier;
}

/** Makes calls a.. of the stretch, one price tier at a time, into `figures` until a brake may fire; returns the call reached. */
function makeCalls(plan: RunPlan, steps: StepSums, a: number, e: number, prevViewTokens: number): number {
  const { rows, tiers: tierCount, hasCacheWritePrice } = plan.prices;
  const { baseTokens, keep, windowed, timeByCall, cacheOn } = form;
  const closed = steps.closed;
  let tier = 0;
  let x = a;
  while (x < e) {
    let y = e;
    if (!windowed) {
      // The price tier of view_x, and the end of the calls that share it (views only grow).
      tier = tierOf(rows, tierCount, baseTokens + closed[((x * ClosedAt.Stride) | 0) + ClosedAt.StepTokens]!);
      if (tier < tierCount) y = firstAbove(steps.before, x + 1, e, rows[(tier + 1) * PriceField.Stride + PriceField.Above]! - baseTokens);
    }
    const s = stretch.set(steps, x, baseTokens, keep, prevViewTokens, cacheOn, hasCacheWritePrice, rows, tier * PriceField.Stride);
    // The first call in x..y−1 before which a brake may fire (moved back when time, added call by
    // call, reaches the timeout first).
    let lo = firstFiringCall(plan, s, x, y, figures, timeByCall, windowed);
    if (timeByCall) lo = timeCallByCall(plan, s, x, lo);
    if (lo > x) {
      addStretch(s, lo, timeByCall, cacheOn && hasCacheWritePrice);
      prevViewTokens = s.view(lo - 1);
    }
    x = lo;
    if (lo < y) break;
  }
  return x;
}

/** Calls x..lo−1 of the stretch made: their figures added (their time too, unless added call by call). */
function addStretch(s: Stretch, lo: number, timeByCall: boolean, writes: boolean): void {
  figures[Run.SpentPico] = figures[Run.SpentPico]! + s.costPico(lo);
  if (!timeByCall) figures[Run.ElapsedMs] = figures[Run.ElapsedMs]! + s.latencyMs(lo);
  figures[Run.TokensUsed] = figures[Run.TokensUsed]! + s.tokens(lo);
  if (!s.cacheOn) return;
  figures[Run.CachedTokens] = figures[Run.CachedTokens]! + s.cachedSum(lo);
  if (writes) figures[Run.WrittenTokens] = figures[Run.WrittenTokens]! + s.growth(lo);
}

/** Time call by call over x..lo−1, in the readable path's order, stopping before a call the timeout may refuse: returns that call, or lo. */
function timeCallByCall(plan: RunPlan, s: Stretch, x: number, lo: number): number {
  const { t, settings: set } = plan;
  const records = t.records;
  const toolStart = t.toolStart;
  const toolLatencyMs = t.toolLatencyMs;
  const timeoutMs = plan.limits[Limit.TimeoutMs]!;
  // Without a latency model a call without latency takes 0 ms: 0 + input · 0 + output · 0.
  const perCallMs = set[RunSetting.PerCallMs]!, perInputMs = set[RunSetting.PerInputTokenMs]!, perOutputMs = set[RunSetting.PerOutputTokenMs]!;
  const perToolMs = set[RunSetting.PerToolCallMs]!;
  let elapsedMs = figures[Run.ElapsedMs]!;
  let j = x;
  for (let at = x * CompiledField.Stride; j < lo; j++, at += CompiledField.Stride) {
    if (timedOut(elapsedMs, timeoutMs)) break;
    const latencyMs = records[at + CallField.LatencyMs]!;
    // (The prompt is read only for a latency the trace does not record.)
    elapsedMs += modelledCallMs(latencyMs, perCallMs, perInputMs, perOutputMs, latencyMs === latencyMs ? 0 : s.view(j), records[at + CallField.Output]!);
    const toolsMs = records[at + CompiledField.ToolLatency]!;
    if (toolsMs === toolsMs && records[at + CompiledField.Tools]! <= 1) elapsedMs += toolsMs;
    else {
      for (let k = toolStart[j]!, end = toolStart[j + 1]!; k < end; k++) elapsedMs += modelledToolMs(toolLatencyMs[k]!, perToolMs);
    }
  }
  figures[Run.ElapsedMs] = elapsedMs;
  return j;
}

/** Calls a..x−1 made: the context's new prefix sums later calls may read, the window's lost cache hits, and `st` moved to call x. */
function commitCalls(plan: RunPlan, steps: StepSums, a: number, x: number, st: RunState, fillingWindow: boolean): void {
  const { t, settings: set, ctx } = plan;
  const keep = form.keep;
  // The new steps' prefix sums later calls may read: a backtrack any of them; a window its last ones;
  // the next call's cache the one before the last.
  const readBack = t.lastBacktrack > a ? Infinity : fillingWindow ? set[RunSetting.Keep]! : keep;
  // (Two of them, x − 1 and x, from the interleaved records the search has just read; more, from the compact totals.)
  if (readBack === 0) appendClosedSteps(ctx, steps.closed, t.closedSums, a, x, 0, ClosedAt.Stride, ClosedAt.StepTokens);
  else appendClosedSteps(ctx, steps.before, t.stepTokensBefore, a, x, readBack);
  // A window that slid at every call (a is w + 1 calls into the stretch) loses cache hits at each; a filling one none.
  if (form.cacheOn && form.windowed) addSlidWindowLost(st, Run.StrategyCacheLost, steps.closed, a, x, keep, ClosedAt.Stride, ClosedAt.StepTokensSum);
  st[Run.Calls] = x;
  st[Run.SpentPico] = figures[Run.SpentPico]!;
  st[Run.ElapsedMs] = figures[Run.ElapsedMs]!;
  st[Run.TokensUsed] = figures[Run.TokensUsed]!;
  st[Run.CachedTokens] = figures[Run.CachedTokens]!;
  st[Run.WrittenTokens] = figures[Run.WrittenTokens]!;
  // Calls without a recorded prompt size are billed their view: no overhead.
  st[Run.OverheadTokens] = 0;
}

/**
 * Closed form over a stretch of plain calls whose prompt sizes are recorded, replayed with the cache as
 * recorded (cache mode `recorded`), no tool-result cap, whole prices and one price tier: recorded agent
 * runs as they are usually replayed. The per-call figures are the kernel meter's, summed when the
 * trace was compiled (recordedSums.ts), so a stretch's running figures at any call are O(1):
 *
 *   full history   the prompt as sent: every call bills its recorded figures; cost = Σ price × Σ part
 *   window of w    once the window holds only the stretch's steps and slides at every call, call k bills
 *                  input_k = recorded_k − dropped_k, dropped_k = raw[L] − SB[a] + SB[k − w] (the steps
 *                  before the window, SB the compiled step sums), and the cache serves what a slid
 *                  window is served (recordedSums windowCachedBefore) — when the recorded prompt is
 *                  not below the growth model's and nothing was written to a cache (else the per-step
 *                  loop takes the call).
 *
 * Whole numbers below 2^53 throughout, so the sums equal call-by-call addition to the last digit. Every
 * brake before a call compares a non-decreasing figure (time, spend, tokens) with its limit, so the
 * first call where one may fire is a binary search; the context window is bounded (non-decreasing
 * maxima, or the window's largest prompt), the step cap and tool brakes end the stretch (replayFast.ts).
 * A call where a brake may fire is left to the per-step loop, where the kernel decides.
 */
import { addSlidWindowLost, appendClosedSteps } from '../kernel/closedSteps.js';
import { budgetSpent, promptTooLarge, timedOut, tokenCapReached } from '../kernel/brakes.js';
import { CallField } from '../kernel/callRecord.js';
import { promptEstimate } from '../kernel/cost.js';
import { Limit, predicts, type BrakeLimits } from '../kernel/limits.js';
import { CacheModeCode } from '../kernel/meter.js';
import { PriceField, type FlatPrices } from '../kernel/prices.js';
import { firstAbove } from './closedSearch.js';
import { CompiledField, type CompiledTrace } from './layout.js';
import { Run, type RunState } from './runState.js';
import { At, RecordedStretch } from './recordedStretch.js';
import { RecordedAt, recordedSumsFor, type RecordedSums } from './recordedSums.js';
import { compiledCountsCacheLost } from './recordsCache.js';
import { RunSetting, type RunSettings } from './settings.js';
import type { RunPlan } from './steps.js';

import { EXACT } from './exactSums.js';

/** Whether stretches of recorded calls may go in closed form under these settings. */
export function recordedFormApplies(t: CompiledTrace, s: RunSettings, prices: FlatPrices, limits: BrakeLimits): boolean {
  const sums = t.recordedSums;
  if (sums === null || s[RunSetting.CacheMode] !== CacheModeCode.Recorded || s[RunSetting.Cap] !== Infinity) return false;
  if (!prices.exact || prices.requestPico > 0 || predicts(limits) || !t.closedForm || !t.latencyIntegral || !(Number.isSafeInteger(t.fixedTokens) && t.fixedTokens >= 0)) return false;
  const keep = s[RunSetting.Keep]!;
  if (keep === Infinity ? s[RunSetting.Identity] !== 1 : !(Number.isInteger(keep) && keep >= 1 && keep < 0x3fffffff)) return false;
  return prices.tiers === 0 || sums.maxInput <= prices.rows[PriceField.Stride + PriceField.Above]!;
}

/** Calls made per-step before a stretch's closed form from call i: none under full history or from the run's start, else a window's w + 1. */
export function recordedLead(s: RunSettings, i: number): number {
  const keep = s[RunSetting.Keep]!;
  return keep === Infinity || i === 0 ? 0 : keep + 1;
}

/** The end (≤ e) of the calls from `a` on before the first that `before` (a running count or sum) counts. */
function endBefore(before: Float64Array | Int32Array, a: number, e: number): number {
  return before[e] === before[a] ? e : firstAbove(before, a + 1, e + 1, before[a]!) - 1;
}

/** endBefore, its first look (whether any call in a..e−1 counts) at the block's records. */
function endBeforeIn(block: Float64Array, field: RecordedAt, before: Float64Array | Int32Array, a: number, e: number): number {
  return block[((e * RecordedAt.Stride) | 0) + field] === block[((a * RecordedAt.Stride) | 0) + field] ? e : endBefore(before, a, e);
}

/** The end (≤ e) of the calls from `slides` on before the first a slid window cannot take: a recorded prompt below the growth model's, a cache write. */
function slideStopsBefore(sums: RecordedSums, slides: number, e: number): number {
  const block = sums.block;
  e = endBeforeIn(block, RecordedAt.BelowGrowth, sums.belowGrowthBefore, slides, e);
  e = endBeforeIn(block, RecordedAt.Write, sums.writeBefore, slides, e);
  return endBeforeIn(block, RecordedAt.Write1h, sums.write1hBefore, slides, e);
}

const stretch = new RecordedStretch();

/** Calls made in this closed form so far, by full history and window (tests check that it is taken). */
export const recordedFormStats = { full: 0, filling: 0, window: 0 };

/** How the prompt relates to the recorded one over a stretch. */
const enum Mode {
  /** Full history, no cap: the prompt as sent. */
  AsSent,
  /** A window from the run's start: not yet full over calls 0..w (the growth model's prompt, the cache clipped to the previous prompt), then sliding. */
  Filling,
  /** A window that slides at every call. */
  Slid,
}

/**
 * Makes calls a..e−1 (plain, before the first tool brake and the step cap; under a window from the
 * run's start, or with the recordedLead calls before a made in the same stretch) in closed form until a
 * brake may fire or a call is not one the form covers; moves the context and `st` to the call reached
 * and returns it (a when nothing was done). `endsRun`: call e−1 ends the run inside it (the caller
 * sets the stop when e is returned).
 */
export function advanceRecorded(plan: RunPlan, a: number, e: number, st: RunState, endsRun: boolean): number {
  const keep = plan.settings[RunSetting.Keep]!;
  if (keep === Infinity) return advance(plan, a, e, st, Mode.AsSent, endsRun);
  const ctx = plan.ctx;
  if (a !== 0 || ctx.length !== 0 || ctx.previousStart >= 0) return advance(plan, a, e, st, Mode.Slid, endsRun);
  // From the run's start: the window fills over calls 0..keep, then slides (one stretch, two segments).
  return advance(plan, 0, e, st, Mode.Filling, endsRun);
}

/** `endsRun`: the run ends when call e−1 is made (then the context is not brought up to date). */
function advance(plan: RunPlan, a: number, e: number, st: RunState, mode: Mode, endsRun: boolean): number {
  const { t, settings, limits, ctx } = plan;
  const last = e;
  const sums = sumsOf(plan);
  const keep = settings[RunSetting.Keep]!;
  const end = stretchEnd(plan, st, a, e, mode);
  if (end <= a) return a;
  const s = stretchFrom(plan, a, end, mode);
  const x = firstFiringCall(s, a, end, st, limits);
  if (x === a || !madeCalls(s, x, st)) return a;
  if (!endsRun || x < last) appendClosedSteps(ctx, t.stepTokensBefore, t.stepTokensBefore, a, x, t.lastBacktrack > a ? Infinity : keep === Infinity ? 0 : keep);
  const slides = slideStart(mode, a, keep);
  // Calls from the slide on lose the cache hits of the steps the window moved (no cap: kept = raw), where the run has a cache (kernel/cacheLost.ts).
  if (slides < x && compiledCountsCacheLost(settings[RunSetting.CacheMode]!, t)) addSlidWindowLost(st, Run.StrategyCacheLost, sums.block, Math.max(a, slides), x, keep, RecordedAt.Stride, RecordedAt.StepTokensSum);
  if (mode === Mode.AsSent) recordedFormStats.full += x - a;
  else if (mode === Mode.Filling) {
    recordedFormStats.filling += Math.min(x, slides) - a;
    if (x > slides) recordedFormStats.window += x - slides;
  } else recordedFormStats.window += x - a;
  // The last call's overhead: billed − view = recorded − growth model.
  const atX = (x * RecordedAt.Stride) | 0;
  st[Run.OverheadTokens] = sums.block[atX + RecordedAt.Delta]! - sums.block[atX - RecordedAt.Stride + RecordedAt.Delta]!;
  return x;
}

/** The sums a plan's stretches read: the compiled ones for the prompt as sent, else those under its model's cache rule (recordedSumsFor). */
function sumsOf(plan: RunPlan): RecordedSums {
  return (plan.settings[RunSetting.Keep] === Infinity ? plan.t.recordedSums : recordedSumsFor(plan.t, plan.prices))!;
}

/** Where a window slides: from a (slid), after the window filled (keep + 1, filling), never (as sent). */
function slideStart(mode: Mode, a: number, keep: number): number {
  return mode === Mode.Slid ? a : mode === Mode.Filling ? keep + 1 : Infinity;
}

/**
 * The end (exclusive) of the stretch from call a (at most e) the recorded form can take in `mode`: a
 * when it can take none.
 */
function stretchEnd(plan: RunPlan, st: RunState, a: number, e: number, mode: Mode): number {
  const { t, settings, limits, ctx } = plan;
  const sums = sumsOf(plan);
  const keep = settings[RunSetting.Keep]!;
  const lead = mode === Mode.Slid ? keep + 1 : 0;
  if (!plan.exactTime || a < lead) return a;
  // A slid window's cache hit was summed with system + goal as its unchanged prefix: after a compaction
  // (its output beside them, kernel/compaction.ts) the per-step loop takes the calls.
  if (mode === Mode.Slid && ctx.fixed !== t.fixedTokens) return a;
  // Every call from the lead on has a recorded prompt size and whole recorded latencies. (The figures at
  // a and e are read from the block's records, which the stretch reads too.)
  const block = sums.block;
  // (Record offsets as int32: call indices arrive as doubles, and a double index is converted at every read.)
  const atA = (a * RecordedAt.Stride) | 0;
  if (block[atA + RecordedAt.RecordedInputs]! - block[((a - lead) * RecordedAt.Stride + RecordedAt.RecordedInputs) | 0]! !== lead) return a;
  if (block[((e * RecordedAt.Stride) | 0) + RecordedAt.RecordedInputs]! - block[atA + RecordedAt.RecordedInputs]! !== e - a) e = lastAllRecorded(t.recordedInputBefore, a, e);
  // Time: without a latency model a missing latency is 0 (the sums say so); with one, calls that have all theirs.
  if (!noLatencyModel(settings)) e = endBefore(t.latencyMissingBefore, a, e);
  // Where a window slides: no recorded prompt below the growth model's, no cache write.
  const slides = slideStart(mode, a, keep);
  // (No such call from the slide on: nothing to look at.)
  if (slides < e && slides <= sums.lastSlideStop) e = slideStopsBefore(sums, slides, e);
  // The run's history is the growth model's (its full-history prompt at a is the compiled one).
  if (e <= a || ctx.fullTokens() !== t.records[((a * CompiledField.Stride) | 0) + CallField.RecordedInput]! - (block[atA + RecordedAt.Stride + RecordedAt.Delta]! - block[atA + RecordedAt.Delta]!)) return a;

  const windowTokens = limits[Limit.ContextWindow]!;
  if (promptTooLarge(promptEstimate(ctx.promptTokens(), st[Run.OverheadTokens]!), windowTokens)) return a;
  // Where the prompt is the growth model's, call j's estimate is at most nextEstimateMax[j]; where the
  // window slides, at most system + goal + w × the largest step + the largest overhead.
  const grows = Math.min(e, slides);
  if (grows > a && block[((grows * RecordedAt.Stride) | 0) + RecordedAt.NextEstimateMax]! > windowTokens) e = firstAbove(sums.nextEstimateMax, a + 1, grows, windowTokens);
  if (slides < e && promptTooLarge(t.fixedTokens + keep * t.maxStepTokens + Math.max(0, sums.maxDelta), windowTokens)) e = slides;
  return e;
}

/** Without a latency model: every figure of it 0 (a missing latency is then 0). */
function noLatencyModel(settings: Float64Array): boolean {
  return settings[RunSetting.PerCallMs] === 0 && settings[RunSetting.PerInputTokenMs] === 0 && settings[RunSetting.PerOutputTokenMs] === 0 && settings[RunSetting.PerToolCallMs] === 0;
}

/** The (one, reused) stretch set up for calls a..e−1 in `mode`: which sums it reads, and the prices. */
function stretchFrom(plan: RunPlan, a: number, e: number, mode: Mode): RecordedStretch {
  const { settings, prices, ctx } = plan;
  const keep = settings[RunSetting.Keep]!;
  const slides = slideStart(mode, a, keep);
  const s = stretch;
  s.block = sumsOf(plan).block;
  s.a = a;
  s.latency = noLatencyModel(settings) ? RecordedAt.Latency : RecordedAt.StepLatency;
  s.keep = mode === Mode.Slid ? keep : 0;
  s.split = mode === Mode.Filling && slides < e ? slides : Infinity;
  s.slidKeep = keep === Infinity ? 0 : keep;
  s.dropBase = ctx.rawPrefix[ctx.length]! - s.block[((a * RecordedAt.Stride) | 0) + RecordedAt.StepTokens]!;
  const filling = mode === Mode.Filling;
  s.uncached = filling ? RecordedAt.FillUncached : RecordedAt.Uncached;
  s.cached = filling ? RecordedAt.FillCached : mode === Mode.Slid ? RecordedAt.WindowCached : RecordedAt.Cached;
  s.write = filling ? RecordedAt.FillWrite : RecordedAt.Write;
  s.write1h = filling ? RecordedAt.FillWrite1h : RecordedAt.Write1h;
  const rows = prices.rows;
  s.inputPicoPerToken = rows[PriceField.Input]!;
  s.cachedPicoPerToken = rows[PriceField.Cached]!;
  s.writePicoPerToken = rows[PriceField.CacheWrite]!;
  s.write1hPicoPerToken = rows[PriceField.CacheWrite1h]!;
  s.outputPicoPerToken = rows[PriceField.Output]!;
  s.reasoningPicoPerToken = rows[PriceField.Reasoning]!;
  if (s.split !== Infinity) s.sumFirstSegment();
  return s;
}

/** The run's figures after calls a..x−1 of the stretch into `st`; false (st untouched) when they leave exact whole numbers. */
function madeCalls(s: RecordedStretch, x: number, st: RunState): boolean {
  let at = s.atEnd;
  if (x !== s.end) {
    s.figuresAt(x);
    at = s.at;
  }
  const spentPico = st[Run.SpentPico]! + at[At.CostPico]!;
  const elapsedMs = st[Run.ElapsedMs]! + at[At.LatencyMs]!;
  const tokensUsed = st[Run.TokensUsed]! + at[At.Tokens]!;
  if (!(spentPico < EXACT && tokensUsed < EXACT && elapsedMs < EXACT)) return false;
  st[Run.Calls] = x;
  st[Run.SpentPico] = spentPico;
  st[Run.ElapsedMs] = elapsedMs;
  st[Run.TokensUsed] = tokensUsed;
  st[Run.CachedTokens] = st[Run.CachedTokens]! + at[At.Cached]!;
  st[Run.WrittenTokens] = st[Run.WrittenTokens]! + at[At.Written]!;
  return true;
}

/** The largest e' ≤ e with every call in a..e'−1 recorded (`recorded` counts them). */
function lastAllRecorded(recorded: Int32Array, a: number, e: number): number {
  if (recorded[e]! - recorded[a]! === e - a) return e;
  // k − recorded[k] is non-decreasing: the first k where it grows past a's ends the recorded calls.
  let lo = a;
  let hi = e;
  const gap = a - recorded[a]!;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (mid - recorded[mid]! === gap) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The first call in a..e−1 before which a brake may fire (each a non-decreasing figure against its limit), or e. */
function firstFiringCall(s: RecordedStretch, a: number, e: number, st: RunState, limits: BrakeLimits): number {
  const spentPico = st[Run.SpentPico]!;
  const elapsedMs = st[Run.ElapsedMs]!;
  const tokensUsed = st[Run.TokensUsed]!;
  // Spend after the last call exact: so is every call's (costs are not negative).
  const atEnd = s.atEnd;
  s.figuresAt(e, atEnd);
  s.end = e;
  const exact = spentPico + atEnd[At.CostPico]! < EXACT;
  // Every figure is non-decreasing in j: when none reaches its limit after the stretch's last call, none
  // does before any of its calls (the usual case: no more looks).
  if (exact && !reachesLimit(atEnd, spentPico, elapsedMs, tokensUsed, limits)) return e;
  const at = s.at;
  let lo = a;
  let hi = e;
  let j = e - 1;
  while (lo < hi) {
    s.figuresAt(j);
    let fires = reachesLimit(at, spentPico, elapsedMs, tokensUsed, limits);
    if (!fires && !exact) {
      s.figuresAt(j + 1);
      fires = spentPico + at[At.CostPico]! >= EXACT;
    }
    if (fires) hi = j;
    else lo = j + 1;
    j = (lo + hi) >>> 1;
  }
  return lo;
}

/** Whether the run's figures plus a stretch's (`at`) reach a limit checked before a call: time, spend, tokens (kernel comparisons). */
function reachesLimit(at: Float64Array, spentPico: number, elapsedMs: number, tokensUsed: number, limits: BrakeLimits): boolean {
  return (
    timedOut(elapsedMs + at[At.LatencyMs]!, limits[Limit.TimeoutMs]!) ||
    budgetSpent(spentPico + at[At.CostPico]!, limits[Limit.BudgetPico]!) ||
    tokenCapReached(tokensUsed + at[At.Tokens]!, limits[Limit.MaxTokens]!)
  );
}

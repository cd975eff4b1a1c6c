/**
 * The fast replay path: the same loop, brakes, context strategy and meter as src/loop/run.ts, over a
 * CompiledTrace's typed arrays, with no allocation per step and no strings. It returns the same figures
 * as the readable path, to the last digit (test/core/fastPath*.test.ts prove it on random traces,
 * brakes, strategies, cache modes, prices and latency models, and with every limit exactly on a
 * boundary of the run); stop details are left to that path. Design note: docs/fast-path.md.
 *
 * How it is fast (measure with `npm run build && node bench/replay-fast.mjs`):
 *
 * - Settings as numbers. replayFast writes brakes, strategy, cache mode and latency model into one
 *   Float64Array; replayCore reads them into locals, which are then plain doubles in optimized code
 *   whatever shape of object the caller passed.
 * - Three paths per call. Most calls are "plain": a step whose tool calls all run, no final answer,
 *   backtrack, failure or compaction. Stretches of plain calls go through
 *     1. the closed form (closedForm.ts): running totals over calls summed at compile time make a
 *        stretch's figures O(1) to evaluate at any call, and the first call where a brake may fire a
 *        binary search (fractional latencies are still added call by call, in a tight scan);
 *     2. else (recorded prompt sizes, recorded cache figures, the first calls under a window, short
 *        stretches) the per-step loop: one call per iteration, its tool calls as precomputed sums;
 *   and every other call, and any call where a brake may fire, goes through
 *     3. the general step, which does exactly what the readable path does, in its order.
 * - Brake work moved to compile time. Which tool calls run does not depend on any setting, so the
 *   repeated-action and same-error counts are compiled per tool call; one binary search per run finds
 *   the first call where such a brake fires. The step limit and the next non-plain call bound a
 *   stretch from the start; within it only the brakes on running totals are checked.
 * - Totals that no setting changes (output, reasoning, tool calls) are running totals compiled per
 *   call; calls, steps and input are derived from the call index and counters on the rare paths.
 * - Context prefix sums live in module-level scratch buffers sized to the largest trace seen, written
 *   before they are read, so a run allocates nothing but its result (and, once per trace and
 *   tool-result cap, the capped step sums of the closed form). Not reentrant, and need not be: a run
 *   calls no code that could start another.
 *
 * Exactness: token counts and picodollar prices are whole numbers, so costs are exact in any order
 * below 2^53 (prices that are not skip the closed form); latencies are only summed out of order when
 * every one is a whole number (exactTime), and a run whose time reaches 2^53 ms is redone in order.
 */
import type { BrakeConfig } from '../brakes/config.js';
import { STOP_REASONS, type StopReason } from '../brakes/stopReasons.js';
import type { CacheMode, ContextStrategy } from '../context/strategy.js';
import { UserError } from '../errors.js';
import type { LatencyModel } from '../loop/latency.js';
import type { RunTotals } from '../loop/types.js';
import type { ModelPricing, TokenPrices } from '../pricing/types.js';
import {
  CALL_LATENCY,
  CALL_MAX_RESULT,
  CALL_OUTPUT,
  CALL_REASONING,
  CALL_STEP_LATENCY,
  CALL_STEP_TOKENS,
  CALL_STRIDE,
  CALL_TOOL_LATENCY,
  CALL_TOOLS,
  FLAG_BACKTRACK,
  FLAG_COMPACTION,
  FLAG_FAILED,
  FLAG_FINAL,
  FLAG_RECORDED_INPUT,
  FLAG_UNPARSEABLE,
  type CompiledTrace,
} from './compile.js';
import {
  advanceClosedForm,
  CF_CACHED,
  CF_RAW,
  CF_ELAPSED,
  CF_KEPT,
  CF_PREV_VIEW,
  CF_SPENT,
  CF_TOKENS,
  CF_WRITE,
  CL_CACHE_ON,
  CL_CACHE_WRITE_PRICE,
  CL_EXACT_TIME,
  CL_MODEL_CALL_MS,
  CL_MODEL_INPUT_MS,
  CL_MODEL_OUTPUT_MS,
  CL_PER_TOOL_MS,
  CL_FIXED,
  CL_KEEP,
  CL_TRACK_RAW,
  CL_MAX_TOKENS,
  CL_BUDGET,
  CL_PREDICT_BUDGET,
  CL_TIMEOUT,
  CL_WINDOW,
  closedFormLimits,
  closedFormState,
  stepSums,
} from './closedForm.js';

const R_COMPLETED = STOP_REASONS.indexOf('completed');
const R_MAX_STEPS = STOP_REASONS.indexOf('max_steps');
const R_BUDGET = STOP_REASONS.indexOf('budget');
const R_TIMEOUT = STOP_REASONS.indexOf('timeout');
const R_REPEAT = STOP_REASONS.indexOf('repeat');
const R_ERROR_LIMIT = STOP_REASONS.indexOf('error_limit');
const R_CONTEXT = STOP_REASONS.indexOf('context_overflow');
const R_TOKENS = STOP_REASONS.indexOf('token_limit');
const R_BACKTRACKS = STOP_REASONS.indexOf('backtrack_limit');
const R_TRACE_END = STOP_REASONS.indexOf('trace_end');

/** Prices flattened: row k = [above, input, cached, cacheWrite, cacheWrite1h, output, reasoning], k = 0 base. */
export interface FlatPrices {
  rows: Float64Array;
  tiers: number;
  hasCacheWritePrice: boolean;
  contextWindow: number;
}

function flatRow(rows: Float64Array, k: number, above: number, p: TokenPrices): void {
  const cacheWrite = p.cacheWrite ?? p.input;
  rows.set([above, p.input, p.cachedInput ?? p.input, cacheWrite, p.cacheWrite1h ?? cacheWrite, p.output, p.reasoning ?? p.output], k * 7);
}

export function flattenPrices(pricing: ModelPricing): FlatPrices {
  const rows = new Float64Array(7 * (pricing.tiers.length + 1));
  flatRow(rows, 0, -Infinity, pricing.base);
  pricing.tiers.forEach((tier, k) => flatRow(rows, k + 1, tier.aboveInputTokens, tier.prices));
  return { rows, tiers: pricing.tiers.length, hasCacheWritePrice: pricing.base.cacheWrite !== undefined, contextWindow: pricing.contextWindow ?? Infinity };
}

/** The readable path's figures (no stop detail, no per-step rows). */
export interface FastOutcome extends RunTotals {
  reason: StopReason;
}

/** Cache modes as numbers. */
const CACHE_OFF = 0;
const CACHE_ON = 1;
const CACHE_RECORDED = 2;

/**
 * Brakes, strategy, cache mode and latency model as plain numbers (absent limits Infinity, booleans 0
 * or 1) at these indices of a Float64Array. Read into locals, they are plain doubles in optimized code:
 * an object's fields may hold small integers, converted on every use inside the loop.
 */
const S_MAX_STEPS = 0;
const S_TIMEOUT = 1;
const S_HAS_BUDGET = 2;
const S_BUDGET = 3;
const S_PREDICT = 4;
const S_MAX_TOKENS = 5;
const S_WINDOW = 6;
const S_MAX_REPEAT = 7;
/** 0 total, 1 consecutive, 2 cycle. */
const S_REPEAT_MODE = 8;
const S_MAX_SAME_ERROR = 9;
const S_ERROR_TOTAL = 10;
const S_MAX_BACKTRACKS = 11;
const S_KEEP_STEPS = 12;
const S_CAP = 13;
const S_IDENTITY = 14;
const S_CACHE_MODE = 15;
const S_HAS_LATENCY_MODEL = 16;
const S_PER_CALL_MS = 17;
const S_PER_INPUT_TOKEN_MS = 18;
const S_PER_OUTPUT_TOKEN_MS = 19;
const S_PER_TOOL_CALL_MS = 20;
const S_EXACT_TIME = 21;
/** System + goal tokens of the trace. */
const S_FIXED = 22;
const SETTINGS = 23;

/** Reused by every run: replayFast is synchronous and replayCore reads it before anything else. */
const settings = new Float64Array(SETTINGS);

export function replayFast(
  t: CompiledTrace,
  brakes: BrakeConfig,
  strategy: ContextStrategy,
  cache: CacheMode,
  prices: FlatPrices,
  latency?: LatencyModel,
): FastOutcome {
  const s = settings;
  s[S_MAX_STEPS] = brakes.maxSteps ?? Infinity;
  s[S_TIMEOUT] = brakes.timeoutMs ?? Infinity;
  s[S_HAS_BUDGET] = brakes.maxCostPico !== undefined ? 1 : 0;
  s[S_BUDGET] = brakes.maxCostPico ?? Infinity;
  s[S_PREDICT] = brakes.budgetMode === 'predict' ? 1 : 0;
  s[S_MAX_TOKENS] = brakes.maxTokens ?? Infinity;
  s[S_WINDOW] = brakes.contextWindow === 'model' ? prices.contextWindow : (brakes.contextWindow ?? Infinity);
  s[S_MAX_REPEAT] = brakes.maxRepeat ?? Infinity;
  s[S_REPEAT_MODE] = brakes.repeatMode === 'total' ? 0 : brakes.repeatMode === 'consecutive' ? 1 : 2;
  s[S_MAX_SAME_ERROR] = brakes.maxSameError ?? Infinity;
  s[S_ERROR_TOTAL] = brakes.sameErrorMode === 'total' ? 1 : 0;
  s[S_MAX_BACKTRACKS] = brakes.maxBacktracks ?? Infinity;
  s[S_KEEP_STEPS] = strategy.kind === 'window' ? (strategy.windowSteps ?? Infinity) : Infinity;
  s[S_CAP] = strategy.toolResultCap ?? Infinity;
  s[S_IDENTITY] = strategy.kind === 'full' && strategy.toolResultCap === undefined ? 1 : 0;
  s[S_CACHE_MODE] = cache === 'recorded' ? CACHE_RECORDED : cache === 'on' ? CACHE_ON : CACHE_OFF;
  s[S_HAS_LATENCY_MODEL] = latency !== undefined ? 1 : 0;
  s[S_PER_CALL_MS] = latency?.perCallMs ?? 0;
  s[S_PER_INPUT_TOKEN_MS] = latency?.perInputTokenMs ?? 0;
  s[S_PER_OUTPUT_TOKEN_MS] = latency?.perOutputTokenMs ?? 0;
  s[S_PER_TOOL_CALL_MS] = latency?.perToolCallMs ?? 0;
  const exactTime = t.latencyIntegral && (latency === undefined || integralModel(latency));
  s[S_EXACT_TIME] = exactTime ? 1 : 0;
  s[S_FIXED] = t.systemTokens + t.goalTokens;
  const outcome = replayCore(t, s, prices);
  if (exactTime && !(outcome.elapsedMs < 2 ** 53)) {
    // Whole numbers sum exactly in any order only below 2^53 (ms: 285,000 years); above, redo in order.
    s[S_EXACT_TIME] = 0;
    return replayCore(t, s, prices);
  }
  return outcome;
}

const MODEL_INTEGRAL_LIMIT = 2 ** 20;

function integralModel(m: LatencyModel): boolean {
  return [m.perCallMs, m.perInputTokenMs, m.perOutputTokenMs, m.perToolCallMs].every((v) => Number.isInteger(v) && v >= 0 && v <= MODEL_INTEGRAL_LIMIT);
}

// The fast loop reads callData records at literal offsets; they must be compile.ts's layout.
const CALL_LAYOUT: number[] = [CALL_OUTPUT, CALL_REASONING, CALL_STEP_LATENCY, CALL_STEP_TOKENS, CALL_LATENCY, CALL_TOOL_LATENCY, CALL_MAX_RESULT, CALL_TOOLS];
if (CALL_STRIDE !== CALL_LAYOUT.length || CALL_LAYOUT.some((offset, k) => offset !== k)) {
  throw new Error('replayFast: callData layout differs from compile.ts');
}

/** The first index whose value reaches `limit` in a non-decreasing array, or its length. */
function firstReaching(reach: Int32Array, limit: number): number {
  let lo = 0;
  let hi = reach.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (reach[mid]! >= limit) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Below this many plain calls, the per-step loop is as quick as the closed form's searches. */
const CLOSED_FORM_MIN_CALLS = 16;

/** Every price a non-negative whole number (picodollars per token), so costs are exact integers. */
function exactPrices(rows: Float64Array): boolean {
  for (let k = 0; k < rows.length; k++) {
    if (k % 7 !== 0 && !(Number.isSafeInteger(rows[k]) && rows[k]! >= 0)) return false;
  }
  return true;
}

/** Prefix sums of kept and raw step tokens; grown to the largest trace, never shrunk, never zeroed. */
let keptScratch = new Float64Array(1024);
let rawScratch = new Float64Array(1024);

function scratch(size: number): void {
  if (keptScratch.length < size) {
    keptScratch = new Float64Array(size + (size >> 2));
    rawScratch = new Float64Array(size + (size >> 2));
  }
}

/**
 * One run under the settings `s`. With S_EXACT_TIME, every latency added is a whole number, so a call's
 * tool latencies may be added as one precomputed sum (in any order the total is exact); otherwise they
 * are added one by one, in order, as the readable path does.
 */
function replayCore(t: CompiledTrace, s: Float64Array, prices: FlatPrices): FastOutcome {
  const maxSteps = s[S_MAX_STEPS]!;
  const timeoutMs = s[S_TIMEOUT]!;
  const hasBudget = s[S_HAS_BUDGET] === 1;
  const budget = s[S_BUDGET]!;
  const predict = s[S_PREDICT] === 1;
  // The predictive budget as one comparison: spent + cost > predictBudget never holds without it.
  const predictBudget = predict ? budget : Infinity;
  const maxTokens = s[S_MAX_TOKENS]!;
  const window = s[S_WINDOW]!;
  const maxRepeat = s[S_MAX_REPEAT]!;
  const repeatMode = s[S_REPEAT_MODE]!;
  const maxSameError = s[S_MAX_SAME_ERROR]!;
  const errorTotal = s[S_ERROR_TOTAL] === 1;
  const maxBacktracks = s[S_MAX_BACKTRACKS]!;
  const keepSteps = s[S_KEEP_STEPS]!;
  const windowed = keepSteps !== Infinity;
  // The window as a small integer (full history: one no context reaches), so that step positions stay
  // integers in optimized code. A window that is not a whole number of steps is taken as given by the
  // general step alone: the fast paths need a whole one.
  const fastLoop = !windowed || (Number.isInteger(keepSteps) && keepSteps >= 0 && keepSteps < 0x3fffffff);
  const keepWindow = windowed ? keepSteps | 0 : 0x3fffffff;
  const keepGeneral = fastLoop ? keepWindow : keepSteps;
  const cap = s[S_CAP]!;
  const capped = cap !== Infinity;
  const identity = s[S_IDENTITY] === 1;
  const cacheMode = s[S_CACHE_MODE]!;
  const hasLatencyModel = s[S_HAS_LATENCY_MODEL] === 1;
  const perCallMs = s[S_PER_CALL_MS]!;
  const perInputTokenMs = s[S_PER_INPUT_TOKEN_MS]!;
  const perOutputTokenMs = s[S_PER_OUTPUT_TOKEN_MS]!;
  const perToolMs = s[S_PER_TOOL_CALL_MS]!;
  const exactTime = s[S_EXACT_TIME] === 1;

  const rows = prices.rows;
  const tierCount = prices.tiers;
  // A comparison, not the field itself: branching on a tagged boolean costs a full ToBoolean per use.
  const hasCacheWritePrice = prices.hasCacheWritePrice === true;
  // Base prices in locals; a prompt above the first tier looks its row up.
  const tier1Above = tierCount > 0 ? rows[7]! : Infinity;
  const baseInput = rows[1]!, baseCached = rows[2]!, baseWrite = rows[3]!, baseWrite1h = rows[4]!, baseOutput = rows[5]!, baseReasoning = rows[6]!;

  // Flags as locals: an imported constant is a module binding, loaded and checked at every use.
  const finalFlag = FLAG_FINAL, backtrackFlag = FLAG_BACKTRACK, unparseableFlag = FLAG_UNPARSEABLE;
  const failedFlag = FLAG_FAILED, compactionFlag = FLAG_COMPACTION, recordedInputFlag = FLAG_RECORDED_INPUT;

  // The trace's arrays in locals (property loads are not always hoisted out of the loop).
  const n = t.calls;
  const fixed = s[S_FIXED]!;
  const flagsOf = t.flags;
  const outputOf = t.output;
  const reasoningOf = t.reasoning;
  const latencyOf = t.latencyMs;
  const callData = t.callData;
  const toolStart = t.toolStart;
  const resultTokens = t.resultTokens;
  const toolLatencyMs = t.toolLatencyMs;
  const errorOf = t.error;
  const recordedInputOf = t.recordedInput;
  const recordedCachedOf = t.cached;
  const recordedWriteOf = t.cacheWrite;
  const recordedWrite1hOf = t.cacheWrite1h;
  const seenOf = repeatMode === 0 ? t.seenTotal : repeatMode === 1 ? t.seenConsecutive : t.seenCycle;
  const errorCountOf = errorTotal ? t.errorTotal : t.errorConsecutive;

  // The first call at which a tool brake fires if the run gets there. Clamped at 0, a limit is reached
  // exactly when the brake fires: a negative limit fires on the first tool call (or failure) anyway.
  const toolStop = Math.min(
    firstReaching(repeatMode === 0 ? t.repeatReachTotal : repeatMode === 1 ? t.repeatReachConsecutive : t.repeatReachCycle, Math.max(maxRepeat, 0)),
    firstReaching(errorTotal ? t.errorReachTotal : t.errorReachConsecutive, Math.max(maxSameError, 0)),
  );
  const cacheOn = cacheMode === CACHE_ON;
  const cacheRecorded = cacheMode === CACHE_RECORDED;
  // Recorded prompt sizes (and cache figures): metered in the fast loop only when the trace has them.
  const meterRecorded = t.hasRecordedInput === true;
  // Calls the fast loop leaves to the general step.
  const nextSlow = t.nextNotPlain;
  // Without a latency model a call without latency takes 0 ms: 0 + input · 0 + output · 0.
  const modelCallMs = hasLatencyModel ? perCallMs : 0;
  const modelInputMs = hasLatencyModel ? perInputTokenMs : 0;
  const modelOutputMs = hasLatencyModel ? perOutputTokenMs : 0;

  // prefix[k] = kept tokens of steps 0..k−1 under the strategy; rawPrefix the same uncapped, needed
  // only for recorded prompt sizes (which are relative to full history) when a cap applies.
  const trackRaw = capped && meterRecorded;

  // Whole-number prices: stretches of plain calls in closed form (closedForm.ts).
  const steps = fastLoop && !cacheRecorded && t.closedForm && fixed >= 0 && cap >= 0 && exactPrices(rows) ? stepSums(t, cap) : null;
  const closedForm = steps !== null;
  if (closedForm) {
    const lim = closedFormLimits;
    lim[CL_FIXED] = fixed;
    lim[CL_TIMEOUT] = timeoutMs;
    lim[CL_BUDGET] = budget;
    lim[CL_PREDICT_BUDGET] = predictBudget;
    lim[CL_MAX_TOKENS] = maxTokens;
    lim[CL_WINDOW] = window;
    lim[CL_CACHE_ON] = cacheOn ? 1 : 0;
    lim[CL_CACHE_WRITE_PRICE] = hasCacheWritePrice ? 1 : 0;
    lim[CL_KEEP] = windowed ? keepWindow : Infinity;
    lim[CL_TRACK_RAW] = trackRaw ? 1 : 0;
    lim[CL_EXACT_TIME] = exactTime ? 1 : 0;
    lim[CL_MODEL_CALL_MS] = modelCallMs;
    lim[CL_MODEL_INPUT_MS] = modelInputMs;
    lim[CL_MODEL_OUTPUT_MS] = modelOutputMs;
    lim[CL_PER_TOOL_MS] = perToolMs;
  }

  scratch(n + 1);
  const prefix = keptScratch;
  const rawPrefix = trackRaw ? rawScratch : keptScratch;
  prefix[0] = 0;
  rawPrefix[0] = 0;

  // The context: len steps, kept = prefix[len], raw = rawPrefix[len] (kept unless trackRaw).
  let len = 0, kept = 0, raw = 0;
  // The previous prompt's first kept step and size: the next prompt's cache can serve all of it when
  // it starts at the same step (the history only grew since), else only system + goal. A backtrack
  // shrinks it. 0 / 0 before the first call: nothing can be served.
  let prevStart = 0, prevView = 0;

  // i = the next call = calls made so far; steps = i − nonSteps (backtracks and compactions).
  let i = 0;
  let nonSteps = 0, backtracks = 0, failedCalls = 0;
  let spent = 0, elapsed = 0, tokensUsed = 0, cachedTotal = 0, writeTotal = 0;
  let reason = -1;
  let toolCalls = -1; // set only when a tool brake stops the run inside a call

  for (;;) {
    // ── Fast loop: plain calls (each a step whose tool calls all run) up to the next call that is not
    // plain, the first tool brake or the step limit; it leaves a call where another brake may fire. ──
    if (fastLoop && i < n) {
      let end = nextSlow[i]!;
      if (toolStop < end) end = toolStop;
      const stepLimit = maxSteps + nonSteps;
      if (stepLimit < end) end = stepLimit <= i ? i : Math.ceil(stepLimit);
      // The closed form takes over at call `from`: at once under full history; under a window, once
      // the window holds only this stretch's steps and slid at the call before.
      let from = end;
      if (closedForm && end - i >= CLOSED_FORM_MIN_CALLS) from = windowed ? i + keepWindow + 1 : i;
      if (from > end) from = end;
      stretch: for (;;) {
        // r = i · CALL_STRIDE, the call's record in callData (compile.ts): 0 output, 1 reasoning, 2 step
        // latency, 3 step tokens, 4 latency, 5 tool latency, 6 largest result, 7 tool calls. The offsets
        // are literals: imported constants are module bindings, loaded and checked on every use.
        for (let r = i * 8; i < from; i++, r += 8) {
          const start = len > keepWindow ? len - keepWindow : 0;
          const view = windowed ? fixed + kept - prefix[start]! : fixed + kept;
          // The prompt billed: the view, or a recorded size moved by what the strategy changed.
          let input = view, delta = 0;
          if (meterRecorded && (flagsOf[i]! & recordedInputFlag) !== 0) {
            const recordedInput = recordedInputOf[i]!;
            const fullInput = fixed + (trackRaw ? raw : kept);
            delta = recordedInput - fullInput;
            if (identity) input = recordedInput;
            else {
              input = recordedInput + view - fullInput;
              if (input < 0) input = 0;
            }
          }
          const out = callData[r]!;
          const reasoning = callData[r + 1]!;
          let pInput = baseInput, pCached = baseCached, pWrite = baseWrite, pWrite1h = baseWrite1h, pOutput = baseOutput, pReasoning = baseReasoning;
          if (input > tier1Above) {
            let k = 1;
            while (k < tierCount && input > rows[(k + 1) * 7]!) k++;
            const p = k * 7;
            pInput = rows[p + 1]!; pCached = rows[p + 2]!; pWrite = rows[p + 3]!; pWrite1h = rows[p + 4]!; pOutput = rows[p + 5]!; pReasoning = rows[p + 6]!;
          }
          let plainOut = out - reasoning;
          if (plainOut < 0) plainOut = 0;
          // The readable path's sum (meter.ts, pricing/cost.ts) without its terms that are + 0 here.
          let cost: number, cached = 0, write = 0;
          if (cacheRecorded) {
            cached = recordedCachedOf[i]!;
            write = recordedWriteOf[i]!;
            let write1h = recordedWrite1hOf[i]!;
            if (!identity) {
              // The cache serves no more than the unchanged prefix (plus overhead the model does not see).
              const servable = (start === prevStart ? prevView : fixed) + (delta > 0 ? delta : 0);
              if (servable < cached) cached = servable;
              if (input < cached) cached = input;
              const writable = input - cached;
              if (writable < write) write = writable;
              if (writable - write < write1h) write1h = writable - write;
            }
            let uncached = input - cached - write - write1h;
            if (uncached < 0) uncached = 0;
            cost = uncached * pInput + cached * pCached + write * pWrite + write1h * pWrite1h + plainOut * pOutput + reasoning * pReasoning;
            write += write1h;
          } else if (cacheOn) {
            const unchanged = start === prevStart ? prevView : fixed;
            cached = unchanged < input ? unchanged : input;
            if (hasCacheWritePrice) write = input - cached;
            let uncached = input - cached - write;
            if (uncached < 0) uncached = 0;
            cost = uncached * pInput + cached * pCached + write * pWrite + plainOut * pOutput + reasoning * pReasoning;
          } else {
            cost = (input > 0 ? input : 0) * pInput + plainOut * pOutput + reasoning * pReasoning;
          }

          // A brake before the call that could fire: the general step decides which, in order.
          if (elapsed >= timeoutMs || spent >= budget || spent + cost > predictBudget || tokensUsed >= maxTokens || input > window) break stretch;

          spent += cost;
          tokensUsed += input + out;
          const stepLatency = callData[r + 2]!;
          if (exactTime && stepLatency === stepLatency) {
            // Whole numbers: the call's and its tool calls' latencies added as one sum.
            elapsed += stepLatency;
          } else {
            const recordedLatency = callData[r + 4]!;
            elapsed += recordedLatency === recordedLatency ? recordedLatency : modelCallMs + input * modelInputMs + out * modelOutputMs;
            const toolLatency = callData[r + 5]!;
            if (toolLatency === toolLatency && (exactTime || callData[r + 7]! <= 1)) {
              // One tool call, or whole numbers: the sum is what adding them one by one gives.
              elapsed += toolLatency;
            } else {
              for (let j = toolStart[i]!, e = toolStart[i + 1]!; j < e; j++) {
                const latency = toolLatencyMs[j]!;
                elapsed += latency === latency ? latency : perToolMs;
              }
            }
          }
          cachedTotal += cached;
          writeTotal += write;
          prevStart = start;
          prevView = view;

          if (capped) {
            const stepTokens = callData[r + 3]!;
            let keptTokens = stepTokens;
            if (callData[r + 6]! > cap) {
              if (callData[r + 7]! === 1) keptTokens = out + cap;
              else {
                keptTokens = out;
                for (let j = toolStart[i]!, e = toolStart[i + 1]!; j < e; j++) {
                  const result = resultTokens[j]!;
                  keptTokens += result < cap ? result : cap;
                }
              }
            }
            kept += keptTokens;
            len++;
            prefix[len] = kept;
            if (trackRaw) {
              raw += stepTokens;
              rawPrefix[len] = raw;
            }
          } else {
            kept += callData[r + 3]!;
            len++;
            prefix[len] = kept;
          }
        }
        if (from === end || steps === null) break;
        // Calls from i on in closed form, then the rest (if any) one by one.
        const cf = closedFormState;
        cf[CF_SPENT] = spent;
        cf[CF_ELAPSED] = elapsed;
        cf[CF_TOKENS] = tokensUsed;
        cf[CF_CACHED] = cachedTotal;
        cf[CF_WRITE] = writeTotal;
        cf[CF_KEPT] = kept;
        cf[CF_RAW] = raw;
        cf[CF_PREV_VIEW] = prevView;
        const reached = advanceClosedForm(t, steps, i, end, rows, tierCount, prefix, rawPrefix, len);
        if (reached > i) {
          len += reached - i;
          i = reached;
          spent = cf[CF_SPENT]!;
          elapsed = cf[CF_ELAPSED]!;
          tokensUsed = cf[CF_TOKENS]!;
          cachedTotal = cf[CF_CACHED]!;
          writeTotal = cf[CF_WRITE]!;
          kept = cf[CF_KEPT]!;
          raw = cf[CF_RAW]!;
          prevView = cf[CF_PREV_VIEW]!;
          prevStart = windowed ? len - 1 - keepWindow : 0;
        }
        from = end;
      }
    }

    // ── General step: call i, exactly as the readable path. ──
    const start = len > keepGeneral ? len - keepGeneral : 0;
    const view = fixed + kept - prefix[start]!;
    const unchanged = start === prevStart ? prevView : fixed;
    const fullInput = fixed + (trackRaw ? raw : kept);
    const exhausted = i >= n;
    let input = view, cached = 0, write = 0, write1h = 0, out = 0, reasoning = 0, cost = 0, flags = 0, delta = 0;
    if (!exhausted) {
      flags = flagsOf[i]!;
      const failed = (flags & failedFlag) !== 0;
      const recorded = (flags & recordedInputFlag) !== 0;
      if (failed) input = recorded ? t.recordedInput[i]! : 0;
      else if (recorded) {
        const rec = t.recordedInput[i]!;
        delta = rec - fullInput;
        if (identity) input = rec;
        else {
          input = rec + view - fullInput;
          if (input < 0) input = 0;
        }
      }
      if (cacheRecorded || failed) {
        cached = t.cached[i]!;
        write = t.cacheWrite[i]!;
        write1h = t.cacheWrite1h[i]!;
        if (!identity && !failed) {
          const servable = unchanged + (delta > 0 ? delta : 0);
          if (servable < cached) cached = servable;
          if (input < cached) cached = input;
          const writable = input - cached;
          if (writable < write) write = writable;
          if (writable - write < write1h) write1h = writable - write;
        }
      } else if (cacheOn) {
        cached = unchanged < input ? unchanged : input;
        if (hasCacheWritePrice) write = input - cached;
      }
      out = outputOf[i]!;
      reasoning = reasoningOf[i]!;
      let k = 0;
      while (k < tierCount && input > rows[(k + 1) * 7]!) k++;
      const p = k * 7;
      let uncached = input - cached - write - write1h;
      if (uncached < 0) uncached = 0;
      let plainOut = out - reasoning;
      if (plainOut < 0) plainOut = 0;
      cost = uncached * rows[p + 1]! + cached * rows[p + 2]! + write * rows[p + 3]! + write1h * rows[p + 4]! + plainOut * rows[p + 5]! + reasoning * rows[p + 6]!;
    }

    // Brakes before the call, in the fixed order.
    if (i - nonSteps >= maxSteps) { reason = R_MAX_STEPS; break; }
    if (elapsed >= timeoutMs) { reason = R_TIMEOUT; break; }
    if (hasBudget && (spent >= budget || (predict && !exhausted && spent + cost > budget))) { reason = R_BUDGET; break; }
    if (tokensUsed >= maxTokens) { reason = R_TOKENS; break; }
    if (input > window) { reason = R_CONTEXT; break; }
    if (exhausted) { reason = t.exhaustedCompleted ? R_COMPLETED : R_TRACE_END; break; }

    // The call is made.
    const call = i++;
    const backtrack = (flags & backtrackFlag) !== 0;
    const compaction = (flags & compactionFlag) !== 0;
    const failed = (flags & failedFlag) !== 0;
    if (backtrack) backtracks++;
    if (backtrack || compaction) nonSteps++;
    if (failed) failedCalls++;
    spent += cost;
    tokensUsed += input + out;
    const recordedLatency = latencyOf[call]!;
    elapsed += recordedLatency === recordedLatency ? recordedLatency : hasLatencyModel ? perCallMs + input * perInputTokenMs + out * perOutputTokenMs : 0;
    cachedTotal += cached;
    writeTotal += write + write1h;
    prevStart = start;
    prevView = view;

    if (backtrack) {
      if (len > 0) {
        len--;
        kept = prefix[len]!;
        raw = rawPrefix[len]!;
      }
      // The next prompt shares the previous one up to the shortened history.
      prevView = fixed + prefix[len > start ? len : start]! - prefix[start]!;
      if (backtracks > maxBacktracks) { reason = R_BACKTRACKS; break; }
      continue;
    }
    if (failed || compaction) continue;

    len++;
    kept += out;
    raw += out;
    const t0 = toolStart[call]!;
    const t1 = toolStart[call + 1]!;
    if (t0 === t1 && (flags & unparseableFlag) === 0) { reason = R_COMPLETED; break; }
    for (let j = t0; j < t1; j++) {
      if (seenOf[j]! >= maxRepeat) { reason = R_REPEAT; toolCalls = t.toolsBefore[call]! + (j - t0); break; }
      const result = resultTokens[j]!;
      kept += result < cap ? result : cap;
      raw += result;
      const toolLatency = toolLatencyMs[j]!;
      elapsed += toolLatency === toolLatency ? toolLatency : perToolMs;
      if (errorOf[j]! >= 0 && errorCountOf[j]! >= maxSameError) { reason = R_ERROR_LIMIT; toolCalls = t.toolsBefore[call]! + (j - t0 + 1); break; }
    }
    if (reason >= 0) break;
    prefix[len] = kept;
    if (trackRaw) rawPrefix[len] = raw;
    if ((flags & finalFlag) !== 0) { reason = R_COMPLETED; break; }
  }

  // i = calls made.
  if (!Number.isSafeInteger(spent)) {
    throw new UserError({ code: 'cost_out_of_range', message: `one run costs more than $9,007 (${i} calls), beyond exact picodollar arithmetic`, hint: 'set --max-steps, --max-cost or --context-window to bound the run' });
  }
  const outputTokens = t.outputBefore[i]!;
  return {
    reason: STOP_REASONS[reason]!,
    steps: i - nonSteps,
    calls: i,
    backtracks,
    failedCalls,
    toolCalls: toolCalls >= 0 ? toolCalls : t.toolsBefore[i]!,
    inputTokens: tokensUsed - outputTokens,
    cachedInputTokens: cachedTotal,
    cacheWriteTokens: writeTotal,
    outputTokens,
    reasoningTokens: t.reasoningBefore[i]!,
    costPico: spent,
    overshootPico: hasBudget && spent > budget ? spent - budget : 0,
    elapsedMs: elapsed,
  };
}

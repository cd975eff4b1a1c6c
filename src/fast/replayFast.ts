/**
 * The fast replay path: the same loop, brakes, context strategy and meter as src/loop/run.ts, written as
 * one plain loop over a CompiledTrace's typed arrays, with no allocation per step and no strings. It
 * returns the same figures as the readable path (test/core/fastPath.test.ts proves it on random traces,
 * brakes and strategies); stop details are left to the readable path.
 */
import type { BrakeConfig } from '../brakes/config.js';
import { STOP_REASONS, type StopReason } from '../brakes/stopReasons.js';
import type { CacheMode, ContextStrategy } from '../context/strategy.js';
import { UserError } from '../errors.js';
import type { LatencyModel } from '../loop/latency.js';
import type { RunTotals } from '../loop/types.js';
import type { ModelPricing, TokenPrices } from '../pricing/types.js';
import {
  FLAG_BACKTRACK,
  FLAG_COMPACTION,
  FLAG_FAILED,
  FLAG_FINAL,
  FLAG_RECORDED_INPUT,
  FLAG_UNPARSEABLE,
  type CompiledTrace,
} from './compile.js';

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

export function replayFast(
  t: CompiledTrace,
  brakes: BrakeConfig,
  strategy: ContextStrategy,
  cache: CacheMode,
  prices: FlatPrices,
  latency?: LatencyModel,
): FastOutcome {
  const perCallMs = latency?.perCallMs ?? 0;
  const perInputTokenMs = latency?.perInputTokenMs ?? 0;
  const perOutputTokenMs = latency?.perOutputTokenMs ?? 0;
  const perToolCallMs = latency?.perToolCallMs ?? 0;
  const hasLatencyModel = latency !== undefined;
  const maxSteps = brakes.maxSteps ?? Infinity;
  const timeoutMs = brakes.timeoutMs ?? Infinity;
  const hasBudget = brakes.maxCostPico !== undefined;
  const budget = brakes.maxCostPico ?? Infinity;
  const predict = brakes.budgetMode === 'predict';
  const maxTokens = brakes.maxTokens ?? Infinity;
  const window = brakes.contextWindow === 'model' ? prices.contextWindow : (brakes.contextWindow ?? Infinity);
  const maxRepeat = brakes.maxRepeat ?? Infinity;
  const repeatMode = brakes.repeatMode === 'total' ? 0 : brakes.repeatMode === 'consecutive' ? 1 : 2;
  const maxSameError = brakes.maxSameError ?? Infinity;
  const errorTotal = brakes.sameErrorMode === 'total';
  const maxBacktracks = brakes.maxBacktracks ?? Infinity;

  const keepSteps = strategy.kind === 'window' ? (strategy.windowSteps ?? Infinity) : Infinity;
  const cap = strategy.toolResultCap ?? Infinity;
  const identity = strategy.kind === 'full' && strategy.toolResultCap === undefined;
  const cacheMode = cache === 'recorded' ? 2 : cache === 'on' ? 1 : 0;
  const rows = prices.rows;
  const tierCount = prices.tiers;

  const n = t.calls;
  const fixed = t.systemTokens + t.goalTokens;
  const prefix = new Float64Array(n + 1);
  const raw = new Float64Array(n);
  const actionCounts = new Int32Array(t.actionIds);
  const errorCounts = new Int32Array(t.errorIds);

  let len = 0;
  let rawTotal = 0;
  let prevStart = -1;
  let prevEnd = 0;
  let lowWater = 0;

  let steps = 0, calls = 0, backtracks = 0, failedCalls = 0, toolCalls = 0;
  let spent = 0, elapsed = 0, tokensUsed = 0;
  let inputTotal = 0, cachedTotal = 0, writeTotal = 0, outputTotal = 0, reasoningTotal = 0;
  let lastAction = -1, secondLastAction = -1, actionRun = 0, alternation = 0;
  let lastError = -1, errorRun = 0;
  let reason = -1;

  for (let i = 0; ; i++) {
    // The prompt the next call would send.
    const start = len > keepSteps ? len - keepSteps : 0;
    const viewInput = fixed + prefix[len]! - prefix[start]!;
    const fullInput = fixed + rawTotal;
    let unchanged = 0;
    if (prevStart >= 0) {
      if (start === prevStart) {
        let sharedEnd = prevEnd < lowWater ? prevEnd : lowWater;
        if (len < sharedEnd) sharedEnd = len;
        if (sharedEnd < start) sharedEnd = start;
        unchanged = fixed + prefix[sharedEnd]! - prefix[start]!;
      } else {
        unchanged = fixed;
      }
    }

    const exhausted = i >= n;
    let input = viewInput, cached = 0, write = 0, write1h = 0, out = 0, reasoning = 0, cost = 0, flags = 0, delta = 0;
    if (!exhausted) {
      flags = t.flags[i]!;
      const failed = (flags & FLAG_FAILED) !== 0;
      const recorded = (flags & FLAG_RECORDED_INPUT) !== 0;
      if (failed) input = recorded ? t.recordedInput[i]! : 0;
      else if (recorded) {
        const rec = t.recordedInput[i]!;
        delta = rec - fullInput;
        if (identity) input = rec;
        else {
          input = rec + viewInput - fullInput;
          if (input < 0) input = 0;
        }
      }
      if (cacheMode === 2 || failed) {
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
      } else if (cacheMode === 1) {
        cached = unchanged < input ? unchanged : input;
        if (prices.hasCacheWritePrice) write = input - cached;
      }
      out = t.output[i]!;
      reasoning = t.reasoning[i]!;
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
    if (steps >= maxSteps) { reason = R_MAX_STEPS; break; }
    if (elapsed >= timeoutMs) { reason = R_TIMEOUT; break; }
    if (hasBudget && (spent >= budget || (predict && !exhausted && spent + cost > budget))) { reason = R_BUDGET; break; }
    if (tokensUsed >= maxTokens) { reason = R_TOKENS; break; }
    if (input > window) { reason = R_CONTEXT; break; }
    if (exhausted) { reason = t.exhaustedCompleted ? R_COMPLETED : R_TRACE_END; break; }

    // The call is made.
    prevStart = start;
    prevEnd = len;
    lowWater = len;
    const backtrack = (flags & FLAG_BACKTRACK) !== 0;
    const compaction = (flags & FLAG_COMPACTION) !== 0;
    calls++;
    if (backtrack) backtracks++;
    if (!backtrack && !compaction) steps++;
    spent += cost;
    tokensUsed += input + out;
    const recordedLatency = t.latencyMs[i]!;
    elapsed += recordedLatency === recordedLatency ? recordedLatency : hasLatencyModel ? perCallMs + input * perInputTokenMs + out * perOutputTokenMs : 0;
    inputTotal += input;
    cachedTotal += cached;
    writeTotal += write + write1h;
    outputTotal += out;
    reasoningTotal += reasoning;
    if ((flags & FLAG_FAILED) !== 0) failedCalls++;

    if (backtrack) {
      if (len > 0) {
        len--;
        rawTotal -= raw[len]!;
        if (len < lowWater) lowWater = len;
      }
      if (backtracks > maxBacktracks) { reason = R_BACKTRACKS; break; }
      continue;
    }
    if ((flags & FLAG_FAILED) !== 0 || compaction) continue;

    prefix[len + 1] = prefix[len]! + out;
    raw[len] = out;
    rawTotal += out;
    len++;
    const t0 = t.toolStart[i]!;
    const t1 = t.toolStart[i + 1]!;
    if (t0 === t1 && (flags & FLAG_UNPARSEABLE) === 0) { reason = R_COMPLETED; break; }
    for (let j = t0; j < t1; j++) {
      const a = t.action[j]!;
      // Repeated action: seen = how often this action already ran, in the mode's sense.
      let nextAlternation: number;
      if (lastAction < 0 || a === lastAction) nextAlternation = 1;
      else if (alternation >= 2 && a === secondLastAction) nextAlternation = alternation + 1;
      else nextAlternation = 2;
      const seen = repeatMode === 0 ? actionCounts[a]! : repeatMode === 1 ? (a === lastAction ? actionRun : 0) : nextAlternation >= 3 ? Math.ceil(nextAlternation / 2) - 1 : 0;
      if (seen >= maxRepeat) { reason = R_REPEAT; break; }
      actionCounts[a]!++;
      alternation = nextAlternation;
      actionRun = a === lastAction ? actionRun + 1 : 1;
      secondLastAction = lastAction;
      lastAction = a;
      toolCalls++;
      const result = t.resultTokens[j]!;
      prefix[len] = prefix[len]! + (result < cap ? result : cap);
      raw[len - 1] = raw[len - 1]! + result;
      rawTotal += result;
      const toolLatency = t.toolLatencyMs[j]!;
      elapsed += toolLatency === toolLatency ? toolLatency : perToolCallMs;
      const e = t.error[j]!;
      if (e < 0) {
        errorRun = 0;
        lastError = -1;
      } else {
        errorCounts[e]!++;
        errorRun = e === lastError ? errorRun + 1 : 1;
        lastError = e;
        if ((errorTotal ? errorCounts[e]! : errorRun) >= maxSameError) { reason = R_ERROR_LIMIT; break; }
      }
    }
    if (reason >= 0) break;
    if ((flags & FLAG_FINAL) !== 0) { reason = R_COMPLETED; break; }
  }

  if (!Number.isSafeInteger(spent)) {
    throw new UserError({ code: 'cost_out_of_range', message: `one run costs more than $9,007 (${calls} calls), beyond exact picodollar arithmetic`, hint: 'set --max-steps, --max-cost or --context-window to bound the run' });
  }
  return {
    reason: STOP_REASONS[reason]!,
    steps,
    calls,
    backtracks,
    failedCalls,
    toolCalls,
    inputTokens: inputTotal,
    cachedInputTokens: cachedTotal,
    cacheWriteTokens: writeTotal,
    outputTokens: outputTotal,
    reasoningTokens: reasoningTotal,
    costPico: spent,
    overshootPico: hasBudget && spent > budget ? spent - budget : 0,
    elapsedMs: elapsed,
  };
}

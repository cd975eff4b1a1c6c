/**
 * A run under brakes, read off a run table (runTable.ts) of the same trace and non-brake settings whose
 * own limits are at least as loose: the first call where any brake may fire is a binary search over the
 * table's running maxima (each with the kernel's comparison), and there the kernel decides, in its
 * order, exactly as the per-step loop would — before the call (beforeCallStop) or inside it (callStop).
 */
import { backtracksPastCap, budgetSpent, budgetWouldCross, beforeCallStop, promptTooLarge, stepCapReached, timedOut, tokenCapReached } from '../kernel/brakes.js';
import { CallField } from '../kernel/callRecord.js';
import { predictiveBoundPico } from '../kernel/cost.js';
import type { CacheWrites } from '../kernel/cacheWrites.js';
import { boundWrites } from '../kernel/meter.js';
import { modelledCallMs, modelledToolMs } from '../kernel/latency.js';
import { Limit, predicts, type BrakeLimits } from '../kernel/limits.js';
import { StopCode } from '../kernel/stopCodes.js';
import { endsBeforeNextCall } from '../kernel/gaveUp.js';
import { callStop, errorCounts, seenCounts, stoppedAt, toolsRunUntil } from './callStop.js';
import { CompiledField, type CompiledTrace } from './layout.js';
import { refusedCallMs } from './refusal.js';
import { resetRun, Run, type RunState } from './runState.js';
import { RunSetting, type RunSettings } from './settings.js';
import type { RunTable } from './runTable.js';

/** Which kernel comparison a search makes (one function, no predicate passed around: nothing is boxed). */
const enum Compare {
  Timeout,
  Budget,
  Crossing,
  Tokens,
  Prompt,
}

function fires(compare: Compare, value: number, limit: number): boolean {
  switch (compare) {
    case Compare.Timeout:
      return timedOut(value, limit);
    case Compare.Budget:
      return budgetSpent(value, limit);
    case Compare.Crossing:
      // The running maximum of spent + bound against the predictive budget.
      return budgetWouldCross(value, 0, limit);
    case Compare.Tokens:
      return tokenCapReached(value, limit);
    default:
      return promptTooLarge(value, limit);
  }
}

/** The first k in [0, end] where the comparison fires on a non-decreasing `values`, or end + 1. */
function firstIndex(values: Float64Array, end: number, limit: number, compare: Compare): number {
  // Most brakes never fire within a run: one comparison says so.
  if (limit === Infinity || !fires(compare, values[end]!, limit)) return end + 1;
  let lo = 0;
  let hi = end + 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (fires(compare, values[mid]!, limit)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The first call k ≤ end before which the step cap is reached (steps = calls − non-steps, non-decreasing). */
export function firstStepCap(t: CompiledTrace, end: number, maxSteps: number): number {
  if (maxSteps === Infinity || !stepCapReached(end - t.nonStepsBefore[end]!, maxSteps)) return end + 1;
  let lo = 0;
  let hi = end + 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (stepCapReached(mid - t.nonStepsBefore[mid]!, maxSteps)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** max over j ≤ k of spent[j] + bound[j] at this maxOutputTokens, the trace's cache writes as the table's cache leaves them (a table is one trace's, under one setting). */
function crossMaxFor(table: RunTable, maxOutput: number, t: CompiledTrace): Float64Array {
  if (table.crossFor !== maxOutput) {
    const prices = table.prices;
    const cacheWrites = tableWrites(table, t);
    let max = -Infinity;
    for (let k = 0; k <= table.end; k++) {
      const v = table.spent[k]! + predictiveBoundPico(prices, estimateAt(table, k), maxOutput, cacheWrites);
      if (v > max) max = v;
      table.crossMax[k] = max;
    }
    table.crossFor = maxOutput;
  }
  return table.crossMax;
}

/** The writes the bound prices in `table`: the trace's, as the table's cache leaves them (meter.ts boundWrites). */
function tableWrites(table: RunTable, t: CompiledTrace): CacheWrites {
  return boundWrites(t.cacheWrites, table.settings[RunSetting.CacheMode]!);
}

/** The first call where a brake before a call may fire under `limits` (end + 1 when none does by the table's end). */
export function firstBeforeCallStop(table: RunTable, t: CompiledTrace, limits: BrakeLimits): number {
  const end = table.end;
  let c = firstStepCap(t, end, limits[Limit.MaxSteps]!);
  c = Math.min(c, firstIndex(table.elapsedMax, Math.min(end, c), limits[Limit.TimeoutMs]!, Compare.Timeout));
  c = Math.min(c, firstIndex(table.spentMax, Math.min(end, c), limits[Limit.BudgetPico]!, Compare.Budget));
  if (predicts(limits)) {
    const cross = crossMaxFor(table, limits[Limit.MaxOutputTokens]!, t);
    c = Math.min(c, firstIndex(cross, Math.min(end, c), limits[Limit.PredictBudgetPico]!, Compare.Crossing));
  }
  c = Math.min(c, firstIndex(table.tokensMax, Math.min(end, c), limits[Limit.MaxTokens]!, Compare.Tokens));
  return Math.min(c, firstIndex(table.promptMax, Math.min(end, c), limits[Limit.ContextWindow]!, Compare.Prompt));
}

/** The first backtrack call past the backtrack cap (n when none). */
export function firstBacktrackStop(t: CompiledTrace, limits: BrakeLimits): number {
  const max = limits[Limit.MaxBacktracks]!;
  const b = t.backtracksBefore;
  if (!backtracksPastCap(b[t.calls]!, max)) return t.calls;
  let lo = 1;
  let hi = t.calls + 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (backtracksPastCap(b[mid]!, max)) hi = mid;
    else lo = mid + 1;
  }
  return lo - 1;
}

/**
 * The run under `limits` into `st`, as replayCompiled leaves it; StopCode.None when the table ends
 * first (its own limits were not all looser). `toolStop`: the first call where a repeat or same-error
 * brake fires (replayFast toolStopCall).
 */
export function stopInTable(table: RunTable, t: CompiledTrace, limits: BrakeLimits, toolStop: number, st: RunState): StopCode {
  const before = firstBeforeCallStop(table, t, limits);
  let c = Math.min(before, toolStop, firstBacktrackStop(t, limits), table.end);
  resetRun(st);
  const seen = seenCounts(t, limits);
  const errors = errorCounts(t, limits);
  const cacheWrites = tableWrites(table, t);
  for (; c <= table.end; c++) {
    const estimate = estimateAt(table, c);
    const bound = predicts(limits) ? predictiveBoundPico(table.prices, estimate, limits[Limit.MaxOutputTokens]!, cacheWrites) : 0;
    // The brakes, then the recording's end (before them where it asked for no other call: kernel/gaveUp.ts).
    let code = endsBeforeNextCall(c, t.calls, t.endsAfterLastCall) ? StopCode.None : beforeCallStop(limits, c - t.nonStepsBefore[c]!, table.elapsed[c]!, table.spent[c]!, bound, table.tokens[c]!, estimate);
    if (code === StopCode.None && c === t.calls) {
      code = t.exhaustedCode;
      st[Run.Exhausted] = 1;
    }
    if (code !== StopCode.None) {
      setFigures(table, c, st);
      st[Run.ElapsedMs] = table.elapsed[c]! + (code === StopCode.ProviderRefused ? refusedCallMs(t, table.settings) : 0);
      st[Run.BoundPico] = bound;
      st[Run.PromptEstimate] = estimate;
      st[Run.PromptTokens] = estimate;
      st[Run.Stop] = code;
      return code;
    }
    const flags = t.records[c * CompiledField.Stride + CallField.Flags]! | 0;
    code = callStop(t, c, flags, limits, seen, errors, c >= toolStop);
    if (code !== StopCode.None) {
      setFigures(table, c + 1, st);
      st[Run.ElapsedMs] = elapsedInside(table, t, c, code, stoppedAt.tool);
      st[Run.Stop] = code;
      st[Run.StopTool] = stoppedAt.tool;
      return code;
    }
  }
  // The table ends before these limits stop the run (its own limits are tighter somewhere).
  st[Run.Stop] = StopCode.None;
  return StopCode.None;
}

/** The predictive bound's prompt estimate before call k. */
export function estimateAt(table: RunTable, k: number): number {
  return table.estimateIsPrompt ? table.prompt[k]! : table.estimate[k]!;
}

function setFigures(table: RunTable, k: number, st: RunState): void {
  st[Run.Calls] = k;
  st[Run.StrategyCacheLost] = table.lostBefore === null ? 0 : table.lostBefore[k]!;
  st[Run.SpentPico] = table.spent[k]!;
  st[Run.TokensUsed] = table.tokens[k]!;
  const cache = table.hasCacheFigures;
  st[Run.CachedTokens] = cache ? table.cached[k]! : 0;
  st[Run.WrittenTokens] = cache ? table.written[k]! : 0;
  st[Run.RuleLostTokens] = cache ? table.ruleLost[k]! : 0;
}

/**
 * Time at a stop inside call c: after the call and all its tool calls (or none), the next entry; after
 * a tool brake, the call's own latency, then the tool calls that ran, one by one in order (as the per-step
 * loop adds them in a call where a tool brake may fire).
 */
function elapsedInside(table: RunTable, t: CompiledTrace, c: number, code: StopCode, tool: number): number {
  if (code !== StopCode.Repeat && code !== StopCode.ErrorLimit) return table.elapsed[c + 1]!;
  return elapsedAtToolStop(t, table.settings, c, code, tool, table.elapsed[c]!, table.prompt[c]!);
}

/** Time at a repeat or same-error stop inside call c, from the time before it and its prompt (`input`). */
export function elapsedAtToolStop(t: CompiledTrace, s: RunSettings, c: number, code: StopCode, tool: number, elapsedBefore: number, input: number): number {
  const at = c * CompiledField.Stride;
  let elapsed = elapsedBefore + modelledCallMs(t.records[at + CallField.LatencyMs]!, s[RunSetting.PerCallMs]!, s[RunSetting.PerInputTokenMs]!, s[RunSetting.PerOutputTokenMs]!, input, t.records[at + CallField.Output]!);
  const perToolMs = s[RunSetting.PerToolCallMs]!;
  for (let j = t.toolStart[c]!, ran = toolsRunUntil(t, c, code, tool); j < ran; j++) elapsed += modelledToolMs(t.toolLatencyMs[j]!, perToolMs);
  return elapsed;
}

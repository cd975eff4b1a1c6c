/**
 * The compiled replay's per-step loop: call after call of a compiled trace, every rule a kernel
 * function (context tracker, meter, brake order, tool brakes, latency), in the readable session's
 * order, with no allocation and no string. Only how tool calls are added is compiled: where no tool
 * brake can fire (before `toolStop`) a call's results enter as one precomputed step, and with whole
 * latencies its time as one sum (exact in any order).
 */
import { beforeCallStop, beforeCallStopWithin } from '../kernel/brakes.js';
import { predictiveBoundPico, promptEstimate } from '../kernel/cost.js';
import { CallField, CallFlag, TOOLS_DO_NOT_RUN } from '../kernel/callRecord.js';
import { compactContext, compacts } from '../kernel/compaction.js';
import type { ContextTracker } from '../kernel/context.js';
import { modelledCallMs, modelledToolMs } from '../kernel/latency.js';
import { Limit, predicts, type BrakeLimits } from '../kernel/limits.js';
import { boundWrites, CacheModeCode, Metered, meterCall, Prompt } from '../kernel/meter.js';
import type { FlatPrices } from '../kernel/prices.js';
import { StopCode } from '../kernel/stopCodes.js';
import { endsBeforeNextCall } from '../kernel/gaveUp.js';
import { ClosedAt, CompiledField, type CompiledTrace } from './layout.js';
import { callStop, errorCounts, seenCounts, stoppedAt, toolsRunUntil } from './callStop.js';
import { refusedCallMs } from './refusal.js';
import { Run, type RunState } from './runState.js';
import { record, type RunTable } from './runTable.js';
import { RunSetting, type RunSettings } from './settings.js';

const metered = new Float64Array(Metered.Size);
/** Calls that may end the run inside them whatever the tool brakes (a backtrack past its cap, an answer). */
const MAY_END_CALL = CallFlag.Backtrack | CallFlag.Answer | CallFlag.Final;
const promptRecord = new Float64Array(Prompt.Size);

/** Where a compiled run goes: its settings, and what replay derived from them for this trace. */
export interface RunPlan {
  t: CompiledTrace;
  settings: RunSettings;
  limits: BrakeLimits;
  prices: FlatPrices;
  ctx: ContextTracker;
  /** The first call where a repeat or same-error brake may fire. */
  toolStop: number;
  /** Every latency is a whole number: a call's time may be added as one precomputed sum. */
  exactTime: boolean;
  /** When set, the run's figures before every call are recorded into it (runTable.ts). */
  table: RunTable | null;
}

/**
 * Makes calls from st[Run.Calls] until one is refused or ends the run (returns its StopCode, with the
 * stop in `st`) or the next call to make is `until` (returns StopCode.None).
 */
export function runCalls(plan: RunPlan, st: RunState, until: number): StopCode {
  const { t, settings: s, limits, prices, ctx, toolStop, table } = plan;
  const exactTime = plan.exactTime;
  const identity = s[RunSetting.Identity] === 1;
  const cacheMode = s[RunSetting.CacheMode]! | 0;
  const cap = s[RunSetting.Cap]!;
  const perCallMs = s[RunSetting.PerCallMs]!, perInputMs = s[RunSetting.PerInputTokenMs]!, perOutputMs = s[RunSetting.PerOutputTokenMs]!;
  const perToolMs = s[RunSetting.PerToolCallMs]!;
  const predict = predicts(limits);
  const seenOf = seenCounts(t, limits);
  const errorCountOf = errorCounts(t, limits);
  const records = t.records;
  const toolStart = t.toolStart;
  const toolLatencyMs = t.toolLatencyMs;
  // nonStepsBefore from the interleaved record (the closed form has just read the refused call's).
  const closedSums = t.closedSums;
  const n = t.calls;
  const m = metered;
  const prompt = promptRecord;

  // Integers as int32 (a double index passed to a call would be boxed).
  let i = st[Run.Calls]! | 0;
  let spent = st[Run.SpentPico]!, elapsed = st[Run.ElapsedMs]!, tokens = st[Run.TokensUsed]!;
  let cached = st[Run.CachedTokens]!, written = st[Run.WrittenTokens]!, ruleLost = st[Run.RuleLostTokens]!;
  let overhead = st[Run.OverheadTokens]!;
  const maxOutput = limits[Limit.MaxOutputTokens]!;
  // The limits as numbers, read once (beforeCallStopWithin is the kernel's brake order over them).
  const maxSteps = limits[Limit.MaxSteps]!, timeoutMs = limits[Limit.TimeoutMs]!, budgetPico = limits[Limit.BudgetPico]!;
  const predictBudgetPico = limits[Limit.PredictBudgetPico]!, maxTokens = limits[Limit.MaxTokens]!, contextWindow = limits[Limit.ContextWindow]!;
  const rows = prices.rows;
  const tiers = prices.tiers;
  // The writes the bound prices: the run's, as this configuration's cache leaves them (meter.ts boundWrites).
  const cacheWrites = boundWrites(t.cacheWrites, cacheMode);
  // A window's cache hits lost to its slides, counted by the tracker as each call is sent (the cache on).
  const countLost = cacheMode !== CacheModeCode.Off && s[RunSetting.Keep] !== Infinity;
  let lost = st[Run.StrategyCacheLost]!;
  let code: StopCode = StopCode.None;
  let stopTool = -1;
  // The trace ran out before call i (then the prompt before it).
  let ranOut = false;
  let ranOutView = 0;
  for (; i < until; ) {
    ctx.promptInto(prompt);
    const view = prompt[Prompt.View]!;
    // What a live loop knows before the call: the prompt estimate (compared with the context window)
    // and the predictive budget's bound on it.
    const estimate = promptEstimate(view, overhead);
    const bound = predict ? predictiveBoundPico(rows, tiers, estimate, maxOutput, cacheWrites) : 0;
    if (i >= n) {
      // (The figures go through st: a double passed to a call that is not inlined would be boxed.)
      st[Run.BoundPico] = bound;
      st[Run.PromptEstimate] = estimate;
      st[Run.PromptTokens] = estimate;
      ranOut = true;
      ranOutView = view;
      break;
    }
    const at = i * CompiledField.Stride;
    // A table records the metered prompt of every call, the refused one too; otherwise the call is
    // metered once the brakes let it be made (the check reads none of the meter's figures).
    if (table !== null) {
      meterCall(m, prices, identity, cacheMode, records, at, prompt);
      record(table, i, spent, elapsed, tokens, cached, written, ruleLost);
      table.prompt[i] = m[Metered.Input]!;
      table.estimate[i] = estimate;
    }
    code = beforeCallStopWithin(maxSteps, timeoutMs, budgetPico, predictBudgetPico, maxTokens, contextWindow, i - closedSums[i * ClosedAt.Stride + ClosedAt.NonSteps]!, elapsed, spent, bound, tokens, estimate);
    if (code !== StopCode.None) {
      st[Run.BoundPico] = bound;
      st[Run.PromptEstimate] = estimate;
      st[Run.PromptTokens] = estimate;
      break;
    }

    // The call is made and paid.
    if (table === null) meterCall(m, prices, identity, cacheMode, records, at, prompt);
    const input = m[Metered.Input]!;
    const cost = m[Metered.CostPico]!;
    if (countLost) lost += ctx.cacheLostTokens();
    ctx.markSent();
    const call = i++;
    const output = records[at + CallField.Output]!;
    const flags = records[at + CallField.Flags]! | 0;
    if ((flags & CallFlag.Failed) === 0) overhead = input - view;
    spent += cost;
    tokens += input + output;
    cached += m[Metered.Cached]!;
    written += m[Metered.CacheWrite]! + m[Metered.CacheWrite1h]!;
    ruleLost += m[Metered.RuleLost]!;
    const stepLatency = records[at + CompiledField.StepLatency]!;
    // Whole latencies, no tool brake in this call: the call's and its tools' time as one sum.
    const wholeStep = exactTime && stepLatency === stepLatency && call < toolStop && (flags & TOOLS_DO_NOT_RUN) === 0;
    if (!wholeStep) elapsed += modelledCallMs(records[at + CallField.LatencyMs]!, perCallMs, perInputMs, perOutputMs, input, output);

    // What ends the run inside the call (kernel brakes in the session's order).
    code = call >= toolStop || (flags & MAY_END_CALL) !== 0 ? callStop(t, call, flags, limits, seenOf, errorCountOf, call >= toolStop) : StopCode.None;
    if ((flags & TOOLS_DO_NOT_RUN) !== 0) {
      if ((flags & CallFlag.Backtrack) !== 0) ctx.dropLastStep();
      else if (compacts(flags)) overhead = compactContext(ctx, output, t.framingTokens);
      if (code !== StopCode.None) break;
      continue;
    }
    if (wholeStep) elapsed += stepLatency;
    const t0 = toolStart[call]!;
    const t1 = toolStart[call + 1]!;
    if (code === StopCode.None && call < toolStop && records[at + CompiledField.MaxResult]! <= cap) {
      // No tool brake can fire and no result is capped: the whole step at once.
      const stepTokens = records[at + CompiledField.StepTokens]!;
      ctx.addClosedStep(stepTokens, stepTokens);
      if (!wholeStep) elapsed = addToolTime(elapsed, records[at + CompiledField.ToolLatency]!, exactTime || t1 - t0 <= 1, toolLatencyMs, t0, t1, perToolMs);
    } else {
      stopTool = code === StopCode.None ? -1 : stoppedAt.tool;
      elapsed = addStepByTool(t, ctx, call, output, code === StopCode.None ? t1 : toolsRunUntil(t, call, code, stopTool), !wholeStep, perToolMs, elapsed);
    }
    if (code !== StopCode.None) break;
  }
  if (table !== null) record(table, i, spent, elapsed, tokens, cached, written, ruleLost);
  st[Run.Calls] = i;
  st[Run.SpentPico] = spent;
  st[Run.ElapsedMs] = elapsed;
  st[Run.TokensUsed] = tokens;
  st[Run.CachedTokens] = cached;
  st[Run.WrittenTokens] = written;
  st[Run.RuleLostTokens] = ruleLost;
  st[Run.StrategyCacheLost] = lost;
  st[Run.OverheadTokens] = overhead;
  if (ranOut) code = traceRanOut(plan, st, i, ranOutView);
  st[Run.Stop] = code;
  st[Run.StopTool] = stopTool;
  return code;
}

/**
 * The trace ran out before call i (the run's figures, the bound and the prompt estimate in `st`): the
 * brakes before a call still apply, then the recorded ending — unless it asked for no other call (its model gave up, or it was aborted: kernel/gaveUp.ts).
 */
function traceRanOut(plan: RunPlan, st: RunState, i: number, view: number): StopCode {
  const { t, limits, table } = plan;
  const estimate = st[Run.PromptEstimate]!;
  if (table !== null) {
    table.prompt[i] = view;
    table.estimate[i] = estimate;
  }
  let code = endsBeforeNextCall(i, t.calls, t.endsAfterLastCall) ? StopCode.None : beforeCallStop(limits, i - t.nonStepsBefore[i]!, st[Run.ElapsedMs]!, st[Run.SpentPico]!, st[Run.BoundPico]!, st[Run.TokensUsed]!, estimate);
  if (code === StopCode.None) {
    code = t.exhaustedCode;
    st[Run.Exhausted] = 1;
    if (code === StopCode.ProviderRefused) st[Run.ElapsedMs] = st[Run.ElapsedMs]! + refusedCallMs(t, plan.settings);
  }
  return code;
}

/**
 * A call's step entered tool call by tool call (a tool brake may fire, or a result is capped): its
 * output, then the results of tool calls toolStart[call]..ran−1, each with its time when `timed` (else
 * the step's time was added whole). Returns the elapsed time.
 */
function addStepByTool(t: CompiledTrace, ctx: ContextTracker, call: number, output: number, ran: number, timed: boolean, perToolMs: number, elapsed: number): number {
  ctx.addStep(output);
  const resultTokens = t.resultTokens;
  const toolLatencyMs = t.toolLatencyMs;
  for (let j = t.toolStart[call]!; j < ran; j++) {
    ctx.addToolResult(resultTokens[j]!);
    if (timed) elapsed += modelledToolMs(toolLatencyMs[j]!, perToolMs);
  }
  ctx.closeStep();
  return elapsed;
}

/** A call's tool latencies: their precomputed sum when that is what adding them one by one gives. */
function addToolTime(elapsed: number, sum: number, sumIsExact: boolean, toolLatencyMs: Float64Array, t0: number, t1: number, perToolMs: number): number {
  if (sum === sum && sumIsExact) return elapsed + sum;
  for (let j = t0; j < t1; j++) elapsed += modelledToolMs(toolLatencyMs[j]!, perToolMs);
  return elapsed;
}

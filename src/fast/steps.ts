/**
 * The compiled replay's per-step loop: call after call of a compiled trace, every rule a kernel
 * function (context tracker, meter, brake order, tool brakes, latency), in the readable session's
 * order, with no allocation and no string. Only how tool calls are added is compiled: where no tool
 * brake can fire (before `toolStop`) a call's results enter as one precomputed step, and with whole
 * latencies its time as one sum (exact in any order).
 */
import { beforeCallStop } from '../kernel/brakes.js';
import { predictiveBoundPico, promptEstimate } from '../kernel/cost.js';
import { CallField, CallFlag, TOOLS_DO_NOT_RUN } from '../kernel/callRecord.js';
import { enterCall } from '../kernel/callContext.js';
import type { ContextTracker } from '../kernel/context.js';
import { modelledCallMs, modelledToolMs } from '../kernel/latency.js';
import { Limit, predicts, type BrakeLimits } from '../kernel/limits.js';
import { CacheWrites } from '../kernel/cacheWrites.js';
import { boundWrites, CacheModeCode, Metered, meterCall, Prompt } from '../kernel/meter.js';
import type { FlatPrices } from '../kernel/prices.js';
import { StopCode } from '../kernel/stopCodes.js';
import { endsBeforeNextCall } from '../kernel/gaveUp.js';
import { ClosedAt, CompiledField, type CompiledTrace } from './layout.js';
import { callStop, errorCounts, seenCounts, stoppedAt, toolsRunUntil } from './callStop.js';
import { refusedCallMs } from './refusal.js';
import { compiledCountsCacheLost } from './recordsCache.js';
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

/** What the per-step loop reads at every call, derived once per runCalls from its plan (one record reused: no allocation). */
const loop = {
  cacheMode: CacheModeCode.Off as number,
  /** A window's cache hits lost to its slides, counted by the tracker as each call is sent (where the run has a cache: kernel/cacheLost.ts). */
  countLost: false,
  predict: false,
  /** The writes the bound prices: the run's, as this configuration's cache leaves them (meter.ts boundWrites). */
  cacheWrites: CacheWrites.None as CacheWrites,
  seen: new Int32Array(0) as Int32Array,
  errorCount: new Int32Array(0) as Int32Array,
};

/**
 * Makes calls from st[Run.Calls] until one is refused or ends the run (returns its StopCode, with the
 * stop in `st`) or the next call to make is `until` (returns StopCode.None). The run's figures are
 * carried in `st` from call to call.
 */
export function runCalls(plan: RunPlan, st: RunState, until: number): StopCode {
  const { t, settings: s, limits, prices, ctx, table } = plan;
  loop.cacheMode = s[RunSetting.CacheMode]! | 0;
  loop.countLost = s[RunSetting.Keep] !== Infinity && compiledCountsCacheLost(loop.cacheMode, t);
  loop.predict = predicts(limits);
  loop.cacheWrites = boundWrites(t.cacheWrites, loop.cacheMode);
  loop.seen = seenCounts(t, limits);
  loop.errorCount = errorCounts(t, limits);
  const maxOutputTokens = limits[Limit.MaxOutputTokens]!;
  // nonStepsBefore from the interleaved record (the closed form has just read the refused call's).
  const closedSums = t.closedSums;
  const n = t.calls;
  const prompt = promptRecord;
  st[Run.StopTool] = -1;
  let code: StopCode = StopCode.None;
  // Integers as int32 (a double index passed to a call would be boxed).
  let i = st[Run.Calls]! | 0;
  // The trace ran out before call i (then the prompt before it).
  let ranOut = false;
  let ranOutViewTokens = 0;
  for (; i < until; ) {
    ctx.promptInto(prompt);
    const viewTokens = prompt[Prompt.View]!;
    // What a live loop knows before the call: the prompt estimate (compared with the context window)
    // and the predictive budget's bound on it.
    const estimateTokens = promptEstimate(viewTokens, st[Run.OverheadTokens]!);
    const boundPico = loop.predict ? predictiveBoundPico(prices, estimateTokens, maxOutputTokens, loop.cacheWrites) : 0;
    ranOut = i >= n;
    if (!ranOut) {
      if (table !== null) recordBeforeCall(plan, st, i, estimateTokens);
      code = beforeCallStop(limits, i - closedSums[i * ClosedAt.Stride + ClosedAt.NonSteps]!, st[Run.ElapsedMs]!, st[Run.SpentPico]!, boundPico, st[Run.TokensUsed]!, estimateTokens);
    }
    if (ranOut || code !== StopCode.None) {
      st[Run.BoundPico] = boundPico;
      st[Run.PromptEstimate] = estimateTokens;
      st[Run.PromptTokens] = estimateTokens;
      ranOutViewTokens = viewTokens;
      break;
    }
    code = makeCall(plan, st, i, viewTokens);
    i++;
    if (code !== StopCode.None) break;
  }
  st[Run.Calls] = i;
  if (table !== null) record(table, i, st[Run.SpentPico]!, st[Run.ElapsedMs]!, st[Run.TokensUsed]!, st[Run.CachedTokens]!, st[Run.WrittenTokens]!, st[Run.RuleLostTokens]!);
  if (ranOut) code = traceRanOut(plan, st, i, ranOutViewTokens);
  st[Run.Stop] = code;
  return code;
}

/**
 * A table records the metered prompt of every call, the refused one too (then the call is metered here,
 * once: makeCall reads the meter's figures); otherwise the call is metered once the brakes let it be
 * made (the check reads none of the meter's figures).
 */
function recordBeforeCall(plan: RunPlan, st: RunState, i: number, estimateTokens: number): void {
  const table = plan.table!;
  meterCall(metered, plan.prices, plan.settings[RunSetting.Identity] === 1, loop.cacheMode, plan.t.records, i * CompiledField.Stride, promptRecord);
  record(table, i, st[Run.SpentPico]!, st[Run.ElapsedMs]!, st[Run.TokensUsed]!, st[Run.CachedTokens]!, st[Run.WrittenTokens]!, st[Run.RuleLostTokens]!);
  table.prompt[i] = metered[Metered.Input]!;
  table.estimate[i] = estimateTokens;
}

/** Call `call`, which the brakes before it let through, is made and paid; its step enters the context. Returns what ends the run inside it, or StopCode.None. */
function makeCall(plan: RunPlan, st: RunState, call: number, viewTokens: number): StopCode {
  const { t, settings: s, ctx, toolStop } = plan;
  const records = t.records;
  const at = call * CompiledField.Stride;
  const m = metered;
  if (plan.table === null) meterCall(m, plan.prices, s[RunSetting.Identity] === 1, loop.cacheMode, records, at, promptRecord);
  const inputTokens = m[Metered.Input]!;
  if (loop.countLost) st[Run.StrategyCacheLost] = st[Run.StrategyCacheLost]! + ctx.cacheLostTokens();
  ctx.markSent();
  const outputTokens = records[at + CallField.Output]!;
  const flags = records[at + CallField.Flags]! | 0;
  if ((flags & CallFlag.Failed) === 0) st[Run.OverheadTokens] = inputTokens - viewTokens;
  st[Run.SpentPico] = st[Run.SpentPico]! + m[Metered.CostPico]!;
  st[Run.TokensUsed] = st[Run.TokensUsed]! + (inputTokens + outputTokens);
  st[Run.CachedTokens] = st[Run.CachedTokens]! + m[Metered.Cached]!;
  st[Run.WrittenTokens] = st[Run.WrittenTokens]! + (m[Metered.CacheWrite]! + m[Metered.CacheWrite1h]!);
  st[Run.RuleLostTokens] = st[Run.RuleLostTokens]! + m[Metered.RuleLost]!;
  const stepLatencyMs = records[at + CompiledField.StepLatency]!;
  // Whole latencies, no tool brake in this call: the call's and its tools' time as one sum.
  const wholeStep = plan.exactTime && stepLatencyMs === stepLatencyMs && call < toolStop && (flags & TOOLS_DO_NOT_RUN) === 0;
  if (!wholeStep) st[Run.ElapsedMs] = st[Run.ElapsedMs]! + modelledCallMs(records[at + CallField.LatencyMs]!, s[RunSetting.PerCallMs]!, s[RunSetting.PerInputTokenMs]!, s[RunSetting.PerOutputTokenMs]!, inputTokens, outputTokens);
  // What ends the run inside the call (kernel brakes in the session's order).
  const code = call >= toolStop || (flags & MAY_END_CALL) !== 0 ? callStop(t, call, flags, plan.limits, loop.seen, loop.errorCount, call >= toolStop) : StopCode.None;
  if ((flags & TOOLS_DO_NOT_RUN) !== 0) {
    st[Run.OverheadTokens] = enterCall(ctx, flags, records[at + CompiledField.ContextOutput]!, st[Run.OverheadTokens]!, t.framingTokens);
    return code;
  }
  if (wholeStep) st[Run.ElapsedMs] = st[Run.ElapsedMs]! + stepLatencyMs;
  enterToolStep(plan, st, call, code, wholeStep);
  return code;
}

/** Call `call`'s step (its tools run) enters the context with its results, their time added unless `wholeStep` added it; `code` the stop inside the call. */
function enterToolStep(plan: RunPlan, st: RunState, call: number, code: StopCode, wholeStep: boolean): void {
  const { t, ctx } = plan;
  const records = t.records;
  const at = call * CompiledField.Stride;
  const perToolMs = plan.settings[RunSetting.PerToolCallMs]!;
  const t0 = t.toolStart[call]!;
  const t1 = t.toolStart[call + 1]!;
  if (code === StopCode.None && call < plan.toolStop && records[at + CompiledField.MaxResult]! <= plan.settings[RunSetting.Cap]!) {
    // No tool brake can fire and no result is capped: the whole step at once.
    const stepTokens = records[at + CompiledField.StepTokens]!;
    ctx.addClosedStep(stepTokens, stepTokens);
    if (!wholeStep) st[Run.ElapsedMs] = addToolTime(st[Run.ElapsedMs]!, records[at + CompiledField.ToolLatency]!, plan.exactTime || t1 - t0 <= 1, t.toolLatencyMs, t0, t1, perToolMs);
    return;
  }
  if (code !== StopCode.None) st[Run.StopTool] = stoppedAt.tool;
  const ran = code === StopCode.None ? t1 : toolsRunUntil(t, call, code, stoppedAt.tool);
  st[Run.ElapsedMs] = addStepByTool(t, ctx, call, records[at + CompiledField.ContextOutput]!, ran, !wholeStep, perToolMs, st[Run.ElapsedMs]!);
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
 * output entering the context (`outputTokens`: CompiledField.ContextOutput), then the results of tool
 * calls toolStart[call]..ran−1, each with its time when `timed` (else the step's time was added whole).
 * Returns the elapsed time.
 */
function addStepByTool(t: CompiledTrace, ctx: ContextTracker, call: number, outputTokens: number, ran: number, timed: boolean, perToolMs: number, elapsedMs: number): number {
  ctx.addStep(outputTokens);
  const resultTokens = t.resultTokens;
  const toolLatencyMs = t.toolLatencyMs;
  for (let j = t.toolStart[call]!; j < ran; j++) {
    ctx.addToolResult(resultTokens[j]!);
    if (timed) elapsedMs += modelledToolMs(toolLatencyMs[j]!, perToolMs);
  }
  ctx.closeStep();
  return elapsedMs;
}

/** A call's tool latencies: their precomputed sum when that is what adding them one by one gives. */
function addToolTime(elapsedMs: number, toolsMs: number, sumIsExact: boolean, toolLatencyMs: Float64Array, t0: number, t1: number, perToolMs: number): number {
  if (toolsMs === toolsMs && sumIsExact) return elapsedMs + toolsMs;
  for (let j = t0; j < t1; j++) elapsedMs += modelledToolMs(toolLatencyMs[j]!, perToolMs);
  return elapsedMs;
}

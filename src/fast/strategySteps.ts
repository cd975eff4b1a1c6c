/**
 * The compiled replay of runs whose strategy rewrites older steps (observation masking, summaries,
 * hybrid) or whose repeat brake skips instead of stopping (`--repeat-action skip`). Their prompts and
 * tool state depend on what earlier calls did, so no precomputed step, closed form or run table
 * applies: they go call by call, every rule the kernel's (context tracker with its masked prefix sums
 * and summaries, meter and summary meter, brake order, repeat outcome, tool brake state, latency), in
 * the readable session's order (src/loop/session.ts, run.ts). replayCompiled hands such runs here.
 */
import { backtrackStop, beforeCallStop, RepeatOutcome, repeatOutcome, sameErrorStop, summaryMayRun } from '../kernel/brakes.js';
import { predictiveBoundPico, promptEstimate, summaryBoundPico, type SummaryCallSize } from '../kernel/cost.js';
import { CallField, CallFlag, TOOLS_DO_NOT_RUN } from '../kernel/callRecord.js';
import { enterCall } from '../kernel/callContext.js';
import { ContextTracker, rewriteSettings } from '../kernel/context.js';
import { cacheAtBreakpoints } from '../kernel/rewrittenContext.js';
import { modelledCallMs, modelledToolMs } from '../kernel/latency.js';
import { Limit, predicts, type BrakeLimits } from '../kernel/limits.js';
import { boundWrites, Metered, meterCall, meterSummaryCall, Prompt, summaryCachedPrefixTokens } from '../kernel/meter.js';
import type { CacheWrites } from '../kernel/cacheWrites.js';
import type { FlatPrices } from '../kernel/prices.js';
import { StopCode } from '../kernel/stopCodes.js';
import { endsBeforeNextCall } from '../kernel/gaveUp.js';
import { callsLeft, RUN_ENDS_AT_SUMMARY, summaryCallChecks, type SummaryCallAt } from '../kernel/summaryBeforeCall.js';
import { ToolBrakeState } from '../kernel/toolBrakeState.js';
import type { BrakeConfig } from '../brakes/config.js';
import { rewritesHistory, summaryTriggerTokens, type ContextStrategy } from '../context/strategy.js';
import { contextWindowTokens } from '../kernel/limits.js';
import { CompiledField, type CompiledTrace } from './layout.js';
import { refusedCallMs, refusedCalls } from './refusal.js';
import { compiledCountsCacheLost } from './recordsCache.js';
import { resetRun, Run, type RunState } from './runState.js';
import { RunSetting, type RunSettings } from './settings.js';

/** What runSettings leaves beside the numbers for these runs: the strategy, and the summary model's prices. */
interface Stepwise {
  strategy: ContextStrategy;
  summaryPrices?: FlatPrices;
}

const stepwiseSettings = new WeakMap<RunSettings, Stepwise>();

/** Called by runSettings: a strategy that rewrites history is replayed here. */
export function noteStrategy(settings: RunSettings, strategy: ContextStrategy): void {
  if (rewritesHistory(strategy)) stepwiseSettings.set(settings, { strategy });
}

/** The summary call's prices when the strategy names its own model (`summary:…,model=X`, resolved by the caller). */
export function withSummaryPrices(settings: RunSettings, prices: FlatPrices): RunSettings {
  const entry = stepwiseSettings.get(settings);
  if (entry) entry.summaryPrices = prices;
  return settings;
}

/** Whether replayCompiled must hand this run here. */
export function runsStepwise(settings: RunSettings, limits: BrakeLimits): boolean {
  return limits[Limit.RepeatSkip] === 1 || settings[RunSetting.RewritesHistory] === 1;
}

/** A sweep pass whose strategy or some cell's brakes (repeat action skip) need this replay. */
export function sweepsStepwise(settings: RunSettings, brakes: readonly BrakeConfig[]): boolean {
  return stepwiseSettings.has(settings) || brakes.some((b) => b.repeatAction === 'skip');
}

const tracker = new ContextTracker();
const metered = new Float64Array(Metered.Size);
const promptRecord = new Float64Array(Prompt.Size);
/** What summaryCallChecks is told of each summary call due: one object, filled in before each use (a replay is synchronous). */
const summaryAt: SummaryCallAt = { call: undefined!, callsLeft: 0, simulated: true };

/** Replays `t` call by call into `st` (outcomeOf reads it). */
export function replayStepwise(t: CompiledTrace, settings: RunSettings, limits: BrakeLimits, prices: FlatPrices, st: RunState): RunState {
  const entry = stepwiseSettings.get(settings);
  const ctx = tracker;
  resetRun(st);
  ctx.resetTo(t.fixedTokens, settings[RunSetting.Keep]!, settings[RunSetting.Cap]!);
  // The run first: its cache writes (bounded by its cache mode) say whether its cache works by breakpoints.
  const run = new StepwiseRun(t, settings, limits, prices, entry?.summaryPrices ?? prices, st);
  if (entry) ctx.rewriting(rewriteSettings(entry.strategy, summaryTriggerTokens(entry.strategy, contextWindowTokens(limits, prices)), cacheAtBreakpoints(prices, run.cacheWrites)));
  ctx.reserve(t.calls + 1);
  st[Run.Stop] = run.go();
  run.store();
  return st;
}

/** One run's running figures (a class: its fields stay plain doubles). */
class StepwiseRun {
  i = 0;
  spent = 0;
  elapsed = 0;
  tokens = 0;
  cached = 0;
  written = 0;
  ruleLost = 0;
  overhead = 0;
  lost = 0;
  skipped = 0;
  summaries = 0;
  summaryCost = 0;
  summaryOutput = 0;
  stopTool = -1;
  stopSeen = 0;
  stopErrorCount = 0;
  readonly tools: ToolBrakeState;
  readonly cacheMode: number;
  readonly identity: boolean;
  /** The writes the bound prices: the run's, as this configuration's cache leaves them (meter.ts boundWrites). */
  readonly cacheWrites: CacheWrites;
  private readonly countsLost: boolean; // (the cache hits the strategy loses: where the run has a cache, kernel/cacheLost.ts)

  constructor(
    readonly t: CompiledTrace,
    readonly s: RunSettings,
    readonly limits: BrakeLimits,
    readonly prices: FlatPrices,
    readonly summaryPrices: FlatPrices,
    readonly st: RunState,
  ) {
    this.tools = new ToolBrakeState(t.actionIds, t.errorIds);
    this.cacheMode = s[RunSetting.CacheMode]! | 0;
    this.identity = s[RunSetting.Identity] === 1;
    this.cacheWrites = boundWrites(t.cacheWrites, this.cacheMode);
    this.countsLost = compiledCountsCacheLost(this.cacheMode, t);
  }

  steps(): number {
    return this.i - this.t.nonStepsBefore[this.i]!;
  }

  /** Runs to the stop; returns its code. */
  go(): StopCode {
    for (;;) {
      // A recording whose model gave up (or whose run was aborted) ends after its last call, before a summary call or the brakes (kernel/gaveUp.ts).
      if (endsBeforeNextCall(this.i, this.t.calls, this.t.endsAfterLastCall)) return this.ranOut();
      const code = this.summarizeIfDue();
      if (code !== StopCode.None) return code;
      const called = this.call();
      if (called !== StopCode.None) return called;
    }
  }

  /** The session's summarizeIfDue: StopCode.None, or the stop the summary call's checks made (kernel summaryCallChecks, after the brakes that gate it). */
  summarizeIfDue(): StopCode {
    const ctx = tracker;
    if (!ctx.summaryDue(this.overhead)) return StopCode.None;
    const input = promptEstimate(ctx.promptTokens(), this.overhead);
    const output = ctx.summaryOutput;
    const at = summaryAt;
    const size = (at.call = { prices: this.summaryPrices, promptEstimate: input, summaryTokens: output, cacheWrites: this.cacheWrites });
    // The brakes that gate it hold it: none made now, the brakes before the next call decide.
    if (!summaryMayRun(this.limits, this.steps(), this.elapsed, this.spent, this.tokens, summaryBoundPico(this.limits, size))) return StopCode.None;
    // The compiled calls leave out the one a provider refused (refusal.ts): it is a call left all the same.
    at.callsLeft = callsLeft(this.t.calls + refusedCalls(this.t.exhaustedCode), this.i);
    const code = summaryCallChecks(this.limits, at);
    if (code === RUN_ENDS_AT_SUMMARY) return this.ranOut();
    if (code !== StopCode.None) return this.summaryStop(code, size);
    const m = metered;
    meterSummaryCall(m, this.summaryPrices, this.cacheMode, input, summaryCachedPrefixTokens(this.summaryPrices, this.prices, ctx.unchangedTokens(), input - ctx.promptTokens()), output);
    if (this.countsLost) this.lost += ctx.cacheLostTokens();
    ctx.markSent();
    ctx.summarize();
    const cost = m[Metered.CostPico]!;
    this.spent += cost;
    this.tokens += input + output;
    this.cached += m[Metered.Cached]!;
    this.written += m[Metered.CacheWrite]! + m[Metered.CacheWrite1h]!;
    this.ruleLost += m[Metered.RuleLost]!;
    const s = this.s;
    this.elapsed += modelledCallMs(NaN, s[RunSetting.PerCallMs]!, s[RunSetting.PerInputTokenMs]!, s[RunSetting.PerOutputTokenMs]!, input, output);
    this.summaries += 1;
    this.summaryCost += cost;
    this.summaryOutput += output;
    return StopCode.None;
  }

  /** The run stops at the summary call `size` describes (the session's beforeSummary): refused, it was made, a failed call with its time (refusal.ts). */
  summaryStop(code: StopCode, size: SummaryCallSize): StopCode {
    const { st, s } = this;
    st[Run.SummaryStop] = 1;
    st[Run.PromptTokens] = size.promptEstimate;
    st[Run.SummaryStopMaxTokens] = size.summaryTokens;
    st[Run.SummaryStopWindowTokens] = size.prices.contextWindow;
    if (code === StopCode.ProviderRefused) this.elapsed += modelledCallMs(NaN, s[RunSetting.PerCallMs]!, s[RunSetting.PerInputTokenMs]!, s[RunSetting.PerOutputTokenMs]!, 0, 0);
    return code;
  }

  /** The recording ran out of calls: its end (the refused call's time, when a refusal ends it). */
  ranOut(): StopCode {
    const code = this.t.exhaustedCode;
    this.st[Run.Exhausted] = 1;
    if (code === StopCode.ProviderRefused) this.elapsed += refusedCallMs(this.t, this.s);
    return code;
  }

  /** One call: the brakes before it, then the call and its tool calls. StopCode.None: the run goes on. */
  call(): StopCode {
    const { t, limits, s } = this;
    const ctx = tracker;
    const prompt = promptRecord;
    ctx.promptInto(prompt);
    const view = prompt[Prompt.View]!;
    // What a live loop knows before the call: the prompt estimate (compared with the context window)
    // and, in predict mode, its bound (the session's checkBeforeCall).
    const estimate = promptEstimate(view, this.overhead);
    const bound = predicts(limits) ? predictiveBoundPico(this.prices, estimate, limits[Limit.MaxOutputTokens]!, this.cacheWrites) : 0;
    const i = this.i;
    let code = beforeCallStop(limits, this.steps(), this.elapsed, this.spent, bound, this.tokens, estimate);
    if (code === StopCode.None && i >= t.calls) code = this.ranOut();
    if (code !== StopCode.None) {
      this.st[Run.BoundPico] = bound;
      this.st[Run.PromptEstimate] = estimate;
      this.st[Run.PromptTokens] = estimate;
      return code;
    }
    meterCall(metered, this.prices, this.identity, this.cacheMode, t.records, i * CompiledField.Stride, prompt);
    const input = metered[Metered.Input]!;
    // The call is made and paid.
    if (this.countsLost) this.lost += ctx.cacheLostTokens();
    ctx.markSent();
    this.i = i + 1;
    const at = i * CompiledField.Stride;
    const records = t.records;
    const output = records[at + CallField.Output]!;
    const flags = records[at + CallField.Flags]! | 0;
    if ((flags & CallFlag.Failed) === 0) this.overhead = input - view;
    this.spent += metered[Metered.CostPico]!;
    this.tokens += input + output;
    this.cached += metered[Metered.Cached]!;
    this.written += metered[Metered.CacheWrite]! + metered[Metered.CacheWrite1h]!;
    this.ruleLost += metered[Metered.RuleLost]!;
    this.elapsed += modelledCallMs(records[at + CallField.LatencyMs]!, s[RunSetting.PerCallMs]!, s[RunSetting.PerInputTokenMs]!, s[RunSetting.PerOutputTokenMs]!, input, output);
    this.overhead = enterCall(ctx, flags, records[at + CompiledField.ContextOutput]!, this.overhead, t.framingTokens);
    if ((flags & CallFlag.Backtrack) !== 0) return backtrackStop(limits, t.backtracksBefore[i + 1]!);
    if ((flags & TOOLS_DO_NOT_RUN) !== 0) return StopCode.None;
    if ((flags & CallFlag.Answer) !== 0) return StopCode.Completed;
    code = this.toolCalls(i);
    ctx.closeStep();
    if (code !== StopCode.None) return code;
    return (flags & CallFlag.Final) !== 0 ? StopCode.Completed : StopCode.None;
  }

  /** The call's tool calls, each: repeat outcome (run, skip or stop), its result, the same-error brake. */
  toolCalls(call: number): StopCode {
    const { t, limits, tools } = this;
    const ctx = tracker;
    const mode = limits[Limit.RepeatMode]!;
    const perToolMs = this.s[RunSetting.PerToolCallMs]!;
    const totalErrors = limits[Limit.SameErrorTotal] === 1;
    for (let j = t.toolStart[call]!, end = t.toolStart[call + 1]!; j < end; j++) {
      const action = t.action[j]!;
      const seen = tools.seen(action, mode);
      const outcome = repeatOutcome(limits, seen, tools.skips);
      if (outcome === RepeatOutcome.Stop) {
        this.stopTool = j;
        this.stopSeen = seen;
        return StopCode.Repeat;
      }
      if (outcome === RepeatOutcome.Skip) {
        tools.skip(action);
        this.skipped += 1;
        ctx.addToolResult(limits[Limit.SkipWarningTokens]!);
        continue;
      }
      tools.recordAction(action);
      ctx.addToolResult(t.resultTokens[j]!);
      const error = t.error[j]!;
      tools.recordOutcome(error);
      this.elapsed += modelledToolMs(t.toolLatencyMs[j]!, perToolMs);
      if (error < 0) continue;
      const count = tools.errorCount(error, totalErrors);
      const code = sameErrorStop(limits, count);
      if (code !== StopCode.None) {
        this.stopTool = j;
        this.stopErrorCount = count;
        return code;
      }
    }
    return StopCode.None;
  }

  /** The figures into the run state, as the per-step loop leaves them. */
  store(): void {
    const st = this.st;
    st[Run.Calls] = this.i;
    st[Run.SpentPico] = this.spent;
    st[Run.ElapsedMs] = this.elapsed;
    st[Run.TokensUsed] = this.tokens;
    st[Run.CachedTokens] = this.cached;
    st[Run.WrittenTokens] = this.written;
    st[Run.RuleLostTokens] = this.ruleLost;
    st[Run.OverheadTokens] = this.overhead;
    st[Run.StopTool] = this.stopTool;
    st[Run.SummaryCalls] = this.summaries;
    st[Run.SummaryCostPico] = this.summaryCost;
    st[Run.SummaryOutputTokens] = this.summaryOutput;
    st[Run.StrategyCacheLost] = this.lost;
    st[Run.SkippedActions] = this.skipped;
    st[Run.LiveToolCounts] = 1;
    st[Run.StopSeen] = this.stopSeen;
    st[Run.StopErrorCount] = this.stopErrorCount;
  }
}

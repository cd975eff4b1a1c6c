/**
 * One compiled run's running figures at named offsets of a Float64Array: what the per-step loop, the
 * closed form and the result builder hand each other (figures that no setting changes — output,
 * reasoning, steps, tool calls — are the compiled running totals at the call reached).
 */
import { Fact, stopOf } from '../kernel/describe.js';
import { Limit, RepeatModeCode, type BrakeLimits } from '../kernel/limits.js';
import { StopCode, stopReasonOf } from '../kernel/stopCodes.js';
import { overshootPico, stoppedByBound } from '../kernel/brakes.js';
import { timeoutWords } from '../kernel/cutWords.js';
import type { CallRecord } from '../trace/types.js';
import type { StopReason } from '../brakes/stopReasons.js';
import { addStrategyFigures, type RunOutcome, type RunTotals } from '../loop/types.js';
import { costOutOfRange } from '../kernel/cost.js';
import { CallCostOutOfRange, firstCallPastExact } from '../kernel/callPastExact.js';
import type { FlatPrices } from '../kernel/prices.js';
import { CompiledField } from './layout.js';
import { SUMMARY_CALL } from '../kernel/providerWindow.js';
import type { CompiledTrace } from './layout.js';
import { refusalFacts, refusedCalls } from './refusal.js';

export const enum Run {
  /** Compiled calls made (= the next call's index): the run's calls figure adds its summary calls and a refused call (outcomeOf). */
  Calls,
  SpentPico,
  ElapsedMs,
  /** Input + output tokens. */
  TokensUsed,
  CachedTokens,
  /** Cache writes, 5-minute and 1-hour. */
  WrittenTokens,
  /** Cache on: cached tokens the provider's minimum-prefix rule did not serve. */
  RuleLostTokens,
  /** Prompt overhead the last call showed (billed − view): the predictive bound's estimate adds it. */
  OverheadTokens,
  /** The stop, StopCode.None while running. */
  Stop,
  /** A tool brake's tool call (index into the tool arrays), −1 otherwise. */
  StopTool,
  /** The refused call's predictive bound, prompt estimate and prompt (stop details). */
  BoundPico,
  PromptEstimate,
  PromptTokens,
  /** 1 when the run ended because the trace ran out. */
  Exhausted,
  /** Strategies that rewrite history and the skip guard (strategySteps.ts); 0 otherwise. */
  SummaryCalls,
  SummaryCostPico,
  SummaryOutputTokens,
  StrategyCacheLost,
  SkippedActions,
  /** 1 when a tool brake's counts were taken live (strategySteps.ts: skips change them), in the two after. */
  LiveToolCounts,
  StopSeen,
  StopErrorCount,
  /** 1 when the run stopped at a summary call (its window: strategySteps.ts), with the S it asked for and its model's window; PromptTokens its prompt. */
  SummaryStop,
  SummaryStopMaxTokens,
  SummaryStopWindowTokens,
  Size,
}

export type RunState = Float64Array;

/** A fresh run's state (test/fast/runState.test.ts: equal to a new record's, field by field). */
export function resetRun(st: RunState): void {
  // One store per field, constant offsets: quicker than fill/set or a loop for a record this small.
  st[Run.Calls] = 0;
  st[Run.SpentPico] = 0;
  st[Run.ElapsedMs] = 0;
  st[Run.TokensUsed] = 0;
  st[Run.CachedTokens] = 0;
  st[Run.WrittenTokens] = 0;
  st[Run.RuleLostTokens] = 0;
  st[Run.OverheadTokens] = 0;
  st[Run.Stop] = StopCode.None;
  st[Run.StopTool] = -1;
  st[Run.BoundPico] = 0;
  st[Run.PromptEstimate] = 0;
  st[Run.PromptTokens] = 0;
  st[Run.Exhausted] = 0;
  st[Run.SummaryCalls] = 0;
  st[Run.SummaryCostPico] = 0;
  st[Run.SummaryOutputTokens] = 0;
  st[Run.StrategyCacheLost] = 0;
  st[Run.SkippedActions] = 0;
  st[Run.LiveToolCounts] = 0;
  st[Run.StopSeen] = 0;
  st[Run.StopErrorCount] = 0;
  st[Run.SummaryStop] = 0;
  st[Run.SummaryStopMaxTokens] = 0;
  st[Run.SummaryStopWindowTokens] = 0;
}

/** The readable path's figures (no stop detail, no per-step rows). */
export interface FastOutcome extends RunTotals {
  reason: StopReason;
}

/** Tool calls made: up to the stop call's, the refused one (repeat) excluded, the failing one (error) included. */
function toolCallsOf(t: CompiledTrace, st: RunState): number {
  const calls = st[Run.Calls]!;
  const tool = st[Run.StopTool]!;
  if (tool < 0) return t.toolsBefore[calls]!;
  const call = calls - 1;
  return t.toolsBefore[call]! + (tool - t.toolStart[call]!) + (st[Run.Stop] === StopCode.ErrorLimit ? 1 : 0);
}

/**
 * The refusal of a run of `t` past exact picodollars that made `calls` compiled calls: named by the first of
 * them whose own figures pass them (kernel/callPastExact.ts, as the readable loop finds it: loop/accounts.ts)
 * when the run's `prices` are given, else by the run. Asked only once a run is refused: the hot path pays nothing.
 */
export function pastExactError(t: CompiledTrace, calls: number, prices: FlatPrices | undefined): Error {
  const past = prices === undefined ? undefined : firstCallPastExact(prices, t.records, CompiledField.Stride, { from: 0, to: calls });
  return past === undefined ? costOutOfRange() : new CallCostOutOfRange(costOutOfRange(), past.call, past);
}

/** The run's figures (`prices`: the run's, to name a call that passes exact picodollars on its own: pastExactError). */
export function outcomeOf(t: CompiledTrace, st: RunState, limits: BrakeLimits, prices?: FlatPrices): FastOutcome {
  const calls = st[Run.Calls]!;
  const spent = st[Run.SpentPico]!;
  // Picodollars are exact in a double only up to 2^53 ≈ $9,007 for one run.
  if (!Number.isSafeInteger(spent)) throw pastExactError(t, calls, prices);
  const output = t.outputBefore[calls]! + st[Run.SummaryOutputTokens]!;
  const budget = limits[Limit.BudgetPico]!;
  // A provider's refusal: the refused call was made and failed (no step, nothing paid). The summary calls
  // made are model calls too (loop/summary.ts), though no compiled call.
  const refused = refusedCalls(st[Run.Stop]!);
  const outcome: FastOutcome = {
    reason: stopReasonOf(st[Run.Stop]!),
    steps: calls - t.nonStepsBefore[calls]!,
    calls: calls + refused + st[Run.SummaryCalls]!,
    backtracks: t.backtracksBefore[calls]!,
    failedCalls: t.failedBefore[calls]! + refused,
    toolCalls: toolCallsOf(t, st) - st[Run.SkippedActions]!,
    inputTokens: st[Run.TokensUsed]! - output,
    cachedInputTokens: st[Run.CachedTokens]!,
    cacheWriteTokens: st[Run.WrittenTokens]!,
    outputTokens: output,
    reasoningTokens: t.reasoningBefore[calls]!,
    costPico: spent,
    overshootPico: overshootPico(spent, budget),
    elapsedMs: st[Run.ElapsedMs]!,
    cacheRuleLostTokens: st[Run.RuleLostTokens]!,
  };
  return addStrategyFigures(outcome, {
    summaryCalls: st[Run.SummaryCalls]!,
    summaryCostPico: st[Run.SummaryCostPico]!,
    strategyCacheLostTokens: st[Run.StrategyCacheLost]!,
    skippedActions: st[Run.SkippedActions]!,
  });
}

/** Whether the predictive bound refused the run's next call (kernel stoppedByBound): what its stop records (runOutcomeOf). */
export function stopByBoundOf(st: RunState, limits: BrakeLimits): boolean {
  return stoppedByBound(st[Run.Stop]!, st[Run.SpentPico]!, limits[Limit.BudgetPico]!);
}

/** The stop's one-line detail (kernel describeStop) and the facts behind it. */
export function stopFacts(t: CompiledTrace, st: RunState, limits: BrakeLimits, facts: Float64Array): string {
  const calls = st[Run.Calls]!;
  const tool = st[Run.StopTool]!;
  facts[Fact.Steps] = calls - t.nonStepsBefore[calls]!;
  facts[Fact.ElapsedMs] = st[Run.ElapsedMs]!;
  facts[Fact.SpentPico] = st[Run.SpentPico]!;
  facts[Fact.BoundPico] = st[Run.BoundPico]!;
  facts[Fact.PromptEstimate] = st[Run.PromptEstimate]!;
  facts[Fact.TokensUsed] = st[Run.TokensUsed]!;
  facts[Fact.PromptTokens] = st[Run.PromptTokens]!;
  facts[Fact.Backtracks] = t.backtracksBefore[calls]!;
  facts[Fact.Exhausted] = st[Run.Exhausted]!;
  if (st[Run.SummaryStop] === 1) {
    facts[Fact.RefusedMaxTokens] = st[Run.SummaryStopMaxTokens]!;
    facts[Fact.WindowTokens] = st[Run.SummaryStopWindowTokens]!;
    return SUMMARY_CALL;
  }
  if (st[Run.Stop] === StopCode.ProviderRefused) return refusalFacts(t, facts);
  if (tool < 0) return '';
  const mode = limits[Limit.RepeatMode]!;
  const seen = mode === RepeatModeCode.Total ? t.seenTotal : mode === RepeatModeCode.Consecutive ? t.seenConsecutive : t.seenCycle;
  const live = st[Run.LiveToolCounts] === 1;
  facts[Fact.Seen] = live ? st[Run.StopSeen]! : seen[tool]!;
  facts[Fact.ErrorCount] = live ? st[Run.StopErrorCount]! : (limits[Limit.SameErrorTotal] === 1 ? t.errorTotal : t.errorConsecutive)[tool]!;
  const name = t.toolNames[t.toolName[tool]!]!;
  return st[Run.Stop] === StopCode.Repeat ? `action ${name}` : `tool ${name}`;
}

/** What a timeout right after the recorded call `last` names of it (kernel/cutWords.ts timeoutWords), as the readable loop's RunStops does. */
function lastCallWords(last: CallRecord | undefined, st: RunState, limits: BrakeLimits): string {
  return timeoutWords(last, last?.compaction === true, { elapsedMs: st[Run.ElapsedMs]!, timeoutMs: limits[Limit.TimeoutMs]! });
}

/** What runOutcomeOf says beyond the compiled run's own figures. */
export interface RecordedRunFacts {
  /** What its recording says of an end without completing (trace/endDetail.ts); '' (default) for nothing. */
  endDetail?: string;
  /** Its recorded calls: a timeout names what the last one made shows, cut or run past the deadline (kernel/cutWords.ts timeoutWords). */
  recorded?: readonly CallRecord[];
  /** The run's prices (outcomeOf: a call alone past exact picodollars is named). */
  prices?: FlatPrices;
}

/** The session's RunOutcome (stop detail and recorded sums included, no per-step rows) of a compiled run. */
export function runOutcomeOf(t: CompiledTrace, st: RunState, limits: BrakeLimits, facts: RecordedRunFacts = {}): RunOutcome {
  const { endDetail = '', recorded = [], prices } = facts;
  const { reason: _reason, ...figures } = outcomeOf(t, st, limits, prices);
  const stopFactsOf = new Float64Array(Fact.Size);
  const label = stopFacts(t, st, limits, stopFactsOf);
  const code = st[Run.Stop]!;
  const calls = st[Run.Calls]!;
  const told = code === StopCode.TraceEnd ? endDetail : code === StopCode.Timeout ? lastCallWords(recorded[calls - 1], st, limits) : label;
  const outcome: RunOutcome = { ...figures, stop: stopOf(code, limits, stopFactsOf, told), rows: [] };
  if (t.recordedInputBefore[calls]! > 0) {
    outcome.recordedInputTokens = t.recordedInputSumBefore[calls]!;
    outcome.recordedInputDelta = t.recordedDeltaBefore[calls]!;
  }
  // Every call made recorded its cost (a refused call records none).
  const costCalls = t.recordedCostCallsBefore[calls]!;
  if (costCalls > 0 && costCalls === figures.calls) outcome.recordedCallCostPico = t.recordedCostBefore[calls]!;
  return outcome;
}

/**
 * A summary call (context strategies `summary`, `hybrid`) as a session pays for it. Before it is made
 * it is known only by its estimate — the prompt it replaces as the context tracker sizes it, plus the
 * overhead the last call showed, and S tokens out — which is what gates it (summaryMayRun, the
 * predictive bound). Once made, it is billed by one rule with every other call: the usage its response
 * reports, through the meter ordinary calls go through (meterCallInto, at the summary model's prices, in
 * the run's cache mode). A response that reports no prompt size (replay and its trace-driven double, an
 * endpoint without usage) is billed by the estimate, as replay bills every summary call: the prompt it
 * replaces in, its unchanged prefix and the framing the last call showed served by the cache as under `on`
 * (kernel summaryCachedPrefixTokens), S out (kernel meterSummaryCall).
 * The context then holds the summary at its output as billed: what the model reported (less its reasoning in a run whose reasoning does not re-enter its prompts), else S.
 *
 * Like any request, a summary call may be refused for its length (kernel/providerWindow.ts summaryCallStop):
 * before it, the `--context-window model` brake; as it is made, its provider — simulated by the window rule,
 * or a real loop's — ends the run `provider_refused` at it, a failed call paid nothing (summaryRefusal).
 */
import { isTokenCount } from '../io/limits.js';
import { Fact } from '../kernel/describe.js';
import type { BrakeState } from '../brakes/state.js';
import type { ContextTracker, PromptView } from '../kernel/context.js';
import { callLatencyMs } from '../kernel/latency.js';
import type { SummaryCallSize } from '../kernel/cost.js';
import { CacheModeCode, Metered, meterSummaryCall, summaryCachedPrefixTokens } from '../kernel/meter.js';
import type { FlatPrices } from '../kernel/prices.js';
import type { CallRecord } from '../trace/types.js';
import { meterCall, type MeteredCall, type MeterSettings } from './meter.js';
import { recordedRefusal, refusalMessage, refusalOfRecorded } from './refusalWords.js';
import type { Stop } from '../brakes/stopReasons.js';
import type { LoopSession } from './session.js';
import type { RunAccounts } from './accounts.js';
import type { LoopOptions, WindowRefusal } from './types.js';
import { outputEnteringContext } from '../kernel/stepTokens.js';

/** A summary call the brakes let through (LoopSession.summaryDue), not paid for yet. */
export interface SummaryDue {
  /** The prompt it replaces, as the context tracker sized it when it came due. */
  readonly view: PromptView;
  /** Its estimate: the prompt (view plus overhead) in, the strategy's S tokens out, at the summary model's prices. */
  readonly size: SummaryCallSize;
}

/** What of a run (LoopSession's) a summary call is paid into. */
export interface SummaryRun {
  readonly context: ContextTracker;
  readonly state: BrakeState;
  readonly accounts: RunAccounts;
  readonly options: Pick<LoopOptions, 'latency'>;
  /** Whether the cache hits the strategy loses are counted: the run has a cache (kernel/cacheLost.ts countsCacheLost). */
  readonly countsCacheLost: boolean;
  /** Whether a call's reasoning enters the run's later prompts: the summary holds its output less its reasoning where it does not (kernel/stepTokens.ts outputEnteringContext). */
  readonly reasoningReenters: boolean;
}

/** A run's summary calls: metered, and paid into the run (LoopSession.recordSummary). */
export class SummaryCalls {
  /** The run's meter settings at the summary model's prices, and the estimate's scratch (Metered layout): made at the run's first summary call (most runs make none). */
  private meterAtPrices: MeterSettings | undefined;
  private scratch: Float64Array | undefined;
  /** The run's call count right after a summary call that answered no text (-1: none): no other is due before the next call. */
  private emptyAtCalls = -1;

  /** `run`: the run's meter settings; `prices`: the summary model's (the run's unless `summary:…,model=X`); `into`: the run paid. */
  constructor(
    private readonly run: MeterSettings,
    readonly prices: FlatPrices,
    private readonly into: SummaryRun,
  ) {}

  private get settings(): MeterSettings {
    return (this.meterAtPrices ??= { ...this.run, prices: this.prices });
  }

  /**
   * The summary call `due` was made: a model call among the run's `calls` (a failed one among its failed calls), as
   * its recording's compaction call is in a replay; paid — not a step — as `response` reports it (meter); unless it
   * failed, the prompt becomes system + goal + the summary (its output as billed: reported, else S) + the last K steps.
   * One that answered no text (a live loop's, recorded `unparseable`: agent/liveSummary.ts) replaces nothing: the
   * steps are kept, as after a failed one, and no summary call is due again before the run's next call (summaryHeld).
   */
  record(due: SummaryDue, response: CallRecord | null): MeteredCall {
    const { context, state, accounts, options } = this.into;
    const metered = this.meter(due, response);
    const empty = response?.unparseable === true && !response.failed;
    if (summaryReplaces(response)) {
      if (this.into.countsCacheLost) accounts.totals.strategyCacheLostTokens += context.cacheLostTokens();
      context.markSent();
      context.summarize(outputEnteringContext(metered.usage.output, metered.usage.reasoning, this.into.reasoningReenters));
    }
    const { input, output } = metered.usage;
    state.calls += 1;
    state.spentPico += metered.costPico;
    state.tokensUsed += input + output;
    state.elapsedMs += callLatencyMs(response?.latencyMs ?? NaN, options.latency, input, output); // a live loop's recorded time, as replay counts a compaction call's; else modelled
    accounts.addSummary(metered, context.view(), state, response?.failed !== undefined);
    if (empty) this.emptyAtCalls = state.calls;
    return metered;
  }

  /** Whether no summary call may be due now: the run's last call was one that answered no text (a second would find the same prompt). */
  summaryHeld(calls: number): boolean {
    return calls === this.emptyAtCalls;
  }

  /**
   * The call's usage and cost as billed: `response`'s reported usage (a failed call's: what its error
   * reported, else nothing), metered as any call's; the estimate when there is no response or it
   * reports no prompt size (a prompt that is not a whole number ≥ 0 is not reported: isTokenCount).
   */
  meter(due: SummaryDue, response: CallRecord | null): MeteredCall {
    if (response !== null && (isTokenCount(response.inputTokens) || response.failed !== undefined)) return meterCall(response, due.view, this.settings);
    return this.estimate(due);
  }

  /** The estimate, as replay bills a summary call. */
  private estimate(due: SummaryDue): MeteredCall {
    const { promptEstimate, summaryTokens } = due.size;
    return estimatedSummaryCall((this.scratch ??= new Float64Array(Metered.Size)), { prices: this.prices, runPrices: this.run.prices, cacheMode: this.settings.cacheMode, promptTokens: promptEstimate, view: due.view, summaryTokens });
  }
}

/** Whether a summary call answered `response` (null: paid by its estimate) replaces the older steps: it neither failed nor answered no text (recorded `unparseable`). */
export function summaryReplaces(response: CallRecord | null): boolean {
  return !response?.failed && response?.unparseable !== true;
}

/**
 * The summary call `due` as a live loop's recording holds it (`record`: its compaction call; null: the run made
 * none here), played as the loop made it (agent/liveSummary.ts): first the brake of its window (beforeSummary);
 * one its provider refused for its length ends the run provider_refused; else it is paid as recorded
 * (recordSummary; a failed one among the failed calls, and the recording ends as the run did).
 */
export function recordedSummary(session: LoopSession, due: SummaryDue, record: CallRecord | null): Stop | null {
  const braked = session.beforeSummary(due);
  if (braked || record === null) return braked;
  const refused = record.failed?.contextLengthExceeded;
  if (refused !== undefined) return session.providerRefused(record, due.view, refusalOfRecorded(refused));
  session.recordSummary(due, record);
  return null;
}

/** What estimatedSummaryCall bills: the summary model's and the run's prices, the cache mode, the call's size. */
export interface SummaryEstimate {
  prices: FlatPrices;
  runPrices: FlatPrices;
  cacheMode: CacheModeCode;
  promptTokens: number;
  /** The prompt it replaces as the context sizes it: its unchanged prefix, and beyond it in `promptTokens` the framing the last call showed, are what the run's cache serves (none on another model's: summaryCachedPrefixTokens). */
  view: Pick<PromptView, 'inputTokens' | 'unchangedPrefixTokens'>;
  summaryTokens: number;
}

/**
 * A summary call billed by its estimate (kernel meterSummaryCall) as a MeteredCall, metered into `out`:
 * how replay bills every summary call, and serve the summary calls its clients send.
 */
export function estimatedSummaryCall(out: Float64Array, call: SummaryEstimate): MeteredCall {
  const unchangedTokens = summaryCachedPrefixTokens(call.prices, call.runPrices, call.view.unchangedPrefixTokens, call.promptTokens - call.view.inputTokens);
  meterSummaryCall(out, call.prices, call.cacheMode, call.promptTokens, unchangedTokens, call.summaryTokens);
  return {
    usage: { input: call.promptTokens, cached: out[Metered.Cached]!, cacheWrite: out[Metered.CacheWrite]!, cacheWrite1h: out[Metered.CacheWrite1h]!, output: call.summaryTokens, reasoning: 0 },
    costPico: out[Metered.CostPico]!,
    cacheRuleLostTokens: out[Metered.RuleLost]!,
  };
}

/**
 * The refusal of the summary call `due` by its model's window (its prompt estimate + S past it), and the
 * failed call that stands for it: a compaction call (as the real loop records a summary call) refused as a
 * provider refuses one (400 `context_length_exceeded`, its numbers recorded: a recording replays to the stop).
 */
export function summaryRefusal(due: SummaryDue): { refusal: WindowRefusal; record: CallRecord } {
  const { promptEstimate, summaryTokens, prices } = due.size;
  const refusal: WindowRefusal = { promptTokens: promptEstimate, maxOutputTokens: summaryTokens, contextWindowTokens: prices.contextWindow };
  return { refusal, record: refusedSummaryRecord(refusal) };
}

/** A summary call its provider refused with `refusal`, as a failed compaction call (serve answers one so too). */
export function refusedSummaryRecord(refusal: WindowRefusal): CallRecord {
  return { type: 'call', outputTokens: 0, compaction: true, failed: { status: 400, message: refusalMessage(refusal), contextLengthExceeded: recordedRefusal(refusal) } };
}

/** A refusal's numbers as a stop's facts (describeStop: the prompt, the max_tokens asked for, the window). */
export function refusalFacts(facts: Float64Array, refusal: WindowRefusal): void {
  facts[Fact.PromptTokens] = refusal.promptTokens;
  facts[Fact.RefusedMaxTokens] = refusal.maxOutputTokens ?? NaN;
  facts[Fact.WindowTokens] = refusal.contextWindowTokens;
}

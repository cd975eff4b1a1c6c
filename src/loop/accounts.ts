/**
 * A run's accounts: its token and money totals, the recorded figures it is checked against, what the
 * context strategy did, and (keepSteps) a row per call — added to as the session pays for each call,
 * and read out as the run's outcome when it stops.
 */
import { overshootPico } from '../kernel/brakes.js';
import type { BrakeState } from '../brakes/state.js';
import type { Stop } from '../brakes/stopReasons.js';
import { costOutOfRange } from '../kernel/cost.js';
import { CallCostOutOfRange, callPastExact, type CallPastExact } from '../kernel/callPastExact.js';
import type { FlatPrices } from '../kernel/prices.js';
import type { PromptView } from '../kernel/context.js';
import { usdToPico } from '../money.js';
import type { CallRecord } from '../trace/types.js';
import { writeCallFields, type MeteredCall } from './meter.js';
import type { CallUsage } from '../pricing/types.js';
import { addStrategyFigures, type MeteredTotals, type RunOutcome, type StepRow } from './types.js';

/**
 * The figures of `from` (a run's accounts' totals, or any report of a run) that MeteredTotals lists, in the
 * order every report gives them: the one place the list is copied (a run's outcome, RunAccounts.outcome, names
 * them in this order itself).
 */
export function meteredTotals(from: Readonly<MeteredTotals>): MeteredTotals {
  return {
    failedCalls: from.failedCalls,
    toolCalls: from.toolCalls,
    inputTokens: from.inputTokens,
    cachedInputTokens: from.cachedInputTokens,
    cacheWriteTokens: from.cacheWriteTokens,
    outputTokens: from.outputTokens,
    reasoningTokens: from.reasoningTokens,
  };
}

/** A call's cache writes as reports count them: both lifetimes together (a served reply's `cache_write_tokens` too). */
export function cacheWriteTokensOf(usage: Readonly<CallUsage>): number {
  return usage.cacheWrite + usage.cacheWrite1h;
}

export class RunAccounts {
  readonly rows: StepRow[] = [];
  /** Named as MeteredTotals names them (meteredTotals reads them out), and what the run's reports need besides. */
  readonly totals = {
    failedCalls: 0,
    toolCalls: 0,
    inputTokens: 0,
    cachedInputTokens: 0,
    cacheWriteTokens: 0,
    outputTokens: 0,
    reasoningTokens: 0,
    cacheRuleLost: 0,
    recordedInput: 0,
    recordedInputCalls: 0,
    recordedDelta: 0,
    recordedCostPico: 0,
    recordedCostCalls: 0,
    summaryCalls: 0,
    summaryCostPico: 0,
    strategyCacheLostTokens: 0,
    skippedActions: 0,
  };

  /** The row of the call last added whose tool calls may follow (keepSteps, a call that asked for tools): its tool fields are filled as they run. */
  private toolRow: StepRow | undefined;

  /** The first recorded call paid whose own figures cost more than exact picodollars (kernel/callPastExact.ts), when `prices` were given. */
  private pastExact: { call: CallRecord; past: CallPastExact } | undefined;

  /** `keepSteps`: a row per call made while the run had made at most `rowsThroughStep` steps. `prices`: the run's, to name a call past exact picodollars on its own (else the run is named). */
  constructor(
    private readonly keepSteps: boolean,
    private readonly rowsThroughStep = Infinity,
    private readonly prices?: FlatPrices,
  ) {}

  /** The run's figures when it stopped with `stop`. */
  outcome(stop: Stop, state: Readonly<BrakeState>, budgetPico: number): RunOutcome {
    const totals = this.totals;
    // meteredTotals' figures named one by one, in its order, not spread in (a spread before more keys is
    // copied through V8's runtime, slow before the code is optimised: once a run).
    const outcome: RunOutcome = {
      stop,
      steps: state.steps,
      calls: state.calls,
      backtracks: state.backtracks,
      failedCalls: totals.failedCalls,
      toolCalls: totals.toolCalls,
      inputTokens: totals.inputTokens,
      cachedInputTokens: totals.cachedInputTokens,
      cacheWriteTokens: totals.cacheWriteTokens,
      outputTokens: totals.outputTokens,
      reasoningTokens: totals.reasoningTokens,
      costPico: state.spentPico,
      overshootPico: overshootPico(state.spentPico, budgetPico),
      elapsedMs: state.elapsedMs,
      cacheRuleLostTokens: totals.cacheRuleLost,
      rows: this.rows,
    };
    if (totals.recordedInputCalls > 0) {
      outcome.recordedInputTokens = totals.recordedInput;
      outcome.recordedInputDelta = totals.recordedDelta;
    }
    if (totals.recordedCostCalls > 0 && totals.recordedCostCalls === state.calls) {
      outcome.recordedCallCostPico = totals.recordedCostPico;
    }
    return addStrategyFigures(outcome, totals);
  }

  /** Adds a summary call (context `summary`/`hybrid`: not a step; `failed`: one of the failed calls) to the totals, its cost to the summaries' too, and (keepSteps) its row. */
  addSummary(metered: MeteredCall, view: PromptView, state: Readonly<BrakeState>, failed = false): void {
    this.totals.summaryCalls += 1;
    if (failed) this.totals.failedCalls += 1;
    this.totals.summaryCostPico += metered.costPico;
    this.add(null, metered, view, state);
  }

  /**
   * Notes `response` when it is the first call paid whose own figures pass exact picodollars (as the compiled
   * replay finds it among the calls made: fast/runState.ts). A call its provider refused for its length is no
   * compiled call (fast/refusal.ts) and bills nothing. `fields`: its figures written (CallField layout), else written here.
   */
  private notePastExact(response: CallRecord, fields: Float64Array | undefined): void {
    if (this.prices === undefined || this.pastExact !== undefined || response.failed?.contextLengthExceeded !== undefined) return;
    const past = callPastExact(this.prices, fields ?? writeCallFields(response), 0);
    if (past !== undefined) this.pastExact = { call: response, past };
  }

  /** Adds a call to the totals and (keepSteps) its row; `response` null: a summary call. `fields`: the response's figures as the caller has them written (CallField layout: meter.ts), if it has. */
  add(response: CallRecord | null, metered: MeteredCall, view: PromptView, state: Readonly<BrakeState>, fields?: Float64Array): void {
    if (response !== null) this.notePastExact(response, fields);
    // Picodollars are exact in a double only up to 2^53 ≈ $9,007 for one run: refused at the call that
    // passes it, so a live loop (serve, the real agent) stops there too, not only a replay at its end.
    if (!Number.isSafeInteger(state.spentPico)) throw this.pastExact === undefined ? costOutOfRange() : new CallCostOutOfRange(costOutOfRange(), this.pastExact.call, this.pastExact.past);
    const { usage, costPico } = metered;
    const totals = this.totals;
    totals.inputTokens += usage.input;
    totals.cachedInputTokens += usage.cached;
    totals.cacheWriteTokens += cacheWriteTokensOf(usage);
    totals.outputTokens += usage.output;
    totals.reasoningTokens += usage.reasoning;
    totals.cacheRuleLost += metered.cacheRuleLostTokens;
    if (response?.failed) totals.failedCalls += 1;
    if (response && response.inputTokens !== undefined) {
      totals.recordedInput += response.inputTokens;
      totals.recordedInputCalls += 1;
      totals.recordedDelta += metered.recordedInputDelta ?? 0;
    }
    if (response && response.recordedCostUsd !== undefined) {
      totals.recordedCostPico += usdToPico(response.recordedCostUsd);
      totals.recordedCostCalls += 1;
    }
    this.toolRow = undefined;
    if (!this.keepSteps || state.steps > this.rowsThroughStep) return;
    const previous = this.rows[this.rows.length - 1];
    const row: StepRow = {
      call: state.calls,
      step: state.steps,
      inputTokens: usage.input,
      cachedInputTokens: usage.cached,
      cacheWriteTokens: cacheWriteTokensOf(usage),
      outputTokens: usage.output,
      costPico,
      cumulativeInputTokens: (previous?.cumulativeInputTokens ?? 0) + usage.input,
      cumulativeOutputTokens: (previous?.cumulativeOutputTokens ?? 0) + usage.output,
      cumulativeCostPico: (previous?.cumulativeCostPico ?? 0) + costPico,
      modelInputTokens: view.fullInputTokens,
    };
    if (usage.cacheWrite1h > 0) row.cacheWrite1hTokens = usage.cacheWrite1h;
    if (response === null) row.summary = true;
    else {
      if (response.inputTokens !== undefined) row.recordedInputTokens = response.inputTokens;
      if (response.backtrack) row.backtrack = true;
      if (response.failed) row.failed = true;
      this.askedTools(row, response);
    }
    this.rows.push(row);
  }

  /** The tools `response` asked for, on its row: their results are counted as they enter (toolResultEntered). */
  private askedTools(row: StepRow, response: CallRecord): void {
    const tools = response.toolCalls;
    if (tools === undefined || tools.length === 0) return;
    row.tools = tools.map((tool) => tool.name);
    row.toolResultTokens = 0;
    this.toolRow = row;
  }

  /**
   * A tool result of the call last added entered its step, as the context took it: `keptTokens` of its
   * `resultTokens` (a skipped tool: its warning's), what ContextTracker.addToolResult kept under the cap.
   */
  toolResultEntered(keptTokens: number, resultTokens: number): void {
    const row = this.toolRow;
    if (row === undefined) return;
    const beforeCap = row.toolResultTokensBeforeCap ?? row.toolResultTokens!;
    row.toolResultTokens! += keptTokens;
    if (keptTokens !== resultTokens || row.toolResultTokensBeforeCap !== undefined) row.toolResultTokensBeforeCap = beforeCap + resultTokens;
  }

  /** The duplicate-action guard skipped tool `name` of the call last added (its warning enters in its place: toolResultEntered). */
  toolSkipped(name: string): void {
    const row = this.toolRow;
    if (row === undefined) return;
    (row.skippedTools ??= []).push(name);
  }
}

/**
 * One run's state machine: context, brakes, meter and accounting, with one method per point of the
 * loop where something happens. The synchronous simulator (run.ts) and a real, asynchronous agent loop
 * drive the same session in the same order:
 *
 *   prompt()                        what the next call would send
 *   checkBeforeCall(view, metered?) brakes before the call (metered = the call's known or bounded cost)
 *   … the model is called …
 *   recordResponse(response, …)     pay for it; completed / backtrack_limit, or tool calls follow
 *   for each tool call:
 *     checkTool(tool)               repeated-action brake, before it runs
 *     … the tool runs …
 *     recordToolResult(tool)        its result joins the context; same-error brake
 *   endStep(response)               a final answer completes the run
 *   finish(stop)                    the run's figures
 */
import {
  checkAction,
  checkAfterCall,
  checkBeforeCall,
  checkToolOutcome,
  recordAction,
  recordCall,
  recordToolOutcome,
} from '../brakes/brakes.js';
import { actionFingerprint, errorFingerprint, Interner } from '../brakes/fingerprint.js';
import { newBrakeState, type BrakeState } from '../brakes/state.js';
import type { Stop } from '../brakes/stopReasons.js';
import { ContextTracker, type PromptView } from '../context/tracker.js';
import { UserError } from '../errors.js';
import { usdToPico } from '../money.js';
import type { CallRecord, ToolCallRecord } from '../trace/types.js';
import { modelledCallLatency, modelledToolLatency } from './latency.js';
import { meterCall, type MeteredCall } from './meter.js';
import type { LoopOptions, RunOutcome, StepRow } from './types.js';

export class LoopSession {
  readonly state: BrakeState = newBrakeState();
  private readonly context: ContextTracker;
  private readonly rows: StepRow[] = [];
  private readonly totals = {
    input: 0,
    cached: 0,
    cacheWrite: 0,
    output: 0,
    reasoning: 0,
    failed: 0,
    toolCalls: 0,
    recordedInput: 0,
    recordedInputCalls: 0,
    recordedDelta: 0,
    recordedCostPico: 0,
    recordedCostCalls: 0,
  };

  constructor(
    private readonly options: LoopOptions,
    private readonly interner = new Interner(),
  ) {
    this.context = new ContextTracker(options.systemTokens, options.goalTokens, options.strategy);
  }

  prompt(): PromptView {
    return this.context.view();
  }

  /** Usage and cost of a response to the prompt `view`, under the run's strategy, cache mode and prices. */
  meter(response: CallRecord, view: PromptView): MeteredCall {
    return meterCall(response, view, this.options.strategy, this.options.cache, this.options.pricing);
  }

  /** `metered` is the call's cost when known (replay) or an upper bound (a real loop); absent otherwise. */
  checkBeforeCall(view: PromptView, metered?: MeteredCall): Stop | null {
    return checkBeforeCall(this.options.brakes, this.state, {
      inputTokens: metered ? metered.usage.input : view.inputTokens,
      costBoundPico: metered?.costPico,
      modelContextWindow: this.options.pricing.contextWindow,
    });
  }

  /** The call was made: pay for it and let its output into the context. */
  recordResponse(response: CallRecord, metered: MeteredCall, view: PromptView): Stop | null {
    this.context.markSent();
    const { usage, costPico } = metered;
    const backtrack = response.backtrack === true;
    const compaction = response.compaction === true;
    recordCall(this.state, {
      costPico,
      inputTokens: usage.input,
      outputTokens: usage.output,
      latencyMs: response.latencyMs ?? modelledCallLatency(this.options.latency, usage.input, usage.output),
      countsAsStep: !backtrack && !compaction,
      backtrack,
    });
    this.account(response, metered, view);
    if (backtrack) {
      this.context.dropLastStep();
      return checkAfterCall(this.options.brakes, this.state);
    }
    if (response.failed || compaction) return null;
    this.context.addStep(usage.output);
    if ((response.toolCalls ?? []).length === 0 && !response.unparseable) {
      return { reason: 'completed', detail: `final answer after ${this.state.steps} steps` };
    }
    return null;
  }

  /** Whether the response's tool calls run (a failed call, a backtrack or a compaction has none that do). */
  runsTools(response: CallRecord): boolean {
    return !response.backtrack && !response.failed && !response.compaction;
  }

  /** Before a tool call runs: the repeated-action brake. */
  checkTool(tool: ToolCallRecord): Stop | null {
    const action = this.interner.id(actionFingerprint(tool.name, tool.arguments));
    const stop = checkAction(this.options.brakes, this.state, action, () => `action ${tool.name}`);
    if (stop) return stop;
    recordAction(this.state, action);
    this.totals.toolCalls += 1;
    return null;
  }

  /** After a tool call ran: its result joins the step; the same-tool-same-error brake. */
  recordToolResult(tool: ToolCallRecord): Stop | null {
    this.context.addToolResult(tool.resultTokens);
    const error = tool.error ? this.interner.id(errorFingerprint(tool.name, tool.error)) : -1;
    recordToolOutcome(this.state, error, tool.latencyMs ?? modelledToolLatency(this.options.latency));
    return checkToolOutcome(this.options.brakes, this.state, error, () => `tool ${tool.name}`);
  }

  /** The step's tool calls are done; a response flagged final completes the run. */
  endStep(response: CallRecord): Stop | null {
    this.context.closeStep();
    return response.final ? { reason: 'completed', detail: `final answer after ${this.state.steps} steps` } : null;
  }

  finish(stop: Stop): RunOutcome {
    const { state, totals } = this;
    if (!Number.isSafeInteger(state.spentPico)) {
      // Picodollars are exact in a double only up to 2^53 ≈ $9,007 for one run.
      throw new UserError({
        code: 'cost_out_of_range',
        message: `one run costs more than $9,007 (${state.calls} calls), beyond exact picodollar arithmetic`,
        hint: 'set --max-steps, --max-cost or --context-window to bound the run',
      });
    }
    const budget = this.options.brakes.maxCostPico;
    const outcome: RunOutcome = {
      stop,
      steps: state.steps,
      calls: state.calls,
      backtracks: state.backtracks,
      failedCalls: totals.failed,
      toolCalls: totals.toolCalls,
      inputTokens: totals.input,
      cachedInputTokens: totals.cached,
      cacheWriteTokens: totals.cacheWrite,
      outputTokens: totals.output,
      reasoningTokens: totals.reasoning,
      costPico: state.spentPico,
      overshootPico: budget !== undefined ? Math.max(0, state.spentPico - budget) : 0,
      elapsedMs: state.elapsedMs,
      rows: this.rows,
    };
    if (totals.recordedInputCalls > 0) {
      outcome.recordedInputTokens = totals.recordedInput;
      outcome.recordedInputDelta = totals.recordedDelta;
    }
    if (totals.recordedCostCalls > 0 && totals.recordedCostCalls === state.calls) {
      outcome.recordedCallCostPico = totals.recordedCostPico;
    }
    return outcome;
  }

  private account(response: CallRecord, metered: MeteredCall, view: PromptView): void {
    const { usage, costPico } = metered;
    const totals = this.totals;
    totals.input += usage.input;
    totals.cached += usage.cached;
    totals.cacheWrite += usage.cacheWrite + usage.cacheWrite1h;
    totals.output += usage.output;
    totals.reasoning += usage.reasoning;
    if (response.failed) totals.failed += 1;
    if (response.inputTokens !== undefined) {
      totals.recordedInput += response.inputTokens;
      totals.recordedInputCalls += 1;
      totals.recordedDelta += metered.recordedInputDelta ?? 0;
    }
    if (response.recordedCostUsd !== undefined) {
      totals.recordedCostPico += usdToPico(response.recordedCostUsd);
      totals.recordedCostCalls += 1;
    }
    if (!this.options.keepSteps) return;
    const previous = this.rows[this.rows.length - 1];
    const row: StepRow = {
      call: this.state.calls,
      step: this.state.steps,
      inputTokens: usage.input,
      cachedInputTokens: usage.cached,
      cacheWriteTokens: usage.cacheWrite + usage.cacheWrite1h,
      outputTokens: usage.output,
      costPico,
      cumulativeInputTokens: (previous?.cumulativeInputTokens ?? 0) + usage.input,
      cumulativeOutputTokens: (previous?.cumulativeOutputTokens ?? 0) + usage.output,
      cumulativeCostPico: (previous?.cumulativeCostPico ?? 0) + costPico,
      modelInputTokens: view.fullInputTokens,
    };
    if (response.inputTokens !== undefined) row.recordedInputTokens = response.inputTokens;
    if (response.backtrack) row.backtrack = true;
    if (response.failed) row.failed = true;
    this.rows.push(row);
  }
}

/**
 * The loop. One synchronous driver over an injected step source; the brakes, the context tracker and
 * the meter are the modules a real loop uses too. Time is virtual: it advances by the latencies the
 * responses carry (recorded or modelled), never by a wall clock.
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
import { newBrakeState } from '../brakes/state.js';
import type { Stop } from '../brakes/stopReasons.js';
import { ContextTracker } from '../context/tracker.js';
import { UserError } from '../errors.js';
import { usdToPico } from '../money.js';
import { meterCall } from './meter.js';
import type { LoopOptions, RunOutcome, StepRow, StepSource } from './types.js';

export function runLoop(source: StepSource, options: LoopOptions, interner = new Interner()): RunOutcome {
  const { brakes, pricing } = options;
  const state = newBrakeState();
  const context = new ContextTracker(options.systemTokens, options.goalTokens, options.strategy);
  const rows: StepRow[] = [];
  const totals = {
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
  let stop: Stop | null = null;

  while (stop === null) {
    const view = context.view();
    const response = source.next(view, state);
    const metered = response ? meterCall(response, view, options.strategy, options.cache, pricing) : undefined;
    stop = checkBeforeCall(brakes, state, {
      inputTokens: metered ? metered.usage.input : view.inputTokens,
      costBoundPico: metered?.costPico,
      modelContextWindow: pricing.contextWindow,
    });
    if (stop) break;
    if (!response || !metered) {
      const reason = source.exhaustedReason();
      stop = { reason, detail: reason === 'completed' ? 'recorded run completed' : 'recorded trace ended without completing' };
      break;
    }

    // The call is made.
    context.markSent();
    const { usage, costPico } = metered;
    const backtrack = response.backtrack === true;
    const compaction = response.compaction === true;
    recordCall(state, {
      costPico,
      inputTokens: usage.input,
      outputTokens: usage.output,
      latencyMs: response.latencyMs ?? 0,
      countsAsStep: !backtrack && !compaction,
      backtrack,
    });
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
    if (options.keepSteps) {
      const previous = rows[rows.length - 1];
      const row: StepRow = {
        call: state.calls,
        step: state.steps,
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
      if (backtrack) row.backtrack = true;
      if (response.failed) row.failed = true;
      rows.push(row);
    }

    if (backtrack) {
      context.dropLastStep();
      stop = checkAfterCall(brakes, state);
      continue;
    }
    if (response.failed || compaction) continue;

    context.addStep(usage.output);
    const tools = response.toolCalls ?? [];
    if (tools.length === 0 && !response.unparseable) {
      stop = { reason: 'completed', detail: `final answer after ${state.steps} steps` };
      break;
    }
    for (const tool of tools) {
      const action = interner.id(actionFingerprint(tool.name, tool.arguments));
      stop = checkAction(brakes, state, action, () => `action ${tool.name}`);
      if (stop) break;
      recordAction(state, action);
      totals.toolCalls += 1;
      context.addToolResult(tool.resultTokens);
      const error = tool.error ? interner.id(errorFingerprint(tool.name, tool.error)) : -1;
      recordToolOutcome(state, error, tool.latencyMs ?? 0);
      stop = checkToolOutcome(brakes, state, error, () => `tool ${tool.name}`);
      if (stop) break;
    }
    context.closeStep();
    if (!stop && response.final) stop = { reason: 'completed', detail: `final answer after ${state.steps} steps` };
  }

  if (!Number.isSafeInteger(state.spentPico)) {
    // Picodollars are exact in a double only up to 2^53 ≈ $9,007 for one run.
    throw new UserError({
      code: 'cost_out_of_range',
      message: `one run costs more than $9,007 (${state.calls} calls), beyond exact picodollar arithmetic`,
      hint: 'set --max-steps, --max-cost or --context-window to bound the run',
    });
  }
  const overshootPico = brakes.maxCostPico !== undefined ? Math.max(0, state.spentPico - brakes.maxCostPico) : 0;
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
    overshootPico,
    elapsedMs: state.elapsedMs,
    rows,
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

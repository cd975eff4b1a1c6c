/**
 * What each recorded run tells `fit`: the run is replayed once as recorded (no brake) through the one loop,
 * as its loop ran it (fitReplay.ts: under the context strategy its header states, else full history),
 * watching the prompt the strategy builds for every call; a run that ended unfinished is replayed again under
 * its recorded brakes, to know whether one of them stopped it (fitBrakeStops.ts).
 */
import { NO_BRAKES } from '../brakes/config.js';
import { actionFingerprint, errorFingerprint } from '../brakes/fingerprint.js';
import type { PromptView } from '../kernel/context.js';
import { cacheOn, Metered } from '../kernel/meter.js';
import { flattenPrices, type FlatPrices } from '../kernel/prices.js';
import type { ModelPricing, PriceTable } from '../pricing/types.js';
import type { CallRecord, Trace } from '../trace/types.js';
import { brakeStopOf, type BrakeStop } from './fitBrakeStops.js';
import { finalFailuresOf, type FinalFailures } from './fitGaveUp.js';
import { replayAsRecorded } from './fitReplay.js';

/** What one recorded run contributes to the fit. */
export interface RunFacts {
  completed: boolean;
  /** Whether the run did its task, by its ground truth (`header.synthetic.taskDone`: generated runs); undefined for a recording. */
  taskDone: boolean | undefined;
  /** Its failing calls right before its last (a retrier's attempts before it gave up: fitGaveUp.ts). */
  finalFailures: FinalFailures;
  endsOnFailedCall: boolean;
  /** The last call was its provider's refusal of a prompt past the window (failed.contextLengthExceeded). */
  refusedAtWindow: boolean;
  steps: number;
  /** The brake that stopped it, by its recorded brakes or its end (fitBrakeStops.ts); undefined: none did. */
  brakeStop: BrakeStop | undefined;
  goalTokens: number;
  systemTokens: number;
  /**
   * (steps in the prompt, recorded − modelled prompt tokens) of every call with a recorded prompt, the modelled
   * prompt the one the run's context strategy builds (fitReplay.ts), calls after a recorded summary left out.
   */
  overhead: [number, number][];
  /** Calls with a recorded prompt made after a recorded summary call: left out of `overhead` (the summary's size in the prompt is the strategy's estimate). */
  summarisedCalls: number;
  cachedTokens: number;
  /** Σ over calls after a first of what the provider's rule serves of the previous prompt (recorded, else the growth model's unchanged prefix): servedByRule. */
  servablePrefixTokens: number;
  /** Calls whose servable prefix is the growth model's (no prompt recorded), after a call before them. */
  modelledPrefixCalls: number;
  outputTokens: number[];
  resultTokens: number[];
  toolCalls: number;
  repeatedToolCalls: number;
  /** Calls of the run's most-called action (0 with no tool call). */
  busiestActionCalls: number;
  erroredToolCalls: number;
  /** Failed tool calls whose (tool, error) an earlier failure of the run had: what the same-error brake counts again. */
  sameErrorToolCalls: number;
  /** Of those, the ones right after a failed tool call (the call before them failed too). */
  sameErrorsAfterFailure: number;
  /** Of those, the ones whose (tool, error) is that failed call's: two in a row, what same-error-mode consecutive counts. */
  sameErrorsInARow: number;
  /** Over sameErrorsAfterFailure: Σ the chance that an earlier failure drawn by use is that failed call's (its failures / the run's failures so far). */
  inARowByUse: number;
  callLatenciesMs: number[];
  toolLatenciesMs: number[];
}

/** Replays a run as recorded and notes the prompt each call was answered to (`table.prices`: where a stated summary model's prices are read: fitReplay.ts). */
export function factsOf(trace: Trace, pricing: ModelPricing, table: { prices?: PriceTable | undefined } = {}): RunFacts {
  const views: [PromptView, CallRecord, boolean][] = [];
  const outcome = replayAsRecorded(trace, pricing, { brakes: NO_BRAKES, watch: (view, call, afterSummary) => views.push([view, call, afterSummary]), prices: table.prices });
  const completed = outcome.stop.reason === 'completed';
  const endsOnFailedCall = trace.calls.at(-1)?.failed !== undefined;
  const facts: RunFacts = {
    completed,
    taskDone: trace.header.synthetic?.taskDone,
    finalFailures: finalFailuresOf(trace.calls),
    endsOnFailedCall,
    refusedAtWindow: trace.calls.at(-1)?.failed?.contextLengthExceeded !== undefined,
    steps: outcome.steps,
    brakeStop: completed || endsOnFailedCall ? undefined : brakeStopOf(trace, pricing, { steps: outcome.steps, prices: table.prices }),
    goalTokens: trace.header.goalTokens,
    systemTokens: trace.header.systemTokens,
    overhead: [],
    summarisedCalls: 0,
    cachedTokens: 0,
    servablePrefixTokens: 0,
    modelledPrefixCalls: 0,
    outputTokens: [],
    resultTokens: [],
    toolCalls: 0,
    repeatedToolCalls: 0,
    busiestActionCalls: 0,
    erroredToolCalls: 0,
    sameErrorToolCalls: 0,
    sameErrorsAfterFailure: 0,
    sameErrorsInARow: 0,
    inARowByUse: 0,
    callLatenciesMs: [],
    toolLatenciesMs: [],
  };
  addCallFacts(facts, views, flattenPrices(pricing));
  return facts;
}

/** Each call's sizes, latencies, prompt overhead and cache figures, and its tool calls' repeats and errors (failed calls left out). */
function addCallFacts(facts: RunFacts, views: readonly [PromptView, CallRecord, boolean][], prices: FlatPrices): void {
  const seen = new Map<string, number>();
  const errors: RunErrors = { counts: new Map(), failures: 0, last: undefined };
  let previousInput: number | undefined;
  for (const [view, call, afterSummary] of views) {
    if (call.failed) continue;
    facts.outputTokens.push(call.outputTokens);
    if (call.latencyMs !== undefined) facts.callLatenciesMs.push(call.latencyMs);
    facts.cachedTokens += call.cachedInputTokens ?? 0;
    if (call.inputTokens !== undefined) {
      // Against the prompt the run's strategy built (its steps in it): a window's dropped steps are no negative overhead.
      if (afterSummary) facts.summarisedCalls += 1;
      else facts.overhead.push([view.historySteps - view.firstKeptStep, call.inputTokens - view.inputTokens]);
      if (previousInput !== undefined) facts.servablePrefixTokens += servedByRule(prices, previousInput, call.inputTokens);
      previousInput = call.inputTokens;
    } else {
      // No prompt recorded (a generated trace): the one its strategy builds, whose unchanged prefix is the previous prompt's.
      if (previousInput !== undefined) facts.modelledPrefixCalls += 1;
      facts.servablePrefixTokens += servedByRule(prices, view.unchangedPrefixTokens, view.inputTokens);
      previousInput = view.inputTokens;
    }
    for (const tool of call.toolCalls ?? []) {
      const key = actionFingerprint(tool.name, tool.arguments);
      const calls = (seen.get(key) ?? 0) + 1;
      if (calls > 1) facts.repeatedToolCalls += 1;
      seen.set(key, calls);
      facts.busiestActionCalls = Math.max(facts.busiestActionCalls, calls);
      facts.toolCalls += 1;
      countError(facts, errors, tool.error ? errorFingerprint(tool.name, tool.error) : undefined);
      facts.resultTokens.push(tool.resultTokens);
      if (tool.latencyMs !== undefined) facts.toolLatenciesMs.push(tool.latencyMs);
    }
  }
}

/** A run's failed tool calls so far: how often each (tool, error) failed, and the key of the tool call just made (undefined: it succeeded). */
interface RunErrors {
  counts: Map<string, number>;
  failures: number;
  last: string | undefined;
}

/** A tool call's outcome (`key`: its failure's (tool, error), undefined when it succeeded): whether it failed as before in the run, and right after that failure. */
function countError(facts: RunFacts, errors: RunErrors, key: string | undefined): void {
  const { last } = errors;
  errors.last = key;
  if (key === undefined) return;
  facts.erroredToolCalls += 1;
  const before = errors.counts.get(key) ?? 0;
  if (before > 0) {
    facts.sameErrorToolCalls += 1;
    if (last !== undefined) {
      facts.sameErrorsAfterFailure += 1;
      if (last === key) facts.sameErrorsInARow += 1;
      facts.inARowByUse += errors.counts.get(last)! / errors.failures;
    }
  }
  errors.counts.set(key, before + 1);
  errors.failures += 1;
}

const served = new Float64Array(Metered.Size);

/**
 * What a cache holding the whole previous prompt would serve of this one under the provider's rule (its
 * minimum prefix and increments: meter.ts cacheOn, the rule `--cache on` and a synthetic agent's hit share
 * apply). The hit share is the recorded cached tokens over these, so the rule's losses are not in the share
 * too: the synthetic agent applies the rule again to the share it serves.
 */
function servedByRule(prices: FlatPrices, previousPromptTokens: number, promptTokens: number): number {
  cacheOn(served, prices, previousPromptTokens, promptTokens);
  return served[Metered.Cached]!;
}

/**
 * One run's state machine: context, brakes, meter and accounting (accounts.ts), with one method per point of the
 * loop where something happens; its stops (runStops.ts), tool brakes (toolBrakes.ts), summary calls
 * (sessionSummaries.ts) and next prompt's estimate (promptOverhead.ts) are parts of their own, each in its
 * file. Every rule it applies is a kernel function (src/kernel), the ones the compiled replay applies too.
 * The synchronous simulator (run.ts) and a real, asynchronous agent loop drive the same session in the same order:
 *
 *   summarizeIfDue()                a summary call when the strategy's trigger is passed (not a step; its window may stop the run)
 *   prompt()                        what the next call would send
 *   checkBeforeCall(view, tree?)    brakes before the call, on what the loop knows before making it: a
 *                                   tree's check first (in a tree), then the run's own
 *   … the model is called …
 *   recordResponse(response, …)     pay for it; completed / backtrack_limit, or tool calls follow
 *   for each tool call:
 *     checkTool(tool)               repeated-action brake, before it runs ('skip': it does not run)
 *     … the tool runs …
 *     recordToolResult(tool)        its result joins the context; same-error brake
 *   endStep(response)               a final answer completes the run
 *   finish(stop)                    the run's figures
 *
 * The synchronous drivers (run.ts, the session-tree replay, live trees) make the first three steps through
 * run.ts's one beforeCall, so none can skip the summary or reorder the checks.
 */
import { Interner } from '../brakes/fingerprint.js';
import { newBrakeState, type BrakeState } from '../brakes/state.js';
import type { Stop } from '../brakes/stopReasons.js';
import { backtrackStop, beforeCallStop, countsAsStep, repeatBrakeOn } from '../kernel/brakes.js';
import { FULL_HISTORY, summaryTriggerTokens } from '../context/strategy.js';
import { ContextTracker, type PromptView } from '../kernel/context.js';
import { outputEnteringContext } from '../kernel/stepTokens.js';
import { cacheAtBreakpoints } from '../kernel/rewrittenContext.js';
import { CallField, CallFlag, TOOLS_DO_NOT_RUN } from '../kernel/callRecord.js';
import { Fact } from '../kernel/describe.js';
import { predictiveBoundPico } from '../kernel/cost.js';
import { CacheWrites } from '../kernel/cacheWrites.js';
import { countsCacheLost } from '../kernel/cacheLost.js';
import { boundWrites } from '../kernel/meter.js';
import { brakeLimits, contextWindowTokens, Limit, predicts, type BrakeLimits } from '../kernel/limits.js';
import { flattenPrices, type FlatPrices } from '../kernel/prices.js';
import { StopCode } from '../kernel/stopCodes.js';
import type { TimeoutAt } from '../kernel/cutWords.js';
import { refusedCallLabel } from '../kernel/providerWindow.js';
import { callLatencyMs } from '../kernel/latency.js';
import { cutShort } from '../trace/rules.js';
import type { CallRecord, ToolCallRecord } from '../trace/types.js';
import { meterCallInto, meteredCallFields, meterSettings, newMeteredCall, writeCallFields, type MeteredCall, type MeterSettings } from './meter.js';
import { RunAccounts } from './accounts.js';
import { RunStops } from './runStops.js';
import { refusalFacts, SummaryCalls, type SummaryDue } from './summary.js';
import { SessionSummaries } from './sessionSummaries.js';
import { PromptOverhead } from './promptOverhead.js';
import type { LoopOptions, RunOutcome, SessionSetup, StepRequest, StepSource, TreeCheck, WindowRefusal } from './types.js';
import { SKIPPED, ToolBrakes } from './toolBrakes.js';
import { runsTools as responseRunsTools } from '../trace/toolsRun.js';

export { SKIPPED } from './toolBrakes.js';
export type { TreeCheck } from './types.js';

/** The MeteredCall `meter(…, reuse)` meters into, for a driver that hands it straight to recordResponse and keeps nothing of it (playCall): one for every session, as the meter's own record is (meter.ts). */
const REUSED_METERED = newMeteredCall();

export class LoopSession {
  readonly state: BrakeState = newBrakeState();
  readonly limits: BrakeLimits;
  /** What each call's request carries besides its prompt (StepSource.next): the max_tokens the run sends. */
  readonly request: Readonly<StepRequest>;
  private readonly context: ContextTracker;
  /** Each stop told (runStops.ts), with the facts the stopping brake sets. */
  private readonly stops: RunStops;
  /** The run's prices, with their cache rule, stated or their provider's (kernel/prices.ts flattenPrices, one rule for every engine). */
  private readonly prices: FlatPrices;
  private readonly meterSettings: MeterSettings;
  /** The run's summary calls: when one is due, its checks, paying it (sessionSummaries.ts). */
  private readonly summaries: SessionSummaries;
  /** What the next prompt is estimated at: the context plus the overhead the last call showed (promptOverhead.ts). */
  private readonly overhead: PromptOverhead;
  private readonly accounts: RunAccounts;
  /** The repeated-action and same-error brakes (toolBrakes.ts). */
  private readonly toolBrakes: ToolBrakes;
  /** The cache writes the predictive bound prices: the run's (kernel/cacheWrites.ts), as its cache mode leaves them (kernel meter.ts boundWrites). */
  readonly cacheWrites: CacheWrites;
  /** Whether the cache hits the strategy loses are counted: the run has a cache (kernel/cacheLost.ts). */
  private readonly countsCacheLost: boolean;
  private readonly reasoningReenters: boolean;
  /** The response `meter(…, reuse)` metered last, until recordResponse reads its figures as the meter wrote them (meter.ts meteredCallFields). */
  private meteredResponse: CallRecord | undefined;

  /** The run's totals so far (tokens as billed, failed calls, …): what a live loop can report mid-run. */
  get totals(): Readonly<RunAccounts['totals']> {
    return this.accounts.totals;
  }

  constructor(
    private readonly options: LoopOptions,
    setup: SessionSetup = {},
  ) {
    const spare = setup.spare;
    this.context = spare?.context ?? new ContextTracker();
    this.prices = flattenPrices(options.pricing);
    this.meterSettings = options.usageAsSent ? { ...meterSettings(FULL_HISTORY, options.cache, this.prices), asSent: true } : meterSettings(options.strategy, options.cache, this.prices);
    this.accounts = new RunAccounts(options.keepSteps === true, options.keepStepsThrough, this.prices);
    this.overhead = new PromptOverhead(options.usageAsSent === true);
    this.limits = brakeLimits(options.brakes, this.prices.contextWindow, spare?.limits);
    this.request = { maxOutputTokens: this.limits[Limit.MaxOutputTokens]! };
    this.stops = new RunStops(this.limits, this.state, spare?.facts);
    this.cacheWrites = boundWrites(setup.cacheWrites ?? CacheWrites.MayLastAnHour, this.meterSettings.cacheMode);
    this.countsCacheLost = countsCacheLost(this.meterSettings.cacheMode, setup.recordsCache !== false);
    const countsActions = repeatBrakeOn(this.limits) || setup.sourceReadsToolState !== false;
    this.toolBrakes = new ToolBrakes({ limits: this.limits, state: this.state, stops: this.stops, accounts: this.accounts, context: this.context, options, interner: setup.interner ?? new Interner(), countsActions });
    this.reasoningReenters = setup.reasoningReenters !== false;
    const calls = new SummaryCalls(this.meterSettings, options.summaryPricing ? flattenPrices(options.summaryPricing) : this.prices, { context: this.context, state: this.state, accounts: this.accounts, options, reasoningReenters: this.reasoningReenters, countsCacheLost: this.countsCacheLost });
    this.summaries = new SessionSummaries({ session: this, context: this.context, stops: this.stops, overhead: this.overhead, calls });
    this.context.reset(options.systemTokens + options.goalTokens, options.strategy, summaryTriggerTokens(options.strategy, contextWindowTokens(this.limits, this.prices)), cacheAtBreakpoints(this.prices, this.cacheWrites));
  }

  /** Before the next call, the summary call due (the strategy's trigger passed, the brakes letting it through on its estimate; in a tree, the tree's too), else null; recordSummary pays it. */
  summaryDue(tree?: TreeCheck): SummaryDue | null {
    return this.summaries.due(tree);
  }

  /** Before the summary call `due` is made, its other checks (its window's brake; `source` out of calls; `simulated`, its provider's refusal). */
  beforeSummary(due: SummaryDue, simulated = false, source?: Pick<StepSource, 'callsLeft' | 'exhaustedReason' | 'exhaustedDetail'>): Stop | null {
    return this.summaries.before(due, simulated, source);
  }

  /** The summary call `due` was made: paid (not a step) as `response` reports it, else by its estimate; unless it failed, the summary replaces the older steps. */
  recordSummary(due: SummaryDue, response: CallRecord | null): MeteredCall {
    return this.summaries.record(due, response);
  }

  /** A synchronous driver's summary call when due, past its other checks, paid by its estimate, or as `source` recorded it. */
  summarizeIfDue(tree?: TreeCheck, source?: Pick<StepSource, 'recordedSummary' | 'callsLeft' | 'exhaustedReason' | 'exhaustedDetail'>): Stop | null {
    return this.summaries.ifDue(tree, source);
  }

  prompt(): PromptView {
    return this.context.view();
  }

  /** Usage and cost of a response to the prompt `view` under the run's strategy, cache mode and prices; `reuse`: into one object the session reuses (for a driver that hands it straight to recordResponse and keeps nothing of it: playCall). */
  meter(response: CallRecord, view: PromptView, reuse = false): MeteredCall {
    const metered = meterCallInto(reuse ? REUSED_METERED : newMeteredCall(), response, view, this.meterSettings);
    // A driver that hands it straight to recordResponse changes nothing of the response in between: its figures as the meter wrote them serve recordResponse too.
    this.meteredResponse = reuse ? response : undefined;
    return metered;
  }

  /** The next prompt as a live loop would estimate it now: what the context holds plus the overhead the last call showed. */
  nextPromptEstimate(): number {
    return this.overhead.estimate(this.context.promptTokens());
  }

  /**
   * This run goes on with an agent's conversation (a tree's next part `previous`: a new user turn, a model
   * switch): before its first call a live loop knows the conversation so far (the previous part's
   * nextPromptEstimate), so the first prompt is estimated as that plus this run's goal, not as a fresh
   * context; from then on, by what the calls are billed. The conversation's framing goes on too.
   */
  continueConversation(previous: LoopSession): void {
    if (this.state.calls > 0) throw new Error('continueConversation: the run has already made a call');
    this.overhead.continued(previous.overhead, previous.nextPromptEstimate() + this.options.goalTokens - this.context.promptTokens());
  }

  /**
   * What the next call may cost at most, as a live loop can bound it before making it (kernel predictiveBoundPico):
   * the prompt estimate (the view plus the overhead the last call showed) at the dearest price a prompt token can
   * be billed at, the run's cache writes lasting as they may, plus the `max_tokens` the loop sends at the output price.
   */
  boundPico(view: PromptView): { boundPico: number; promptEstimate: number } {
    const estimate = this.overhead.estimate(view.inputTokens);
    return { boundPico: predictiveBoundPico(this.prices, estimate, this.limits[Limit.MaxOutputTokens]!, this.cacheWrites), promptEstimate: estimate };
  }

  /**
   * Brakes before the call, on what a live loop knows before making it, in one order: in a tree, the
   * tree's check first (its totals and per-agent limits); then the run's own. The prompt the run's own
   * compares with the context window is the same estimate the predictive budget prices: the view plus
   * the overhead the last call showed (a recorded prompt's billed size is known only once it is billed).
   */
  checkBeforeCall(view: PromptView, tree?: TreeCheck): Stop | null {
    return tree?.check(this, view) ?? this.ownCheckBeforeCall(view);
  }

  /** What a tree's timeout before the next call names of the run's last call at the tree's time `at`, as a lone run's names it (cut, not retried, run on past the deadline: kernel/cutWords.ts timeoutWords). */
  timeoutWords(at: TimeoutAt): string {
    return this.stops.timeoutWords(at);
  }

  private ownCheckBeforeCall(view: PromptView): Stop | null {
    const { state, limits } = this;
    const estimate = this.overhead.estimate(view.inputTokens);
    const boundPico = predicts(limits) ? predictiveBoundPico(this.prices, estimate, limits[Limit.MaxOutputTokens]!, this.cacheWrites) : 0;
    const code = beforeCallStop(limits, state.steps, state.elapsedMs, state.spentPico, boundPico, state.tokensUsed, estimate);
    if (code === StopCode.None) return null;
    const facts = this.stops.facts;
    facts[Fact.BoundPico] = boundPico;
    facts[Fact.PromptEstimate] = estimate;
    facts[Fact.PromptTokens] = estimate;
    return this.stops.stop(code);
  }

  /** The source ran out before a call: the recorded run completed, or ended without completing (`endDetail`: what its recording says of that, '' for nothing). */
  exhausted(reason: 'completed' | 'trace_end', endDetail = ''): Stop {
    this.stops.facts[Fact.Exhausted] = 1;
    return reason === 'completed' ? this.stops.stop(StopCode.Completed) : this.stops.stop(StopCode.TraceEnd, endDetail);
  }

  /** A real loop's AbortSignal fired before a call or a tool call. */
  aborted(): Stop {
    return this.stops.stop(StopCode.Aborted);
  }

  /** A real loop's model gave up (an error not retried, or retries spent): the run ends as its recording does, in trace_end. */
  modelGaveUp(detail: string): Stop {
    return this.stops.stop(StopCode.TraceEnd, detail);
  }

  /** After the brakes let it through, the provider refused the call `response` records (WindowRefusal): a (failed) call with its time, no step, paid nothing; the run ends (a compaction call's detail names the summary call: refusedCallLabel). */
  providerRefused(response: CallRecord, view: PromptView, refusal: WindowRefusal): Stop {
    this.state.calls += 1;
    this.state.elapsedMs += callLatencyMs(response.latencyMs ?? NaN, this.options.latency, 0, 0);
    this.accounts.add(response, newMeteredCall(), view, this.state);
    refusalFacts(this.stops.facts, refusal);
    return this.stops.stop(StopCode.ProviderRefused, refusedCallLabel(response.compaction === true));
  }

  /** The call was made: pay for it and let its output into the context. */
  recordResponse(response: CallRecord, metered: MeteredCall, view: PromptView): Stop | null {
    if (this.countsCacheLost) this.accounts.totals.strategyCacheLostTokens += this.context.cacheLostTokens();
    this.context.markSent();
    const { usage, costPico } = metered;
    const state = this.state;
    const backtrack = response.backtrack === true;
    this.stops.called(response, response.compaction === true);
    state.calls += 1;
    if (backtrack) state.backtracks += 1;
    if (countsAsStep(response)) state.steps += 1;
    state.spentPico += costPico;
    state.tokensUsed += usage.input + usage.output;
    state.elapsedMs += callLatencyMs(response.latencyMs ?? NaN, this.options.latency, usage.input, usage.output);
    if (!response.failed) this.overhead.shown(view, usage.input);
    // The response's figures (CallField layout) read once: as its meter wrote them, when it was just metered for this (playCall), else now.
    const fields = this.meteredResponse === response ? meteredCallFields() : writeCallFields(response);
    this.meteredResponse = undefined;
    this.accounts.add(response, metered, view, this.state, fields);
    const flags = fields[CallField.Flags]!;
    this.overhead.entered(this.context, flags, outputEnteringContext(usage.output, usage.reasoning, this.reasoningReenters));
    if (backtrack) return this.stops.stopIf(backtrackStop(this.limits, state.backtracks));
    if ((flags & TOOLS_DO_NOT_RUN) !== 0) return null;
    if ((flags & CallFlag.Answer) !== 0) return this.stops.stop(StopCode.Completed);
    return null;
  }

  /** Whether the response's tool calls run (trace/toolsRun.ts: one rule for every engine). */
  readonly runsTools = responseRunsTools;

  /**
   * Before a tool call runs: the repeated-action brake. SKIPPED: the duplicate-action guard skipped it
   * (not executed; its warning observation joined the step, so do not call recordToolResult).
   */
  checkTool(tool: ToolCallRecord): Stop | typeof SKIPPED | null {
    return this.toolBrakes.check(tool);
  }

  /** After a tool call ran: its result joins the step; the same-tool-same-error brake. */
  recordToolResult(tool: ToolCallRecord): Stop | null {
    return this.toolBrakes.recordResult(tool);
  }

  /** The step's tool calls are done; a response flagged final completes the run (not one the run stopped inside: trace/rules.ts cutShort). */
  endStep(response: CallRecord): Stop | null {
    this.context.closeStep();
    return response.final && !cutShort(response) ? this.stops.stop(StopCode.Completed) : null;
  }

  finish(stop: Stop): RunOutcome {
    return this.accounts.outcome(stop, this.state, this.limits[Limit.BudgetPico]!);
  }
}

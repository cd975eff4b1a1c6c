/**
 * The real agent loop (ReAct: model call → tool calls → observations → again), asynchronous, on the
 * same LoopSession the simulator's runLoop drives: context, brakes, meter and accounting are the
 * session's, in the session's order, so no rule exists twice. Pure: the clock, token counter, model
 * and tools are injected (run.ts fills in the real ones).
 *
 *   before each call   abort? → session.summaryDue() (when due: past session.beforeSummary, made through
 *                      the model, then billed by session.recordSummary as the model reported it; see liveSummary.ts) →
 *                      session.checkBeforeCall(view, tree) → the model is called with the prompt
 *                      the view sizes and max_completion_tokens = the predictive bound's output cap
 *   a failed call      its error checked (turnCheck.ts checkFailure), recorded and billed as the provider
 *                      billed it (zero tokens unless it returned usage, its record stating the cost: records.ts billed), the wait
 *                      before its retry counted as its time; the retry behind the brakes again, the wait waited only once they
 *                      let it through (a model that gives up ends the run there: kernel/gaveUp.ts); a refused prompt ends it too
 *   the response       session.recordResponse; each tool call (stepTools.ts): checkTool → run → recordToolResult (aborted
 *                      between them: the ones never reached recorded `unreached`, which no replay plays; after the last: no final mark)
 *   each call          one record to the recorder once its tools ran (or the run stopped inside it), stating its cost (and before they run, pending)
 *   the timeout        each model (summary too) and tool call's signal fires at it (deadline.ts): one cut is recorded as it ran, the brakes stop the run
 */
import type { BrakeConfig } from '../brakes/config.js';
import type { Stop } from '../brakes/stopReasons.js';
import { FULL_HISTORY, isIdentity } from '../context/strategy.js';
import { Limit } from '../kernel/index.js';
import type { PromptView } from '../kernel/context.js';
import { LoopSession } from '../loop/session.js';
import type { TraceEnd } from '../trace/types.js';
import { billed, callRecordOf, endRecord, endRecorded, NO_RECORDER, pendingCall, readableTurn, withCallIds } from './records.js';
import { liveHeaderRecord } from './headerRecord.js';
import { checkedTurn } from './turnCheck.js';
import { usageAsCounted, type UsageCounting } from './unreportedUsage.js';
import { Conversation } from './conversation.js';
import { ToolRegistry } from './tools.js';
import { LiveTree, type TreeMember } from './subagent.js';
import { runBrakes } from '../tree/budget.js';
import { picoToUsd } from '../money.js';
import { cacheWritesOfOption } from './cacheWrites.js';
import { thrownEnd, thrownInside, thrownText, withPartialRun } from './thrownRun.js';
import { checkedDate, checkedReading, countedTokens } from './valueCheck.js';
import { waitBeforeRetry, writeHeld, type PendingWait } from './waitBeforeRetry.js';
import { summarizeLive, type SummaryRun } from './liveSummary.js';
import { callDeadline, CUT_MODEL_CALL, runTimeOf, withCut, type CallDeadline } from './deadline.js';
import { sendCall, type CallsRun } from './failedCalls.js';
import { afterModelCallFailed, FailuresInRow } from './modelCallFailed.js';
import { StepTools } from './stepTools.js';
import { noteServedCost } from './servedCost.js';
import type { AgentLoopOptions, AgentRunResult, Clock, ModelTurn, RetryPolicy } from './types.js';

export interface ResolvedAgentOptions extends Omit<AgentLoopOptions, 'brakes' | 'reasoningInPrompt'> {
  brakes: BrakeConfig;
  /** Whether a call's reasoning re-enters the later prompts (AgentLoopOptions.reasoningInPrompt, resolved: left out, it does not). */
  reasoningInPrompt: boolean;
  clock: Clock;
  retry: RetryPolicy;
  countTokens: (text: string) => number;
  /** A sub-agent's place in its parent's tree (set for the runs sub-agent tools start). */
  member?: TreeMember;
}

export async function agentLoop(options: ResolvedAgentOptions): Promise<AgentRunResult> {
  return new AgentRun(options).run();
}

class AgentRun {
  private readonly session: LoopSession;
  private readonly tools: ToolRegistry;
  private readonly conversation: Conversation;
  private readonly recorder;
  private mark: number;
  private readonly fullHistory: boolean;
  private readonly member: TreeMember | undefined; // In a tree (sub-agent tools): this agent's checks and totals; `root`: the tree this run started.
  private readonly root: LiveTree | undefined;
  private finalText: string | null = null;
  private readonly counting: UsageCounting; // What a response's usage not reported is counted with (unreportedUsage.ts).
  private readonly calls: CallsRun; // What a failed call needs of this run (failedCalls.ts).
  private readonly summaryRun: SummaryRun; // What the summary call needs of this run (liveSummary.ts).
  private readonly stepTools: StepTools; // Each step's tool calls (stepTools.ts), with the call whose tools are running.
  private pendingWait: PendingWait | undefined; // The wait before a retry, counted as its failed call's time, not yet waited (waitBeforeRetry.ts).
  private cutOff: string | undefined; // The call a deadline cut (deadline.ts), named in the detail of the timeout that stops the run.
  /** The tool call ids the run used (records.ts withCallIds: a call sent without one is named apart from them); what it notes (AgentRunResult `notes`). */
  private readonly callIds = new Set<string>();
  private readonly notes: string[] = [];
  private readonly failuresInRow = new FailuresInRow(); // The failed model calls the run ends on, noted when a brake stops it before their retry.

  constructor(private readonly options: ResolvedAgentOptions) {
    const { context, countTokens } = options;
    const strategy = context.strategy ?? FULL_HISTORY;
    this.fullHistory = isIdentity(strategy);
    const systemTokens = context.systemTokens ?? countedTokens(countTokens, context.system, 'system');
    const goalTokens = context.goalTokens ?? countedTokens(countTokens, context.goal, 'goal');
    this.counting = { countTokens, knownPromptTokens: systemTokens + goalTokens, notes: this.notes };
    const summaryPricing = options.summaryPricing === undefined ? {} : { summaryPricing: options.summaryPricing };
    this.root = options.member === undefined && options.tools.some((tool) => tool.subagent) ? new LiveTree(options.brakes, options.subagentLimits) : undefined;
    this.member = options.member ?? this.root?.member('main');
    const brakes = this.member ? runBrakes(options.brakes) : options.brakes;
    this.session = new LoopSession({ brakes, strategy, cache: 'recorded', pricing: options.pricing, ...summaryPricing, systemTokens, goalTokens, usageAsSent: true }, { cacheWrites: cacheWritesOfOption(options.cacheWrites), reasoningReenters: options.reasoningInPrompt });
    this.tools = new ToolRegistry(options.tools);
    this.conversation = new Conversation(context.system, context.goal);
    this.recorder = this.member ? this.member.recording(options.recorder, options.brakes) : (options.recorder ?? NO_RECORDER);
    this.mark = checkedReading(options.clock.now());
    this.recorder.header(liveHeaderRecord(options, { systemTokens, goalTokens }), checkedDate(options.clock, this.mark)); // Dated by its clock when it tells dates (a VirtualClock's).
    this.calls = { session: this.session, options, recorder: this.recorder, lap: () => this.lap(), aborted: () => this.aborted };
    this.summaryRun = { ...this.calls, conversation: this.conversation, toolSpecs: this.tools.specs, deadline: () => this.deadline(), cut: (what) => (this.cutOff = what), notes: this.notes, counting: this.counting };
    this.stepTools = new StepTools({ ...this.summaryRun, tools: this.tools, member: this.member, agentLoop });
  }

  async run(): Promise<AgentRunResult> {
    const stop = await this.drive().catch((error: unknown) => Promise.reject(this.thrownOut(error)));
    return this.ended(stop, endRecord(stop));
  }

  /** What the run threw (thrownRun.ts): the call it was inside and an `error` end recorded, its figures so far attached (`partialRun`); a failure to finish leaves the error as it was. */
  private thrownOut(error: unknown): unknown {
    try {
      if (this.stepTools.inFlight) this.recorder.call(thrownInside(this.stepTools.inFlight, error));
      const stop = this.session.modelGaveUp(thrownText(error));
      return withPartialRun(error, this.ended(stop, thrownEnd(stop.detail)));
    } catch {
      return error;
    }
  }

  private ended(stop: Stop, end: TraceEnd): AgentRunResult {
    this.pendingWait = writeHeld(this.calls, this.pendingWait); // A wait the brakes declined: its failed call as counted.
    const outcome = this.session.finish(stop);
    const failures = this.failuresInRow.note(stop, outcome.steps);
    if (failures !== undefined) this.notes.push(failures);
    this.member?.finish(this.session, outcome);
    // A recording whose end cannot be written (records.ts endRecorded): what that threw, the result attached as `partialRun`.
    return endRecorded(this.recorder, { ...end, recordedCostUsd: picoToUsd(outcome.costPico) }, { ...outcome, finalText: this.finalText, messages: this.conversation.transcript, ...(this.notes.length > 0 ? { notes: [...this.notes] } : {}), ...(this.root ? { tree: this.root.report() } : {}), ...(this.member?.parent ? { agentId: this.member.agentId } : {}) });
  }

  /** Time since the last event (call or tool), and the mark moved: Σ of all of them is the run's time. */
  private lap(): number {
    const now = checkedReading(this.options.clock.now(), this.mark);
    const ms = now - this.mark;
    this.mark = now;
    return ms;
  }

  private get aborted(): boolean {
    return this.options.signal?.aborted === true;
  }

  private async drive(): Promise<Stop> {
    const { session, options } = this;
    let retries = 0;
    for (;;) {
      const view = await this.beforeCall();
      if ('reason' in view) return view;
      let turn: ModelTurn;
      const deadline = this.deadline();
      sendCall(this.calls, view); // On disk before it is made: a run killed during it keeps the call the provider may bill.
      try {
        turn = await options.model.call({
          messages: this.conversation.prompt(view),
          tools: this.tools.specs,
          maxOutputTokens: session.limits[Limit.MaxOutputTokens]!,
          ...(deadline.signal === undefined ? {} : { signal: deadline.signal }),
        });
      } catch (error) {
        const after = afterModelCallFailed(this.calls, error, view, { retries, cut: deadline.cut });
        this.failuresInRow.failed(after);
        this.pendingWait = after.pending; // None before (beforeCall's retryWait took it): the failed call's, if a wait follows.
        if (after.stop) return after.stop;
        if (after.cutOff) this.cutOff = CUT_MODEL_CALL; // Cut at its deadline: the brakes before the next call stop the run (deadline.ts).
        retries = after.retries;
        continue;
      } finally {
        deadline.end();
      }
      retries = 0;
      this.failuresInRow.answered();
      const stop = await this.step(withCallIds(readableTurn(usageAsCounted(checkedTurn(turn, options.model), this.counting)), session.state.calls, this.callIds), view);
      if (stop) return stop;
    }
  }

  /**
   * Before each model call: the abort, a summary due, the brakes, the wait before a retry; the prompt's view once the call may go. The synchronous
   * drivers' order (run.ts beforeCall), which this loop cannot call: its summary is a model call awaited between its gate and its bill, and its response comes after the brakes.
   */
  private async beforeCall(): Promise<Stop | PromptView> {
    const { session } = this;
    if (this.aborted) return (await this.retryWait()) ?? session.aborted();
    const summary = this.options.context.strategy?.summary ? session.summaryDue(this.member) : null;
    if (summary) {
      const stop = (await this.retryWait()) ?? (await summarizeLive(this.summaryRun, summary));
      if (stop) return stop;
    }
    const view = session.prompt();
    const before = session.checkBeforeCall(view, this.member);
    if (before) return this.cutOff && before.reason === 'timeout' ? { ...before, detail: withCut(before.detail, this.cutOff) } : before;
    return (await this.retryWait()) ?? view;
  }

  /** The wait before a retry, once the brakes let a call through (waitBeforeRetry.ts); `aborted` when the signal cut it short, only what was waited counted. */
  private async retryWait(): Promise<Stop | null> {
    const pending = this.pendingWait;
    this.pendingWait = undefined;
    const waited = pending === undefined ? { markMs: this.mark, aborted: false } : await waitBeforeRetry({ ...this.options, session: this.session, recorder: this.recorder }, pending, this.mark);
    this.mark = waited.markMs;
    return waited.aborted ? this.session.aborted() : null;
  }

  /** The deadline of the call made now (deadline.ts): at the timeout the brake before a call compares, the tree's in a tree. */
  private deadline(): CallDeadline {
    return callDeadline(this.options.clock, this.mark, this.member?.runTime(this.session) ?? runTimeOf(this.session), this.options.signal);
  }

  /** A response: paid for, then its tool calls run; one record once the step is over. */
  private async step(turn: ModelTurn, view: PromptView): Promise<Stop | null> {
    const { session, conversation } = this;
    const record = callRecordOf(turn, this.lap());
    const metered = session.meter(record, view);
    // A strategy that rewrites the prompt: the recording states the prompt as sent (replayed as full history).
    if (record.inputTokens === undefined && !this.fullHistory) record.inputTokens = metered.usage.input;
    const after = session.recordResponse(record, metered, view);
    billed(record, metered.costPico);
    noteServedCost(this.notes, { raw: turn.raw, costPico: metered.costPico, pricing: this.options.pricing }); // serve's own bill of the call, when not the run's (servedCost.ts).
    if (turn.marks?.backtrack) conversation.dropLastStep();
    else if (session.runsTools(record)) conversation.openStep(turn.text, turn.toolCalls);
    else conversation.note(turn.text);
    this.finalText = turn.text;
    if (after || !session.runsTools(record)) {
      this.recorder.call(record);
      return after;
    }
    if (record.toolCalls) this.recorder.pending?.(pendingCall(record)); // On disk before its tools run: a run killed in them keeps the call it paid.
    const stop = await this.stepTools.runAll(turn, record);
    this.recorder.call(record);
    return stop ?? session.endStep(record);
  }
}

/**
 * A session's summary calls (context strategies `summary`, `hybrid`; LoopSession's summaryDue, beforeSummary,
 * recordSummary, summarizeIfDue): when one is due before a call — the strategy's trigger passed and the brakes
 * letting it through on its estimate — its other checks before it is made (kernel/summaryBeforeCall.ts, the
 * order every engine keeps), and paying it (summary.ts SummaryCalls), the next prompt's estimate after it too
 * (promptOverhead.ts). The synchronous drivers make it through summarizeIfDue (run.ts beforeCall); the real
 * loop, whose summary call is a model call awaited between its gate and its bill, through the other three
 * (agent/liveSummary.ts).
 */
import type { Stop } from '../brakes/stopReasons.js';
import { summaryMayRun } from '../kernel/brakes.js';
import type { ContextTracker } from '../kernel/context.js';
import { summaryBoundPico, type SummaryCallSize } from '../kernel/cost.js';
import { SUMMARY_CALL } from '../kernel/providerWindow.js';
import { StopCode } from '../kernel/stopCodes.js';
import { RUN_ENDS_AT_SUMMARY, summaryCallChecks } from '../kernel/summaryBeforeCall.js';
import type { CallRecord } from '../trace/types.js';
import type { MeteredCall } from './meter.js';
import type { PromptOverhead } from './promptOverhead.js';
import type { RunStops } from './runStops.js';
import type { LoopSession } from './session.js';
import { recordedSummary, refusalFacts, summaryRefusal, summaryReplaces, type SummaryCalls, type SummaryDue } from './summary.js';
import type { StepSource, TreeCheck } from './types.js';

/** What of its session the summary calls read and move: the session (its brakes, state and the stops it tells), its context, stops, prompt overhead, and its summary calls' meter. */
export interface SummaryParts {
  readonly session: LoopSession;
  readonly context: ContextTracker;
  readonly stops: RunStops;
  readonly overhead: PromptOverhead;
  readonly calls: SummaryCalls;
}

/** What a summary call's checks read of the run's source (none: a model). */
type SummarySource = Pick<StepSource, 'callsLeft' | 'exhaustedReason' | 'exhaustedDetail'>;

export class SessionSummaries {
  private readonly session: LoopSession;
  private readonly context: ContextTracker;
  private readonly stops: RunStops;
  private readonly overhead: PromptOverhead;
  private readonly calls: SummaryCalls;

  constructor(parts: SummaryParts) {
    this.session = parts.session;
    this.context = parts.context;
    this.stops = parts.stops;
    this.overhead = parts.overhead;
    this.calls = parts.calls;
  }

  /**
   * Before the next call, a summary call is due when the prompt passes the strategy's trigger and the brakes would let the next
   * call through (predict mode: bounded by its estimate; in a tree, the tree's too). Its estimate, else null; record pays it.
   */
  due(tree: TreeCheck | undefined): SummaryDue | null {
    const { session, context, calls } = this;
    const state = session.state;
    if (!context.summaryDue(this.overhead.tokens) || calls.summaryHeld(state.calls)) return null;
    const size: SummaryCallSize = { prices: calls.prices, promptEstimate: session.nextPromptEstimate(), summaryTokens: context.summaryOutput, cacheWrites: session.cacheWrites };
    const mayRun = summaryMayRun(session.limits, state.steps, state.elapsedMs, state.spentPico, state.tokensUsed, summaryBoundPico(session.limits, size));
    return mayRun && (tree === undefined || tree.summaryMayRun(session, size)) ? { view: context.view(), size } : null;
  }

  /**
   * Before the summary call `due` (due let it through) is made, its other checks in the kernel's order (summaryCallChecks): its
   * window's brake (`--context-window model`); no call left of `source`'s (none: a model), the run ends; `simulated`, its provider's refusal.
   */
  before(due: SummaryDue, simulated: boolean, source: SummarySource | undefined): Stop | null {
    const { session, stops } = this;
    const code = summaryCallChecks(session.limits, { call: due.size, callsLeft: source?.callsLeft?.() ?? Infinity, simulated });
    if (code === RUN_ENDS_AT_SUMMARY) return session.exhausted(source!.exhaustedReason(), source!.exhaustedDetail?.());
    if (code === StopCode.None) return null;
    const { refusal, record } = summaryRefusal(due);
    if (code === StopCode.ProviderRefused) return session.providerRefused(record, due.view, refusal);
    refusalFacts(stops.facts, refusal);
    return stops.stop(code, SUMMARY_CALL);
  }

  /**
   * The summary call `due` was made: paid (not a step) as `response` reports it, else by its estimate; unless it failed, the summary
   * replaces the older steps (summary.ts), and where prompts are billed as sent the next estimate's overhead is what the prompt
   * now holds showed (kernel/sentOverhead.ts: not the dropped steps' corrections; the summary's message framing).
   */
  record(due: SummaryDue, response: CallRecord | null): MeteredCall {
    const context = this.context;
    if (response) this.stops.called(response, true);
    const replacesSummary = context.summaryStart > 0;
    const metered = this.calls.record(due, response);
    if (summaryReplaces(response)) this.overhead.summarized(context, replacesSummary);
    return metered;
  }

  /**
   * A synchronous driver's summary call when due, past its other checks (before), paid by its estimate (as replay pays it); from a
   * `source` that recorded the strategy's summary calls (a live run's recording replayed as its loop ran it), as recorded (summary.ts recordedSummary).
   */
  ifDue(tree: TreeCheck | undefined, source: (SummarySource & Pick<StepSource, 'recordedSummary'>) | undefined): Stop | null {
    const due = this.due(tree);
    if (!due) return null;
    if (source?.recordedSummary) return recordedSummary(this.session, due, source.recordedSummary());
    const stop = this.before(due, true, source);
    if (!stop) this.record(due, null);
    return stop;
  }
}

/**
 * What every served conversation shares: a LoopSession without brakes (the agent under test runs its own)
 * that meters each answered call with the kernel's meter and prices (src/kernel/meter.ts, cost.ts) and
 * keeps the spend; the figures `GET /loopcost/sessions` shows are read from it (sessionSummary.ts).
 */
import { NO_BRAKES } from '../brakes/config.js';
import { placeIssues } from '../errors.js';
import { FULL_HISTORY, type CacheMode } from '../context/strategy.js';
import type { PromptView } from '../kernel/context.js';
import { LoopSession } from '../loop/session.js';
import { cacheModeCode, type MeteredCall } from '../loop/meter.js';
import type { ModelPricing } from '../pricing/types.js';
import type { CallRecord } from '../trace/types.js';
import { playTools } from '../loop/run.js';
import { ApiError, RECORDED_FAILURE } from './apiError.js';
import { refusalError, sessionSummary, type SessionSummary } from './sessionSummary.js';
import { billedOf, placeholderText, pricedAsOf, replyToolCalls, servedUsage, type Reply } from './reply.js';
import type { ChatRequest } from './request.js';
import { cutAtCap } from '../synthetic/outputCap.js';
import { outputCapOf } from './outputCap.js';
import type { WindowRefusal } from '../loop/types.js';
import { estimatedSummaryCall, refusedSummaryRecord } from '../loop/summary.js';
import { windowRefusal } from '../kernel/providerWindow.js';
import { Metered } from '../kernel/meter.js';
import { flattenPrices } from '../kernel/prices.js';
import { summaryPricing, type PricingOf } from './summaryModel.js';
import type { Ending } from './retired.js';
import type { Stop } from '../brakes/stopReasons.js';
import { runsTools } from '../trace/toolsRun.js';

export interface SessionSetup {
  id: string;
  source: string;
  model: string;
  pricing: ModelPricing;
  cache: CacheMode;
  systemTokens: number;
  goalTokens: number;
  /** The prices of a model a summary request names (summaryModel.ts), undefined when the table does not know it. */
  pricingOf: PricingOf;
}

/** How a response is answered (ServeSession.respond). */
export interface Answering {
  /** What its placeholder text says answered it (`recorded`, `synthetic healthy`, `context summary`). */
  what: string;
  /** The request's output cap: a longer answer is cut there. */
  outputCap?: number | undefined;
  /** Already cut by the synthetic agent's provider (SyntheticAgent.next). */
  cutBefore?: boolean;
  /** Answered by another model than the session's (a summary model): its name as the request gave it. */
  on?: { model: string };
  /** Already metered (a summary call: ServeSession.meterSummary), else metered as the session's calls are; `pricing`: its prices, when not the session's. */
  metered?: MeteredCall;
  pricing?: ModelPricing;
}

/**
 * What a request is answered by: a session in progress (ServeSession), or one that ended, kept as its
 * totals and how it ended (retired.ts).
 */
export interface HeldSession {
  readonly id: string;
  /** Calls answered so far. */
  readonly calls: number;
  ended(): boolean;
  answer(request: ChatRequest): Reply;
  summaryAnswer(request: ChatRequest): Reply;
  summary(): SessionSummary;
  /** The session, when `request` may be its run's; once ended, another run's first request (its header reused) is refused, a 409 (newRun.ts). */
  sameRun(request: ChatRequest): HeldSession;
}

export abstract class ServeSession implements HeldSession {
  protected readonly loop: LoopSession;
  /** The last call answered is one its run sends back (trace/toolsRun.ts runsTools): once ended, a request without it is another run's (newRun.ts). */
  lastAnswerSentBack = false;

  /** `reasoningReenters`: whether a call's reasoning enters the later prompts (a recording's header says: kernel/stepTokens.ts reasoningReentersOf; default, it does). */
  constructor(
    protected readonly setup: SessionSetup,
    reasoningReenters = true,
  ) {
    this.loop = new LoopSession({ brakes: NO_BRAKES, strategy: FULL_HISTORY, cache: setup.cache, pricing: setup.pricing, systemTokens: setup.systemTokens, goalTokens: setup.goalTokens }, { reasoningReenters });
  }

  get id(): string {
    return this.setup.id;
  }

  /** Calls answered so far. */
  get calls(): number {
    return this.loop.state.calls;
  }

  abstract readonly kind: SessionSummary['kind'];
  abstract ended(): boolean;
  /** The model name the session's last ordinary request gave: a summary request naming it is answered by the session's model. */
  private askedAs: string | undefined;
  /** The stop of the provider's last refusal of a call of the session (refused). */
  private refusedStop: Stop | undefined;

  /** The next response to `request`, metered and paid for. Throws ApiError (409) past the end. */
  answer(request: ChatRequest): Reply {
    this.askedAs = request.model;
    return this.nextAnswer(request);
  }

  /** The next response to `request` (answer). */
  protected abstract nextAnswer(request: ChatRequest): Reply;
  /** Once ended: how every later request of the session is answered (the 409 past the end, or the error that ended it). */
  abstract ending(): Ending;

  /** Once ended: the error every later request of the session is answered with (ending, built). */
  endingError(): Error {
    const { build, from } = this.ending();
    return build(this.summary(), from);
  }

  /** Still in progress only for a summary call: a recording's last call answered, when it was no final answer (recorded.ts). */
  givenWhole(): boolean {
    return false;
  }

  /** A session givenWhole ends there, as the request past its end would end it; any other is left as it is. */
  endGivenWhole(): void {}

  /** In progress: every request is its run's (a client may send the same opening again: newRun.ts). */
  sameRun(_request: ChatRequest): HeldSession {
    return this;
  }

  summary(): SessionSummary {
    return sessionSummary({ setup: this.setup, kind: this.kind, loop: this.loop, ended: this.ended(), stop: this.refusedStop });
  }

  /**
   * The prompt `request` is metered at, one rule for every call of the session, summary calls included:
   * the session's own view (a recording's growth model: recorded calls bill their recorded prompts), or
   * for a synthetic session the messages the request carries (synthetic.ts).
   */
  protected promptOf(_request: ChatRequest): PromptView {
    return this.loop.prompt();
  }

  /**
   * The context summary the agent's loop asked for (PURPOSE_HEADER `summary`): a compaction call of the
   * request's output cap in tokens, its prompt sized as replay sizes a summary call's (summaryPromptTokens) —
   * paid, not a step — taking nothing from the recording or the synthetic agent. Answered by the model the
   * request names (summaryModel.ts: `summary:…,model=X`'s X, as replay answers it) unless the session's
   * ordinary requests name it too (a client that names one model for every call), else the session's:
   * refused as a provider refuses any request (kernel/providerWindow.ts), its prompt + the cap past that
   * model's window a 400 `context_length_exceeded`, counted as the loop counts a refused summary call
   * (paid nothing); else billed at that model's prices as replay bills a summary call (meterSummary).
   */
  summaryAnswer(request: ChatRequest): Reply {
    const view = this.promptOf(request);
    const promptTokens = this.summaryPromptTokens(view);
    const cap = outputCapOf(request);
    const pricing = request.model === this.askedAs ? this.setup.pricing : summaryPricing(this.setup.pricing, this.setup.pricingOf(request.model));
    const refusal = windowRefusal(pricing.contextWindow, promptTokens, cap);
    if (refusal) throw this.refused(refusedSummaryRecord(refusal), view, refusal);
    const on = pricing === this.setup.pricing ? undefined : { model: request.model };
    const metered = this.meterSummary(pricing, { view, promptTokens }, cap ?? 0);
    return this.respond({ type: 'call', outputTokens: cap ?? 0, compaction: true }, view, { what: 'context summary', metered, ...(on ? { on, pricing } : {}) });
  }

  /**
   * A summary call's prompt in tokens, sent with the prompt `view` (promptOf): a recording's as the loop
   * estimates it (LoopSession.nextPromptEstimate, what replay bills: the tracked context plus the overhead
   * the last call showed — a recording's own prompt sizes); a synthetic session's, the messages it carries.
   */
  private summaryPromptTokens(view: PromptView): number {
    return this.kind === 'recorded' ? this.loop.nextPromptEstimate() : view.inputTokens;
  }

  /**
   * Meters `answer` sent with the prompt `view` — cut at the request's output cap as a provider cuts it
   * (`cutBefore`: already cut by the synthetic agent's provider, SyntheticAgent.next) — advances the
   * loop's state as a real loop would, and builds the reply.
   */
  protected respond(answer: CallRecord, view: PromptView, how: Answering): Reply {
    const record = cutAtCap(answer, how.outputCap);
    const loop = this.loop;
    const metered: MeteredCall = how.metered ?? loop.meter(record, view);
    // Paid, then its tool calls the run reached played as replay plays them (loop/run.ts playCall's playTools): none
    // the live run never reached (`unreached`). The session has no brakes: a stop (a final answer's) changes nothing.
    if (!inSessionSource(this.setup.source, () => loop.recordResponse(record, metered, view))) playTools(loop, record);
    this.lastAnswerSentBack = runsTools(record);
    const call = loop.state.calls;
    const reply: Reply = {
      session: this.setup.id,
      call,
      model: how.on?.model ?? this.setup.model,
      content: placeholderText(record, how.what),
      toolCalls: replyToolCalls(record, `${this.setup.id}_${call}`),
      record,
      usage: servedUsage(metered.usage, record),
      costPico: metered.costPico,
      pricedAs: pricedAsOf(how.pricing ?? this.setup.pricing),
      ...(record === answer && !how.cutBefore ? {} : { cut: true }),
    };
    if (record.failed) throw failedCall(reply, record.failed);
    return reply;
  }

  /**
   * A summary call of `summaryTokens` out and `prompt.promptTokens` in (summaryPromptTokens), sent with the prompt
   * `prompt.view`, at `pricing` (the session's model's or the summary model's), by replay's rule for it (kernel
   * meterSummaryCall: under `recorded` the cache serves the view's unchanged prefix as under `on`; another
   * model's cache holds none of it, summaryCachedPrefixTokens). (flattenPrices gives the loop's own object for the session's pricing.)
   */
  private meterSummary(pricing: ModelPricing, prompt: { view: PromptView; promptTokens: number }, summaryTokens: number): MeteredCall {
    return estimatedSummaryCall(new Float64Array(Metered.Size), {
      prices: flattenPrices(pricing),
      runPrices: flattenPrices(this.setup.pricing),
      cacheMode: cacheModeCode(this.setup.cache),
      promptTokens: prompt.promptTokens,
      view: prompt.view,
      summaryTokens,
    });
  }

  /**
   * The provider's refusal of `record`'s request, sent with the prompt `view` (a synthetic agent's: SyntheticAgent.next):
   * the call counted as the loop counts one (LoopSession.providerRefused: no step, paid nothing) and answered as
   * OpenAI answers it (sessionSummary.ts refusalError), the stop the loop that sent it ends with in
   * `error.loopcost` and in the session's summary (`stop`).
   */
  protected refused(record: CallRecord, view: PromptView, refusal: WindowRefusal): ApiError {
    const stop = this.loop.providerRefused(record, view, refusal);
    this.refusedStop = stop;
    return refusalError(refusal, stop);
  }
}

/**
 * `work`; the engine's refusal that knows no file (a run's spend past exact picodollars: every later call
 * of the session is refused the same way) names the session's trace or `scenario#run`, as replay does.
 */
function inSessionSource<T>(source: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw placeIssues(error, (issue) => ({ ...issue, file: source }));
  }
}

/**
 * A call that failed at the provider when recorded (or a synthetic provider error): answered with its
 * status, billed as recorded. The billed usage goes in `error.loopcost` too (OpenAI's SDKs keep only
 * the `error` object of an error body), where the real loop's adapter reads it.
 */
function failedCall(reply: Reply, failed: NonNullable<CallRecord['failed']>): ApiError {
  const status = failed.status !== undefined && failed.status >= 400 && failed.status <= 599 ? failed.status : 500;
  const type = status === 429 ? 'rate_limit_error' : status >= 500 ? 'server_error' : 'invalid_request_error';
  const billed = billedOf(reply);
  // Its recorded time too, which a client's clock reads there (agent/servedClock.ts): the SDKs keep `error` alone.
  const latency = reply.record.latencyMs === undefined ? {} : { latencyMs: reply.record.latencyMs };
  return new ApiError(status, `recorded provider failure (call ${reply.call}): ${failed.message}`, type, null, RECORDED_FAILURE, { ...billed, record: reply.record }, { ...billed, ...latency });
}

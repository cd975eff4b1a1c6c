/**
 * Which session a request belongs to, and which trace or synthetic run answers a new one.
 *
 * A session is named by the `x-loopcost-session` header; without it, a request continues the
 * conversation its messages show it belongs to, or starts a new one (the rule: conversations.ts).
 *
 * A new session takes the next source: traces in the order given (after the last, the first again), or
 * the scenario's runs 1, 2, 3, ... `x-loopcost-trace` (0-based index or the trace's source) or
 * `x-loopcost-run` (1-based run) chooses instead. A run that cannot start (a draw too large) is answered
 * with its error and still takes its turn: the next new session takes the run after it.
 *
 * A session that ends (a recording after its last call — one that was no final answer or failed call, at
 * the request after it or after a summary call, as the loop may still compact first: recorded.ts — a
 * synthetic agent after its final answer or the failure that ended it) is retired at once (retired.ts): its
 * totals kept, exact, its engine and matching state dropped; an opening with none in progress keeps its
 * latest started alone. A session still in progress (its run stopped by its own brakes) is retired so when
 * its client ends it (`end`) or no request has come for `sessionIdleMs` (checked on every request and
 * report, by the injected clock: no timer). `maxSessions` bounds the sessions in progress: one more is a
 * 503 — unless a recording given whole (its last call, no final answer, answered: in progress only for a
 * summary call) holds a place: it ends as the request past its end would end it (a client its own brakes
 * stopped there sends none), and the new session takes its place.
 */
import { defaultCacheMode } from '../replay/replay.js';
import { tracePricing } from '../replay/tracePricing.js';
import { prepareScenario, syntheticStart, type PreparedScenario, type SyntheticStart } from '../scenario/run.js';
import { atDrawPlace } from '../scenario/drawPlace.js';
import type { Scenario } from '../scenario/load.js';
import type { ScenarioSettings } from '../scenario/settings.js';
import type { PriceTable } from '../pricing/types.js';
import type { CacheMode } from '../context/strategy.js';
import type { Trace } from '../trace/types.js';
import { invalidRequest, tooManySessions } from './apiError.js';
import { Opening, openingHash, type Conversation } from './conversations.js';
import { Endings, type Matched } from './endings.js';
import { RecordedSession } from './recorded.js';
import type { Reply } from './reply.js';
import type { ChatRequest } from './request.js';
import type { HeldSession, ServeSession } from './session.js';
import type { SessionSummary } from './sessionSummary.js';
import { SyntheticSession } from './synthetic.js';
import { BY_CLIENT, RetiredSession, type Retirement } from './retired.js';
import { SummaryModels } from './summaryModel.js';
import { header, RUN_HEADER, sessionIdOf, TRACE_HEADER, type RequestHeaders } from './headers.js';

export { SESSION_HEADER, TRACE_HEADER, RUN_HEADER, type RequestHeaders } from './headers.js';

/** What the server answers from: recorded traces, or one scenario's synthetic population. */
export interface ServeSources {
  traces?: readonly Trace[];
  scenario?: { scenario: Scenario; settings?: Pick<ScenarioSettings, 'seed' | 'strategy'> };
}

export interface RegistryOptions {
  sources: ServeSources;
  prices: PriceTable;
  /** Cache mode for recorded traces (default: each trace's own, as replay chooses it). */
  cache?: CacheMode;
  /** Most sessions in progress at once (`--max-sessions`): a request that would start one more is answered 503. Default: no limit. */
  maxSessions?: number;
  /** A session in progress with no request for this long is retired, its totals kept (`--session-idle-seconds`). Default: never. */
  sessionIdleMs?: number;
  /** The clock idle time is read from, in milliseconds (default: performance.now, monotonic). */
  nowMs?: () => number;
}

/** A session in progress: its place in the list of every session, and (started without the header) its conversation. */
interface Live {
  at: number;
  /** When its last request came (nowMs). */
  lastRequestMs: number;
  matched?: { opening: Opening; conversation: Conversation };
}

export class SessionRegistry {
  private readonly byName = new Map<string, HeldSession>();
  /** Sessions started without the header, by their conversation's opening (openingHash), while one is in progress. */
  private readonly byOpening = new Map<string, Opening>();
  /** An opening with no conversation in progress: the latest started, all its Opening keeps then. */
  private readonly idleOpenings = new Map<string, Matched>();
  /** Ended conversations, found by their opening and last two answers. */
  private readonly endings = new Endings();
  /** Sessions in progress, least recently asked first (a request moves its session to the end). */
  private readonly live = new Map<ServeSession, Live>();
  /** Sessions in progress given whole (ServeSession.givenWhole), in the order they were: the first gives its place to a new session past maxSessions. */
  private readonly givenWhole = new Set<ServeSession>();
  /** Every session started, in order: in progress, or retired once ended. */
  private readonly all: HeldSession[] = [];
  private readonly prepared;
  private readonly traces: readonly Trace[];
  /** Runs whose start failed: each took its turn as a started session does. */
  private failedStarts = 0;
  private readonly nowMs: () => number;
  /** The models summary requests name (summaryModel.ts). */
  private readonly summaryModels: SummaryModels;

  constructor(private readonly options: RegistryOptions) {
    this.traces = options.sources.traces ?? [];
    this.nowMs = options.nowMs ?? (() => performance.now());
    this.summaryModels = new SummaryModels(options.prices);
    const scenario = options.sources.scenario;
    this.prepared = scenario
      ? prepareScenario(scenario.scenario, {
          prices: options.prices,
          served: true,
          ...(scenario.settings === undefined ? {} : { seed: scenario.settings.seed, strategy: scenario.settings.strategy }),
        })
      : undefined;
    if (this.traces.length === 0 && !this.prepared) throw new Error('startServer: sources needs traces or a scenario');
    for (const trace of this.traces) tracePricing(trace, { prices: options.prices }); // unknown models fail here, before the server listens
  }

  /** Model names clients may ask for (the server answers whatever model a request names). */
  models(): string[] {
    const names = new Set(this.traces.map((trace) => trace.header.model));
    if (this.prepared) names.add(this.prepared.scenario.model);
    return [...names].sort();
  }

  summaries(): SessionSummary[] {
    this.retireIdle();
    return this.all.map((session) => session.summary());
  }

  /** The session `request` belongs to, started if new. */
  sessionFor(headers: RequestHeaders, request: ChatRequest): HeldSession {
    this.retireIdle();
    const named = sessionIdOf(headers);
    if (named === undefined) return this.conversationFor(headers, request);
    const existing = this.byName.get(named);
    if (existing) return existing.sameRun(request);
    const session = this.begin(named, headers);
    this.byName.set(named, session);
    return session;
  }

  /** The session's answer to `request` (its summary call's, for a summary), noted for matching the requests that follow. */
  answer(session: HeldSession, request: ChatRequest, purpose?: 'summary'): Reply {
    const live = this.live.get(session as ServeSession);
    if (live) this.touch(session as ServeSession, live);
    const matched = live?.matched;
    matched?.opening.noteRequest(matched.conversation, request);
    try {
      const reply = purpose === 'summary' ? session.summaryAnswer(request) : session.answer(request);
      matched?.opening.noteAnswer(matched.conversation, reply, purpose === 'summary');
      return reply;
    } finally {
      if (live && session.ended()) this.retire(session as ServeSession, live);
      else if (live && (session as ServeSession).givenWhole()) this.givenWhole.add(session as ServeSession);
    }
  }

  /** Sessions in progress (ended ones are retired: their totals alone are kept). */
  get inProgress(): number {
    return this.live.size;
  }

  /** How many entries each table holds (tests of the memory kept per ended session). */
  tableSizes(): { sessions: number; inProgress: number; named: number; openingsInProgress: number; idleOpenings: number; endings: number } {
    const { all, live, byName, byOpening, idleOpenings, endings } = this;
    return { sessions: all.length, inProgress: live.size, named: byName.size, openingsInProgress: byOpening.size, idleOpenings: idleOpenings.size, endings: endings.size };
  }

  /**
   * The session named `id` (the `x-loopcost-session` header's, or a `conversation-N` the response header
   * gave) ended by its client: retired at once if in progress, its totals kept; undefined if there is none.
   */
  end(id: string): SessionSummary | undefined {
    this.retireIdle();
    const session = this.byName.get(id) ?? this.conversationNamed(id);
    if (!session) return undefined;
    const live = this.live.get(session as ServeSession);
    if (!live) return session.summary();
    this.retire(session as ServeSession, live, BY_CLIENT);
    return this.all[live.at]!.summary();
  }

  /** Sessions in progress whose last request is `sessionIdleMs` old or older: retired, least recently asked first. */
  private retireIdle(): void {
    const idleMs = this.options.sessionIdleMs;
    if (idleMs === undefined) return;
    const now = this.nowMs();
    const idle: Retirement = { by: 'idle', idleSeconds: idleMs / 1000 };
    for (const [session, live] of this.live) {
      if (now - live.lastRequestMs < idleMs) return;
      this.retire(session, live, idle);
    }
  }

  /** A request for `session`: its idle time starts again, and it moves to the end of the order. */
  private touch(session: ServeSession, live: Live): void {
    live.lastRequestMs = this.nowMs();
    this.live.delete(session);
    this.live.set(session, live);
  }

  /** A session started without the header, by the id the server gave it. */
  private conversationNamed(id: string): HeldSession | undefined {
    const n = /^conversation-(\d+)$/.exec(id)?.[1];
    const session = n === undefined ? undefined : this.all[Number(n) - 1];
    return session?.id === id ? session : undefined;
  }

  /**
   * An ended session (or, `early`, one retired in progress): its totals and ending kept in its place, all
   * else dropped. A session given whole (its recording's last call answered, waiting only for a summary
   * call) had finished its run: retired by its client or idle time, it ends as the request past its end
   * would end it (no `endedBy`, the 409 of its recording's end), as when a new session takes its place.
   */
  private retire(session: ServeSession, live: Live, early?: Retirement): void {
    if (early !== undefined && session.givenWhole()) session.endGivenWhole();
    const retired = new RetiredSession(session, session.ended() ? undefined : early);
    this.all[live.at] = retired;
    this.live.delete(session);
    this.givenWhole.delete(session);
    if (this.byName.get(session.id) === session) this.byName.set(session.id, retired);
    const matched = live.matched;
    if (!matched) return;
    const { opening } = matched;
    opening.retire(matched.conversation, retired);
    if (opening.conversations.length > 0) return;
    // Its last conversation ended: what finds them is in `endings`, but the latest started (Opening's constructor).
    this.byOpening.delete(opening.hash);
    this.idleOpenings.set(opening.hash, opening.latest!);
  }

  /** Without the header: the conversation `request` continues (conversations.ts), else a new one. */
  private conversationFor(headers: RequestHeaders, request: ChatRequest): HeldSession {
    const hash = openingHash(request);
    const opening = this.byOpening.get(hash) ?? new Opening(hash, this.endings, this.idleOpenings.get(hash));
    const continued = opening.continued(request);
    if (continued) return continued.session;
    const session = this.begin(`conversation-${this.all.length + 1}`, headers);
    this.byOpening.set(hash, opening);
    this.idleOpenings.delete(hash);
    this.live.get(session)!.matched = { opening, conversation: opening.start(session) };
    return session;
  }

  private begin(id: string, headers: RequestHeaders): ServeSession {
    const max = this.options.maxSessions;
    if (max !== undefined && this.live.size >= max && !this.endFirstGivenWhole()) throw tooManySessions(max);
    const session = this.start(id, headers);
    this.live.set(session, { at: this.all.length, lastRequestMs: this.nowMs() });
    this.all.push(session);
    return session;
  }

  /** The first session given whole, if any, ends (as the request past its end would end it) and is retired: its place is free. False if none. */
  private endFirstGivenWhole(): boolean {
    const [session] = this.givenWhole;
    if (!session) return false;
    session.endGivenWhole();
    this.retire(session, this.live.get(session)!);
    return true;
  }

  private start(id: string, headers: RequestHeaders): ServeSession {
    const ordinal = this.all.length + this.failedStarts;
    if (this.prepared) return this.startSynthetic(id, this.runOf(headers, ordinal));
    const trace = this.traceOf(headers, ordinal);
    const pricing = tracePricing(trace, { prices: this.options.prices });
    const cache = this.options.cache ?? defaultCacheMode(trace);
    const pricingOf = this.summaryModels.pricingOf(trace.header.recordedAt);
    const setup = { id, source: trace.source, model: trace.header.model, pricing, cache, systemTokens: trace.header.systemTokens, goalTokens: trace.header.goalTokens, pricingOf };
    return new RecordedSession(setup, trace);
  }

  private startSynthetic(id: string, run: number): ServeSession {
    const p = this.prepared!;
    const start = this.startOfRun(p, run);
    const setup = { id, source: `${p.scenario.source}#${run + 1}`, model: p.scenario.model, pricing: p.pricing, cache: start.cache, systemTokens: start.systemTokens, goalTokens: start.goalTokens, pricingOf: this.summaryModels.pricingOf(undefined) };
    return new SyntheticSession(setup, { agent: start.agent, drawPlace: (draw) => atDrawPlace(p.scenario, start.entry, run, p.seed, draw), hardCapSteps: p.hardCapSteps });
  }

  /** Run `run`'s start; one that fails (a draw too large) still takes its turn. */
  private startOfRun(p: PreparedScenario, run: number): SyntheticStart {
    try {
      return syntheticStart(p, run);
    } catch (error) {
      this.failedStarts += 1;
      throw error;
    }
  }

  private traceOf(headers: RequestHeaders, ordinal: number): Trace {
    const chosen = header(headers, TRACE_HEADER);
    if (chosen === undefined) return this.traces[ordinal % this.traces.length]!;
    const byIndex = /^\d+$/.test(chosen) ? this.traces[Number(chosen)] : undefined;
    const trace = byIndex ?? this.traces.find((t) => t.source === chosen);
    if (!trace) throw invalidRequest(`${TRACE_HEADER}: no trace '${chosen}' (give a 0-based index below ${this.traces.length} or a trace's source)`, TRACE_HEADER, 'unknown_trace');
    return trace;
  }

  private runOf(headers: RequestHeaders, ordinal: number): number {
    const chosen = header(headers, RUN_HEADER);
    if (chosen === undefined) return ordinal;
    if (!/^\d+$/.test(chosen) || Number(chosen) < 1 || !Number.isSafeInteger(Number(chosen))) throw invalidRequest(`${RUN_HEADER}: '${chosen}' is not a run number (1, 2, ...)`, RUN_HEADER, 'invalid_run');
    return Number(chosen) - 1;
  }
}

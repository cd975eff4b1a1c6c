/**
 * One session tree's replay as it goes (engine.ts replaySessionTree drives it call by call, in the
 * schedule's order): each agent's state, its runs' LoopSessions made as their first call comes, the
 * tree's check before every call, and the stops that end agents and the sub-agents they started. The
 * rules are engine.ts's (its header); each step here is one of them, in the order it takes them.
 */
import type { BrakeConfig } from '../brakes/config.js';
import { Interner } from '../brakes/fingerprint.js';
import type { Stop } from '../brakes/stopReasons.js';
import type { ContextStrategy } from '../context/strategy.js';
import { LoopSession } from '../loop/session.js';
import { beforeCall, playCall } from '../loop/run.js';
import { ReplaySource } from '../loop/replaySource.js';
import { sessionSetupOf } from '../loop/sourceFacts.js';
import type { RunOutcome, StepSource } from '../loop/types.js';
import { recordedStrategyOf } from '../replay/recordedStrategy.js';
import { inRunContext } from '../replay/runContext.js';
import type { CallRecord } from '../trace/types.js';
import type { SessionTree } from './group.js';
import type { ScheduledCall } from './schedule.js';
import { AgentBudget, runBrakes, TreeBudget } from './budget.js';
import { treeCalls } from './waitedTime.js';
import { agentStop, type AgentStop } from './result.js';
import type { TreeEngineOptions } from './engine.js';

export interface AgentState {
  sessions: (LoopSession | undefined)[];
  /** Per run: its calls as replays play them (trace/replayedCalls.ts), each tool call's time its own beyond the sub-agents it ran (waitedTime.ts). */
  calls: (readonly CallRecord[])[];
  /**
   * Per run, made with its session: its recording's source — a lone replay's ReplaySource of `calls`, played at each call the
   * schedule plays; a run replayed as it ran, the lone replay's (its compaction calls the strategy's summary calls: ReplaySource.given
   * says how many of its calls it has given, its summary calls among them).
   */
  sources: (ReplaySource | undefined)[];
  /**
   * Per run: the strategy its loop ran under when it is replayed as it ran (a live recording that states its strategy, header `context`,
   * under full context or that same strategy: replay/recordedStrategy.ts recordedStrategyOf), as a lone recording replays: its session runs under that strategy,
   * each call billed as recorded (usage as sent), its compaction calls made when the strategy makes one due, before the call after them.
   * The tree schedules every recorded call, the compaction calls among them; a scheduled call the source has already given (the call
   * after a summary call, made with it) is not made again. Else undefined.
   */
  ranUnder: (ContextStrategy | undefined)[];
  outcomes: (RunOutcome | undefined)[];
  /** Its totals under the tree's budget, and the tree's check before its calls. */
  budget: AgentBudget;
  stop?: AgentStop;
  /** The run whose calls are being made. */
  current: number;
}

/** An agent's stop, in the order they came (a sub-agent's stop by its parent is not one). */
export interface TreeStop {
  agent: number;
  stop: AgentStop;
}

/** Each agent's state before its first call: no session yet, its runs' calls as replays play them (as their loops ran them where they state a strategy), its budget. */
function agentStates(tree: SessionTree, budget: TreeBudget, strategy: TreeEngineOptions['strategy']): AgentState[] {
  const calls = treeCalls(tree);
  return tree.agents.map((agent, a) => ({
    sessions: agent.runs.map(() => undefined),
    calls: calls[a]!,
    sources: agent.runs.map(() => undefined),
    ranUnder: agent.runs.map((run) => recordedStrategyOf(run, strategy)),
    outcomes: agent.runs.map(() => undefined),
    budget: new AgentBudget(budget, agent.kind === 'subagent'),
    current: 0,
  }));
}

export class TreeReplay {
  readonly budget: TreeBudget;
  readonly states: AgentState[];
  readonly stops: TreeStop[] = [];
  private readonly perRun: BrakeConfig;
  private readonly interner: Interner;
  /** Each agent's sub-agents (indices). */
  private readonly children: number[][];
  /**
   * After its last call a run's next step finds no call (what a lone replay does when its source runs
   * out) — once the sub-agents that call started have made their calls: the step is checked against them.
   */
  private readonly ranOut: { a: number; r: number }[] = [];
  /** Each agent's parent's index (−1: none among the agents), resolved once. */
  private readonly parentOf: number[];

  constructor(
    private readonly tree: SessionTree,
    private readonly options: TreeEngineOptions,
  ) {
    this.budget = new TreeBudget(options.brakes, options.subagent, { sessionId: tree.sessionId });
    this.perRun = this.budget.perRun;
    this.interner = new Interner();
    this.states = agentStates(tree, this.budget, options.strategy);
    this.children = tree.agents.map((_, i) => tree.agents.map((agent, j) => (agent.parentAgentId === tree.agents[i]!.agentId && j !== i ? j : -1)).filter((j) => j >= 0));
    this.parentOf = tree.agents.map(({ parentAgentId: parent }) => (parent === undefined ? -1 : tree.agents.findIndex((agent) => agent.agentId === parent)));
  }

  /** One scheduled call: the runs that ran out before it first, then the call unless its agent stopped or its run ended. */
  play({ agent: a, run: r, call: c }: ScheduledCall): void {
    this.flushRanOut(a);
    const state = this.states[a]!;
    if (state.stop !== undefined) return;
    const run = this.tree.agents[a]!.runs[r]!;
    state.current = r;
    const session = this.sessionOf(a, r);
    if (state.outcomes[r] !== undefined) return; // the run already ended (completed on an earlier call)
    // A run replayed as it ran made this call already (the call after a summary call, made with it): nothing to make now.
    const made = state.ranUnder[r] !== undefined && state.sources[r]!.given() > c;
    const stop = made ? null : this.step(a, r, session, this.sourceAt(a, r, c));
    if (stop === null && c === run.calls.length - 1) this.ranOut.push({ a, r });
    this.ended(a, r, stop);
  }

  /** The runs that ran out take their step past their last call, latest first; with `before`, only those `before` is not a sub-agent (transitively) of. */
  flushRanOut(before?: number): void {
    while (this.ranOut.length > 0 && (before === undefined || !this.within(before, this.ranOut.at(-1)!.a))) {
      const { a, r } = this.ranOut.pop()!;
      const state = this.states[a]!;
      const run = this.tree.agents[a]!.runs[r]!;
      if (state.stop === undefined && state.outcomes[r] === undefined) this.ended(a, r, this.step(a, r, state.sessions[r]!, this.sourceAt(a, r, run.calls.length)));
    }
  }

  /**
   * Agent `a`'s run `r`'s source at call `call`, the next the run makes (past its last: none left; kernel/gaveUp.ts
   * for a run that asked for no other) — a run replayed as it ran: its source where it is (its summary calls among its calls).
   */
  private sourceAt(a: number, r: number, call: number): ReplaySource {
    const state = this.states[a]!;
    const source = state.sources[r]!;
    return state.ranUnder[r] === undefined ? source.at(call) : source;
  }

  /** Agent `a`'s run `r`'s session and source, made on first use (a later part goes on with the agent's conversation). */
  private sessionOf(a: number, r: number): LoopSession {
    const state = this.states[a]!;
    let session = state.sessions[r];
    if (session === undefined) {
      const run = this.tree.agents[a]!.runs[r]!;
      const options = this.options;
      // A run replayed as it ran: under the strategy its loop ran under, each call billed as recorded (replay/recordedStrategy.ts replayAsRan), its source the lone replay's.
      const ranUnder = state.ranUnder[r];
      const source = (state.sources[r] = new ReplaySource(run, ranUnder === undefined ? { calls: state.calls[r]! } : { summariesRecorded: true }));
      // Its prices and its summary calls' as a lone replay's (their provider’s cache rule taken where the kernel flattens them: kernel/prices.ts).
      const summaryPricing = options.summaryPricingOf?.(run);
      session = new LoopSession(
        {
          brakes: options.runBrakesOf === undefined ? this.perRun : runBrakes(options.runBrakesOf(run)),
          strategy: ranUnder ?? options.strategy,
          cache: options.cacheOf(run),
          pricing: options.pricingOf(run),
          ...(summaryPricing === undefined ? {} : { summaryPricing }),
          systemTokens: run.header.systemTokens,
          goalTokens: run.header.goalTokens,
          ...(options.latency === undefined ? {} : { latency: options.latency }),
          ...(ranUnder === undefined ? {} : { usageAsSent: true }),
        },
        { interner: this.interner, ...sessionSetupOf(source) },
      );
      // A later part goes on with the agent's conversation: its first prompt is estimated from it.
      const previous = r > 0 ? state.sessions[r - 1] : undefined;
      if (previous !== undefined) session.continueConversation(previous);
      state.sessions[r] = session;
    }
    return session;
  }

  private finishRun(a: number, r: number, stop: Stop): void {
    const state = this.states[a]!;
    const session = state.sessions[r];
    if (session !== undefined && state.outcomes[r] === undefined) state.outcomes[r] = session.finish(stop);
  }

  /** Stops agent `a` (and, transitively, the sub-agents it started that are still going). */
  private stopAgent(a: number, stop: AgentStop): void {
    const state = this.states[a]!;
    if (state.stop !== undefined) return;
    state.stop = stop;
    this.finishRun(a, state.current, stop);
    if (stop.by !== 'parent') this.stops.push({ agent: a, stop });
    const cut: AgentStop = { reason: stop.reason, detail: `${this.tree.agents[a]!.agentId} stopped (${stop.reason})`, by: 'parent' };
    for (const child of this.children[a]!) if (!this.finishedAll(child)) this.stopAgent(child, cut);
  }

  private finishedAll(a: number): boolean {
    const state = this.states[a]!;
    return state.outcomes[state.outcomes.length - 1] !== undefined;
  }

  /**
   * One step of agent `a`'s run `r` on `session` as `source` answers it, the tree's check first; what it
   * spent then joins the totals. A refusal that knows no run (a run past exact picodollars) names this run
   * and its agent, as a lone replay names its run (replay/runContext.ts).
   */
  private step(a: number, r: number, session: LoopSession, source: StepSource): AgentStop | null {
    try {
      const agentBudget = this.states[a]!.budget;
      const next = beforeCall(session, source, agentBudget);
      const ended = next.stop ?? playCall(session, next.response, next.view);
      agentBudget.sync(session);
      return ended && agentStop(ended);
    } catch (error) {
      // (A run that names no agent of its own is a tree of one: its run alone names it.)
      const run = this.tree.agents[a]!.runs[r]!;
      return inRunContext(
        run,
        () => {
          throw error;
        },
        run.header.agent?.agentId,
      );
    }
  }

  /** A step's stop: a brake's (or a parent's) stops the agent, the run's own end finishes the run. */
  private ended(a: number, r: number, stop: AgentStop | null): void {
    if (stop?.by !== undefined) this.stopAgent(a, stop);
    else if (stop) this.finishRun(a, r, stop);
  }

  /** Agent `a` is a sub-agent (at any depth) of `ancestor`. */
  private within(a: number, ancestor: number): boolean {
    const parentOf = this.parentOf;
    for (let at = parentOf[a]!, hops = 0; at >= 0 && hops <= this.tree.agents.length; at = parentOf[at]!, hops++) if (at === ancestor) return true;
    return false;
  }
}

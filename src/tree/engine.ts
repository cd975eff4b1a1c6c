/**
 * Replays one session tree as one loop: every agent's calls in the order they happened (schedule.ts),
 * each run (an agent's part) on its own LoopSession (context, meter, repeat / same-error / backtrack
 * brakes), and before every call — in run.ts's beforeCall, after the strategy's summary call when due, as
 * a lone run — the kernel's one before-call check (`beforeCallStop`) three times:
 *
 *   1. on the TREE's totals with the tree's brakes (steps, time, spend, tokens of all agents so far);
 *   2. for a sub-agent, on the AGENT's totals (all its parts) with the per-agent limits;
 *   3. the run's own check (LoopSession.checkBeforeCall: the context window), as a lone run replays.
 *
 * The first that fires stops the agent. A run that asked for no call after its last recorded one (a live
 * recording whose model gave up there, or that was aborted: kernel/gaveUp.ts) ends there before them all,
 * as a lone replay ends it. The rule when an agent stops (by a brake, at its own call):
 * - its remaining calls and parts are not made, nor are those of the sub-agents it started;
 * - a sub-agent's stop ends the parent's tool call that started it (its Task call) with that stop reason —
 *   unless it ran in the background (AgentRef.background: that call had returned at launch), when it ends
 *   no call; either way the parent goes on: its next call is checked like any other against the tree's
 *   totals, and the background sub-agent's calls count toward them as they were scheduled. Spend, steps,
 *   time and tokens never go down, so after a tree brake stopped a sub-agent the parent's next call is
 *   refused too (the tree stops) — except under `budget-mode=predict`, where a smaller call may still fit;
 * - the main agent's stop ends the tree.
 * Compaction calls are the main agent's (the importer merged them in): paid, counted in spend and tokens,
 * not steps. Tree time is the agents' virtual busy time added up (parallel sub-agents count in full).
 */
import type { BrakeConfig } from '../brakes/config.js';
import { Interner } from '../brakes/fingerprint.js';
import type { Stop, StopReason } from '../brakes/stopReasons.js';
import type { CacheMode, ContextStrategy } from '../context/strategy.js';
import type { LatencyModel } from '../loop/latency.js';
import { LoopSession } from '../loop/session.js';
import { beforeCall, playCall } from '../loop/run.js';
import { endsAfterLastCall, endsBeforeNextCall } from '../kernel/gaveUp.js';
import { cacheWritesOf } from '../kernel/cacheWrites.js';
import type { RunOutcome, StepSource } from '../loop/types.js';
import type { ModelPricing } from '../pricing/types.js';
import { inRunContext } from '../replay/runContext.js';
import { recordedEndDetail } from '../trace/endDetail.js';
import { replayedCalls } from '../trace/replayedCalls.js';
import type { CallRecord, Trace } from '../trace/types.js';
import type { SessionTree } from './group.js';
import { treeSchedule } from './schedule.js';
import { AgentBudget, TreeBudget, type Running, type SubagentLimits } from './budget.js';

export type { SubagentLimits };
import { addTotals, agentRecord, agentStop, emptyTotals, treeStopDetail, type AgentResult, type AgentStop, type TreeResult, type TreeTotals } from './result.js';

export interface TreeEngineOptions {
  /** Bind the tree's totals (steps, spend, time, tokens) and every call (context window, repeat, same error, backtracks). */
  brakes: BrakeConfig;
  subagent?: SubagentLimits;
  strategy: ContextStrategy;
  latency?: LatencyModel;
  /** Each run's prices (resolved by the caller) and cache mode. */
  pricingOf(run: Trace): ModelPricing;
  cacheOf(run: Trace): CacheMode;
  /** Each run's summary calls' prices under `summary:…,model=X`; none: the run's own. */
  summaryPricingOf?(run: Trace): ModelPricing | undefined;
}

interface AgentState {
  sessions: (LoopSession | undefined)[];
  /** Per run: it asked for no call after its last (kernel/gaveUp.ts). */
  endsAfterLast: boolean[];
  /** Per run: its calls as replays play them (trace/replayedCalls.ts). */
  calls: (readonly CallRecord[])[];
  outcomes: (RunOutcome | undefined)[];
  /** Its totals under the tree's budget, and the tree's check before its calls. */
  budget: AgentBudget;
  stop?: AgentStop;
  /** The run whose calls are being made. */
  current: number;
}

function summaryPricingFor(options: TreeEngineOptions, run: Trace): { summaryPricing?: ModelPricing } {
  const summaryPricing = options.summaryPricingOf?.(run);
  return summaryPricing === undefined ? {} : { summaryPricing };
}

/**
 * A run's call `index` as a step source gives it: the recorded call as replays play it (`calls`:
 * replayedCalls of the run), or past the last none (the run ran out) — before the brakes where the
 * recorded run asked for no other (`endsAfterLast`: its model gave up, or it was aborted; kernel/gaveUp.ts),
 * as a lone replay's ReplaySource ends it.
 */
function recordedCall(run: Trace, calls: readonly CallRecord[], index: number, endsAfterLast: boolean): StepSource {
  return {
    next: () => calls[index] ?? null,
    exhaustedReason: () => (run.end.outcome === 'completed' ? 'completed' : 'trace_end'),
    exhaustedDetail: () => recordedEndDetail(run.end),
    endedBeforeNextCall: () => endsBeforeNextCall(index, run.calls.length, endsAfterLast),
  };
}

export function replaySessionTree(tree: SessionTree, options: TreeEngineOptions): TreeResult {
  const budget = new TreeBudget(options.brakes, options.subagent, { sessionId: tree.sessionId });
  const perRun = budget.perRun;
  const interner = new Interner();
  const states: AgentState[] = tree.agents.map((agent) => ({
    sessions: agent.runs.map(() => undefined),
    endsAfterLast: agent.runs.map((run) => endsAfterLastCall(run)),
    calls: agent.runs.map((run) => replayedCalls(run)),
    outcomes: agent.runs.map(() => undefined),
    budget: new AgentBudget(budget, agent.kind === 'subagent'),
    current: 0,
  }));
  const children = tree.agents.map((_, i) => tree.agents.map((agent, j) => (agent.parentAgentId === tree.agents[i]!.agentId && j !== i ? j : -1)).filter((j) => j >= 0));
  const stops: { agent: number; stop: AgentStop }[] = [];

  const sessionOf = (a: number, r: number): LoopSession => {
    const state = states[a]!;
    let session = state.sessions[r];
    if (session === undefined) {
      const run = tree.agents[a]!.runs[r]!;
      session = new LoopSession(
        {
          brakes: perRun,
          strategy: options.strategy,
          cache: options.cacheOf(run),
          pricing: options.pricingOf(run),
          ...summaryPricingFor(options, run),
          systemTokens: run.header.systemTokens,
          goalTokens: run.header.goalTokens,
          ...(options.latency === undefined ? {} : { latency: options.latency }),
        },
        { interner, cacheWrites: cacheWritesOf(run) },
      );
      // A later part goes on with the agent's conversation: its first prompt is estimated from it.
      const previous = r > 0 ? state.sessions[r - 1] : undefined;
      if (previous !== undefined) session.continueConversation(previous);
      state.sessions[r] = session;
    }
    return session;
  };

  const finishRun = (a: number, r: number, stop: Stop): void => {
    const state = states[a]!;
    const session = state.sessions[r];
    if (session !== undefined && state.outcomes[r] === undefined) state.outcomes[r] = session.finish(stop);
  };

  /** Stops agent `a` (and, transitively, the sub-agents it started that are still going). */
  const stopAgent = (a: number, stop: AgentStop): void => {
    const state = states[a]!;
    if (state.stop !== undefined) return;
    state.stop = stop;
    finishRun(a, state.current, stop);
    if (stop.by !== 'parent') stops.push({ agent: a, stop });
    const cut: AgentStop = { reason: stop.reason, detail: `${tree.agents[a]!.agentId} stopped (${stop.reason})`, by: 'parent' };
    for (const child of children[a]!) if (!finishedAll(child)) stopAgent(child, cut);
  };

  const finishedAll = (a: number): boolean => {
    const state = states[a]!;
    return state.outcomes[state.outcomes.length - 1] !== undefined;
  };

  /**
   * One step of agent `a`'s run `r` on `session` as `source` answers it, the tree's check first; what it
   * spent then joins the totals. A refusal that knows no run (a run past exact picodollars) names this run
   * and its agent, as a lone replay names its run (replay/runContext.ts).
   */
  const step = (a: number, r: number, session: LoopSession, source: StepSource): AgentStop | null => {
    try {
      const agentBudget = states[a]!.budget;
      const next = beforeCall(session, source, agentBudget);
      const ended = next.stop ?? playCall(session, next.response, next.view);
      agentBudget.sync(session);
      return ended && agentStop(ended);
    } catch (error) {
      // (A run that names no agent of its own is a tree of one: its run alone names it.)
      const run = tree.agents[a]!.runs[r]!;
      return inRunContext(
        run,
        () => {
          throw error;
        },
        run.header.agent?.agentId,
      );
    }
  };

  const ended = (a: number, r: number, stop: AgentStop | null): void => {
    if (stop?.by !== undefined) stopAgent(a, stop);
    else if (stop) finishRun(a, r, stop);
  };
  // After its last call a run's next step finds no call (what a lone replay does when its source runs
  // out) — once the sub-agents that call started have made their calls: the step is checked against them.
  const ranOut: { a: number; r: number }[] = [];
  // Each agent's parent's index (−1: none among the agents), resolved once.
  const parentOf = tree.agents.map(({ parentAgentId: parent }) => (parent === undefined ? -1 : tree.agents.findIndex((agent) => agent.agentId === parent)));
  const within = (a: number, ancestor: number): boolean => {
    for (let at = parentOf[a]!, hops = 0; at >= 0 && hops <= tree.agents.length; at = parentOf[at]!, hops++) if (at === ancestor) return true;
    return false;
  };
  const flushRanOut = (before?: number): void => {
    while (ranOut.length > 0 && (before === undefined || !within(before, ranOut.at(-1)!.a))) {
      const { a, r } = ranOut.pop()!;
      const state = states[a]!;
      const run = tree.agents[a]!.runs[r]!;
      if (state.stop === undefined && state.outcomes[r] === undefined) ended(a, r, step(a, r, state.sessions[r]!, recordedCall(run, state.calls[r]!, run.calls.length, state.endsAfterLast[r]!)));
    }
  };

  for (const { agent: a, run: r, call: c } of treeSchedule(tree)) {
    flushRanOut(a);
    const state = states[a]!;
    if (state.stop !== undefined) continue;
    const run = tree.agents[a]!.runs[r]!;
    state.current = r;
    const session = sessionOf(a, r);
    if (state.outcomes[r] !== undefined) continue; // the run already ended (completed on an earlier call)
    const stop = step(a, r, session, recordedCall(run, state.calls[r]!, c, state.endsAfterLast[r]!));
    if (stop === null && c === run.calls.length - 1) ranOut.push({ a, r });
    ended(a, r, stop);
  }
  flushRanOut();
  return treeResultOf(tree, states, { stops, live: budget.totals, pricingOf: options.pricingOf });
}

function treeResultOf(tree: SessionTree, states: AgentState[], ran: { stops: { agent: number; stop: AgentStop }[]; live: Running; pricingOf: TreeEngineOptions['pricingOf'] }): TreeResult {
  const { stops, live } = ran;
  const totals: TreeTotals = emptyTotals();
  const agents: AgentResult[] = tree.agents.map((agent, a) => {
    const state = states[a]!;
    const record = agentRecord(agent, state.outcomes, { stop: state.stop, pricedAs: agent.runs.map((run) => ran.pricingOf(run).model) });
    addTotals(totals, record);
    return record;
  });
  if (totals.costPico !== live.spentPico || totals.steps !== live.steps) throw new Error('tree totals disagree with the running figures');
  const mainIndex = tree.agents.findIndex((agent) => agent.kind === 'main');
  const first = stops[0];
  const rootIndex = mainIndex >= 0 ? mainIndex : first ? first.agent : -1;
  const rootStop = rootIndex >= 0 ? agents[rootIndex]!.stop : undefined;
  const stopReason: StopReason = rootStop?.reason ?? (agents.every((agent) => agent.stop?.reason === 'completed') ? 'completed' : 'trace_end');
  const result: TreeResult = {
    sessionId: tree.sessionId,
    agents,
    totals,
    stopReason,
    stopDetail: rootStop === undefined ? '' : treeStopDetail({ agentId: tree.agents[rootIndex]!.agentId, parts: tree.agents[rootIndex]!.runs.length }, states[rootIndex]!, totals.steps),
    stopped: stops.map(({ agent, stop }) => ({ agentId: tree.agents[agent]!.agentId, ...stop })),
    notes: [...tree.notes],
  };
  return result;
}

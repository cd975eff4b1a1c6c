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
 *   unless it ran in the background (AgentRef.background: that call had returned at launch), or its
 *   `parentToolCallId` is no call of its parent (unlinked: its start is unknown), when it ends no call;
 *   either way the parent goes on: its next call is checked like any other against the tree's totals,
 *   and the background sub-agent's calls count toward them as they were scheduled. Spend, steps,
 *   time and tokens never go down, so after a tree brake stopped a sub-agent the parent's next call is
 *   refused too (the tree stops) — except under `budget-mode=predict`, where a smaller call may still fit;
 * - the main agent's stop ends the tree.
 * Compaction calls are the main agent's (the importer merged them in): paid, counted in spend and tokens,
 * not steps. Tree time is the agents' virtual busy time added up (parallel sub-agents count in full).
 * A live recording that states its context strategy (header `context`: a real-loop tree under summary or
 * hybrid), replayed under full context or that same strategy, replays as its loop ran it, as a lone recording does (treeReplay.ts AgentState.ranUnder):
 * its session under that strategy, its compaction calls that strategy's summary calls.
 */
import type { BrakeConfig } from '../brakes/config.js';
import type { StopReason } from '../brakes/stopReasons.js';
import type { CacheMode, ContextStrategy } from '../context/strategy.js';
import type { LatencyModel } from '../loop/latency.js';
import type { ModelPricing } from '../pricing/types.js';
import type { Trace } from '../trace/types.js';
import { unlinkedAgents, type SessionTree } from './group.js';
import { treeSchedule } from './schedule.js';
import type { Running, SubagentLimits } from './budget.js';
import { TreeReplay, type AgentState, type TreeStop } from './treeReplay.js';
import { requireWholeTree, validateEngineOptions } from './treeArguments.js';

export type { SubagentLimits };
import { addTotals, agentRecord, emptyTotals, treeStopDetail, type AgentResult, type TreeResult, type TreeTotals } from './result.js';

export interface TreeEngineOptions {
  /** Bind the tree's totals (steps, spend, time, tokens) and every call (context window, repeat, same error, backtracks). */
  brakes: BrakeConfig;
  subagent?: SubagentLimits;
  strategy: ContextStrategy;
  latency?: LatencyModel;
  /** Each run's prices (resolved by the caller; its provider's cache rule filled in where they lack it, as replayTrace resolves them: treeReplay.ts) and cache mode. */
  pricingOf(run: Trace): ModelPricing;
  cacheOf(run: Trace): CacheMode;
  /**
   * Each run's summary calls' prices under `summary:…,model=X`; none: the run's own. A live recording that states its
   * strategy, replayed under full context or that same strategy, replays under that strategy (treeReplay.ts AgentState.ranUnder): its summary calls' prices are that strategy's.
   */
  summaryPricingOf?(run: Trace): ModelPricing | undefined;
  /**
   * Each run's own brakes, of which its session applies the per-call ones (context window, repeat, same error,
   * backtracks; tree/budget.ts runBrakes): under `--preset recorded`, a sub-agent's as its recording states them
   * (a real loop's SubagentSpec.brakes). None: every run the tree's.
   */
  runBrakesOf?(run: Trace): BrakeConfig;
}

/**
 * The tree replayed call by call in the schedule's order (treeReplay.ts), the runs that ran out last, then
 * its result. Its arguments are checked first (treeArguments.ts: a wrong-typed one, a tree no loop made).
 */
export function replaySessionTree(tree: SessionTree, options: TreeEngineOptions): TreeResult {
  requireWholeTree('replaySessionTree', tree);
  validateEngineOptions('replaySessionTree', options);
  return playSessionTree(tree, options);
}

/** replaySessionTree of a tree and options already checked (treeReplayer's, once for all its replays). */
export function playSessionTree(tree: SessionTree, options: TreeEngineOptions): TreeResult {
  const replay = new TreeReplay(tree, options);
  for (const call of treeSchedule(tree)) replay.play(call);
  replay.flushRanOut();
  return treeResultOf(tree, replay.states, { stops: replay.stops, live: replay.budget.totals, pricingOf: options.pricingOf });
}

function treeResultOf(tree: SessionTree, states: AgentState[], ran: { stops: TreeStop[]; live: Running; pricingOf: TreeEngineOptions['pricingOf'] }): TreeResult {
  const { stops, live } = ran;
  const totals: TreeTotals = emptyTotals();
  const unlinked = new Set(unlinkedAgents(tree));
  const agents: AgentResult[] = tree.agents.map((agent, a) => {
    const state = states[a]!;
    const record = agentRecord(agent, state.outcomes, { stop: state.stop, pricedAs: agent.runs.map((run) => ran.pricingOf(run).model), unlinked: unlinked.has(agent) });
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
    stopDetail: rootStop === undefined ? '' : treeStopDetail(tree.agents[rootIndex]!, states[rootIndex]!, totals.steps),
    ...(rootStop?.byPredictiveBound === true ? { stopByPredictiveBound: true as const } : {}),
    stopped: stops.map(({ agent, stop }) => ({ agentId: tree.agents[agent]!.agentId, ...stop })),
    notes: [...tree.notes],
  };
  return result;
}

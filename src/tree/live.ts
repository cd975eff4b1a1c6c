/**
 * Live session trees: an agent whose step source may start sub-agents from its tool calls, each
 * sub-agent's steps running under the parent's budget. This is the hook for synthetic policies (closed
 * loop: each agent's source sees its own context window) and the shape a real loop's tool registry takes
 * (a tool that runs an agent): `subagentFor(tool)` says which tool call starts which agent.
 *
 * A sub-agent runs inside the parent's tool call (the parent waits for it, as Claude Code's Task call
 * does), every call of every agent checked by the same TreeBudget as a recorded tree's replay. When a
 * brake stops a sub-agent, the parent's tool call ends with the stop as its error
 * (`sub-agent <id> stopped: <reason>`): the parent's same-error brake sees it, its policy goes on, and its
 * next call is checked against the tree's totals like any other (see engine.ts for the same rule).
 * Each start of a sub-agent is an agent of its own, named as runAgentLoop's tree and the replay of its
 * recordings name it (startIds.ts): a second start of `researcher` is `researcher#2` in the results, the
 * stops and that error.
 */
import { Interner } from '../brakes/fingerprint.js';
import { brakeConfig, type BrakeSettings } from '../brakes/config.js';
import type { CacheMode, ContextStrategy } from '../context/strategy.js';
import type { LatencyModel } from '../loop/latency.js';
import { LoopSession } from '../loop/session.js';
import { requireLiveAgent } from '../options/given.js';
import { validateLiveTreeOptions } from '../options/liveTree.js';
import { beforeCall, playCall, type CallHooks } from '../loop/run.js';
import type { RunOutcome, StepSource } from '../loop/types.js';
import type { ModelPricing } from '../pricing/types.js';
import type { ToolCallRecord } from '../trace/types.js';
import { AgentBudget, TreeBudget, type SubagentLimits } from './budget.js';
import { addTotals, agentRecord, agentStop, emptyTotals, treeStopDetail, type AgentResult, type AgentStop, type TreeResult } from './result.js';
import { startId, subagentStopError } from './startIds.js';

/** An agent of a live tree. */
export interface LiveAgent {
  /** Its id; a start of an id the tree already has is reported as `<agentId>#2` (`#3`, …). */
  agentId: string;
  source: StepSource;
  systemTokens: number;
  goalTokens: number;
  /** This agent's model prices; the tree's (`options.pricing`) by default. */
  pricing?: ModelPricing;
  /** The agent a tool call of this agent starts, or undefined for an ordinary tool. Called once per tool call, before it runs. */
  subagentFor?(tool: ToolCallRecord): LiveAgent | undefined;
}

export interface LiveTreeOptions {
  /** The tree's brakes, as the CLI's flags (unset modes as theirs). */
  brakes: BrakeSettings;
  /** Limits of each sub-agent on its own, as runAgentLoop's `subagentLimits`. */
  subagentLimits?: SubagentLimits;
  /** @deprecated the old name of `subagentLimits`; accepted for one release. */
  subagent?: SubagentLimits;
  strategy: ContextStrategy;
  cache: CacheMode;
  pricing: ModelPricing;
  /** The summary calls' prices under `summary:…,model=X` (default: each agent's own). */
  summaryPricing?: ModelPricing;
  latency?: LatencyModel;
  /** The tree's name in results (default: the root agent's id). */
  sessionId?: string;
}

interface Started {
  agent: LiveAgent;
  /** The id the tree gave this start (startIds.ts): `researcher#2` for a second start of `researcher`. */
  agentId: string;
  parent?: { agentId: string; toolCallId: string };
  outcome: RunOutcome;
  stop?: AgentStop;
}

/** Runs the root agent and every sub-agent it (or they) start, under one budget. */
export function runAgentTree(root: LiveAgent, options: LiveTreeOptions): TreeResult {
  requireLiveAgent('runAgentTree', root);
  validateLiveTreeOptions(options);
  const budget = new TreeBudget(brakeConfig(options.brakes), options.subagentLimits ?? options.subagent);
  const interner = new Interner();
  const started: Started[] = [];
  const stopped: TreeResult['stopped'] = [];
  const ids = new Set<string>();

  const runAgent = (agent: LiveAgent, parent?: Started['parent']): Started => {
    const agentId = startId(agent.agentId, ids);
    const record: Started = { agent, agentId, ...(parent ? { parent } : {}), outcome: undefined as unknown as RunOutcome };
    started.push(record);
    const session = new LoopSession(
      {
        brakes: budget.perRun,
        strategy: options.strategy,
        cache: options.cache,
        pricing: agent.pricing ?? options.pricing,
        ...(options.summaryPricing === undefined ? {} : { summaryPricing: options.summaryPricing }),
        systemTokens: agent.systemTokens,
        goalTokens: agent.goalTokens,
        ...(options.latency === undefined ? {} : { latency: options.latency }),
      },
      { interner, cacheWrites: agent.source.cacheWrites },
    );
    const agentBudget = new AgentBudget(budget, parent !== undefined);
    let calls = 0;
    const hooks: CallHooks = {
      // What the agent spent joins the tree's totals before a sub-agent (or any other agent) calls.
      spent: () => agentBudget.sync(session),
      // A sub-agent's tool call runs the sub-agent to its stop; a brake that stopped it is the tool's error.
      toolResult: (tool, i) => {
        const child = agent.subagentFor?.(tool);
        if (!child) return tool;
        const ran = runAgent(child, { agentId, toolCallId: tool.id ?? `${agentId}:${calls}:${i}` });
        return ran.stop?.by !== undefined ? { ...tool, error: subagentStopError(ran.agentId, ran.stop.reason) } : tool;
      },
    };
    const step = (): AgentStop => {
      for (; ; calls++) {
        const next = beforeCall(session, agent.source, agentBudget);
        if (next.stop) return next.stop;
        const ended = playCall(session, next.response, next.view, hooks);
        if (ended) return ended;
      }
    };
    const stop = agentStop(step());
    record.outcome = session.finish(stop);
    if (stop.by !== undefined) {
      record.stop = stop;
      stopped.push({ agentId, ...stop });
    }
    return record;
  };

  runAgent(root);
  const totals = emptyTotals();
  const agents: AgentResult[] = started.map(({ agent, agentId, parent, outcome, stop }) => {
    const result = agentRecord(
      { agentId, kind: parent ? 'subagent' : 'main', ...(parent ? { parentAgentId: parent.agentId, parentToolCallId: parent.toolCallId } : {}), runs: [] },
      [outcome],
      { stop, pricedAs: [(agent.pricing ?? options.pricing).model] },
    );
    result.parts = 1;
    addTotals(totals, result);
    return result;
  });
  const rootStop = agents[0]!.stop!;
  // Told as a recorded tree's is (treeStopDetail): `main: final answer after 3 steps; tree: 9 steps`.
  const stopDetail = treeStopDetail({ agentId: started[0]!.agentId, parts: 1 }, { outcomes: [started[0]!.outcome], stop: rootStop }, totals.steps);
  return { sessionId: options.sessionId ?? root.agentId, agents, totals, stopReason: rootStop.reason, stopDetail, stopped, notes: [] };
}

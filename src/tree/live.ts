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
import { filledBrakeConfig, type BrakeSettings } from '../brakes/config.js';
import type { CacheMode, ContextStrategy } from '../context/strategy.js';
import type { LatencyModel } from '../loop/latency.js';
import { LoopSession } from '../loop/session.js';
import { sessionSetupOf } from '../loop/sourceFacts.js';
import { requireLiveAgent } from '../options/given.js';
import { validateLiveTreeOptions } from '../options/liveTree.js';
import { isObject, optionsFile, OptionIssues, pricingIssue, type Issue } from '../options/rules.js';
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

/** One runAgentTree call: its options, the budget every agent's calls are checked by, and the agents started and stopped so far. */
interface TreeRun {
  options: LiveTreeOptions;
  budget: TreeBudget;
  interner: Interner;
  started: Started[];
  stopped: TreeResult['stopped'];
  /** The agent ids the tree has given (startIds.ts). */
  ids: Set<string>;
}

/** Runs the root agent and every sub-agent it (or they) start, under one budget. */
export function runAgentTree(root: LiveAgent, options: LiveTreeOptions): TreeResult {
  requireLiveAgent('runAgentTree', root);
  validateLiveTreeOptions(options);
  requireAgentPricing(root, { field: 'root.pricing' });
  const budget = new TreeBudget(filledBrakeConfig(options.brakes), options.subagentLimits ?? options.subagent);
  const run: TreeRun = { options, budget, interner: new Interner(), started: [], stopped: [], ids: new Set() };
  runAgent(run, { agent: root });
  return treeResult(run, root);
}

/**
 * An agent's own prices (`LiveAgent.pricing`), by the rule every entry point's are (rules.ts pricingIssue),
 * refused as a UserError before the agent is asked for a step: the root's before any, a sub-agent's when
 * `subagentFor` gives it (`started`: which start it is, said in each issue).
 */
function requireAgentPricing(agent: LiveAgent, at: { field: string; started?: string }): void {
  const issues = new OptionIssues(optionsFile('runAgentTree'));
  const issue: Issue = at.started === undefined ? issues.add : (field, code, message, hint) => issues.add(field, code, `${at.started}: ${message}`, hint);
  pricingIssue(issue, at.field, agent.pricing, false);
  issues.throwIfAny();
}

/**
 * One agent's loop session: the tree's strategy, cache and latency, its own prices (the tree's by default; their
 * provider cache rule taken where the kernel flattens them, kernel/prices.ts, as a tree replay’s are) and prompt.
 */
function agentSession(run: TreeRun, agent: LiveAgent): LoopSession {
  const { options } = run;
  return new LoopSession(
    {
      brakes: run.budget.perRun,
      strategy: options.strategy,
      cache: options.cache,
      pricing: agent.pricing ?? options.pricing,
      ...(options.summaryPricing === undefined ? {} : { summaryPricing: options.summaryPricing }),
      systemTokens: agent.systemTokens,
      goalTokens: agent.goalTokens,
      ...(options.latency === undefined ? {} : { latency: options.latency }),
    },
    { interner: run.interner, ...sessionSetupOf(agent.source) },
  );
}

/** Runs one start of an agent to its stop (its sub-agents inside its tool calls), recorded in the tree's order of starts. */
function runAgent(run: TreeRun, start: { agent: LiveAgent; parent?: Started['parent'] }): Started {
  const { agent, parent } = start;
  const agentId = startId(agent.agentId, run.ids);
  const record: Started = { agent, agentId, ...(parent ? { parent } : {}), outcome: undefined as unknown as RunOutcome };
  run.started.push(record);
  const session = agentSession(run, agent);
  const stop = agentStop(stepAgent(run, { record, session, budget: new AgentBudget(run.budget, parent !== undefined) }));
  record.outcome = session.finish(stop);
  if (stop.by !== undefined) {
    record.stop = stop;
    run.stopped.push({ agentId, ...stop });
  }
  return record;
}

/** The agent's calls, each checked against the tree's totals, until one stops it. */
function stepAgent(run: TreeRun, agent: { record: Started; session: LoopSession; budget: AgentBudget }): AgentStop {
  const { record, session, budget } = agent;
  let calls = 0;
  const hooks: CallHooks = {
    // What the agent spent joins the tree's totals before a sub-agent (or any other agent) calls.
    spent: () => budget.sync(session),
    toolResult: (tool, i) => subagentCall(run, { parent: record, tool, toolCallId: tool.id ?? `${record.agentId}:${calls}:${i}` }),
    skipped: (i) => record.agent.source.toolSkipped?.(i),
  };
  for (; ; calls++) {
    const next = beforeCall(session, record.agent.source, budget);
    if (next.stop) return next.stop;
    const ended = playCall(session, next.response, next.view, hooks);
    if (ended) return ended;
  }
}

/** A tool call of `parent`: a sub-agent's runs the sub-agent to its stop, and a brake that stopped it is the tool's error. */
function subagentCall(run: TreeRun, call: { parent: Started; tool: ToolCallRecord; toolCallId: string }): ToolCallRecord {
  const { parent, tool, toolCallId } = call;
  const child = parent.agent.subagentFor?.(tool);
  if (!child) return tool;
  // Checked as the root is (its shape, then its prices), before it is asked for a step.
  const field = `${parent.agentId}.subagentFor(${tool.name})`;
  const id = isObject(child) && typeof child.agentId === 'string' ? ` ${child.agentId}` : '';
  const started = `sub-agent${id} (started by ${parent.agentId}'s tool call ${toolCallId})`;
  requireLiveAgent('runAgentTree', child, { field, said: started });
  requireAgentPricing(child, { field: `${field}.pricing`, started });
  const ran = runAgent(run, { agent: child, parent: { agentId: parent.agentId, toolCallId } });
  return ran.stop?.by !== undefined ? { ...tool, error: subagentStopError(ran.agentId, ran.stop.reason) } : tool;
}

/** The tree's result: each start an agent of it (its parent and the tool call that started it), the totals, the root's stop. */
function treeResult(run: TreeRun, root: LiveAgent): TreeResult {
  const { options, started, stopped } = run;
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
  const stopDetail = treeStopDetail({ agentId: started[0]!.agentId, runs: [] }, { outcomes: [started[0]!.outcome], stop: rootStop }, totals.steps);
  return { sessionId: options.sessionId ?? root.agentId, agents, totals, stopReason: rootStop.reason, stopDetail, stopped, notes: [] };
}

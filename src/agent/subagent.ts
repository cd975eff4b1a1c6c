/**
 * Sub-agents of the real loop under the parent's budget (issue 16): a tool defined with
 * defineSubagentTool runs a nested agent loop, and every model call of every agent of the tree is
 * checked by one TreeBudget (src/tree/budget.ts, the brake order the tree replay and live.ts apply):
 * `check()` on the tree's and the agent's totals before each call, then the run's own session; what a
 * session spent is `absorb()`ed into both totals before any other agent calls. A sub-agent a brake
 * stops ends the parent's tool call with an error observation naming the stop
 * (`sub-agent <id> stopped: <reason>`), as in live.ts; the parent goes on, checked against the tree.
 */
import type { BrakeConfig } from '../brakes/config.js';
import { isBrakeStop, type Stop } from '../brakes/stopReasons.js';
import type { PromptView } from '../kernel/context.js';
import { brakeLimits, Limit } from '../kernel/limits.js';
import type { SummaryCallSize } from '../kernel/cost.js';
import type { LoopSession, TreeCheck } from '../loop/session.js';
import type { RunOutcome } from '../loop/types.js';
import { AgentBudget, TreeBudget, type Running, type SubagentLimits } from '../tree/budget.js';
import type { StoppedBy } from '../tree/result.js';
import { startId, subagentStopError } from '../tree/startIds.js';
import type { RunTime } from './deadline.js';
import { ToolCallStarts } from './toolCallStarts.js';
import { treeRecording, TreeTimeline, type DatingRecorder, type RecordedMember } from './treeRecording.js';
import type { AgentRunResult, AgentTool, SubagentSpec, ToolContext, ToolSpec, TraceRecorder } from './types.js';

/** One agent of a real-loop tree, as the root's result reports it. */
export interface LiveTreeAgent {
  agentId: string;
  parentAgentId?: string;
  parentToolCallId?: string;
  steps: number;
  costPico: number;
  stop: Stop;
  /** Which check stopped it (absent when it ended by itself). */
  by?: StoppedBy;
}

/** A live tree's totals, named as replayTree's (`costPico`). */
export interface LiveTreeTotals extends Omit<Running, 'spentPico'> {
  costPico: number;
  /** @deprecated the old name of `costPico` (the same figure); kept for one release. */
  spentPico: number;
}

/** The tree a root agent ran: its totals, every agent in the order started, and the ones a brake stopped in the order they stopped (as replayTree lists them). */
export interface LiveTreeReport {
  totals: LiveTreeTotals;
  agents: LiveTreeAgent[];
  stopped: { agentId: string; reason: Stop['reason']; detail: string; by: StoppedBy }[];
}

/** The budget and the record of a real-loop tree. */
export class LiveTree {
  readonly budget: TreeBudget;
  /** Its recordings' session and timeline (treeRecording.ts). */
  readonly timeline = new TreeTimeline();
  private readonly agents: LiveTreeAgent[] = [];
  private readonly stopped: LiveTreeReport['stopped'] = [];
  /** The agent ids given so far: each start of a sub-agent is an agent of its own. */
  private readonly ids = new Set<string>();

  /** The tree's timeout (its brakes bind the totals: a call's deadline reads it, deadline.ts). */
  readonly timeoutMs: number;

  constructor(
    brakes: BrakeConfig,
    readonly subagent?: SubagentLimits,
  ) {
    this.budget = new TreeBudget(brakes, subagent);
    this.timeoutMs = brakeLimits(brakes)[Limit.TimeoutMs]!;
  }

  /**
   * A new agent of the tree, started as `agentId` (by the parent's tool call `parent.toolCallId`, the
   * `callIndex`th of its response): an id the tree already has becomes `<agentId>#2` (`#3`, …; src/tree/startIds.ts).
   */
  member(agentId: string, parent?: { agentId: string; toolCallId: string; callIndex: number }): TreeMember {
    const id = startId(agentId, this.ids);
    if (parent === undefined) return new TreeMember(this, id);
    this.timeline.addStart(parent, id);
    return new TreeMember(this, id, { agentId: parent.agentId, toolCallId: parent.toolCallId });
  }

  /** An agent ended (children end before the parent; reported in the order started, its stop by a brake in the order stopped). */
  ended(agent: LiveTreeAgent, order: number): void {
    this.agents[order] = agent;
    if (agent.by) this.stopped.push({ agentId: agent.agentId, reason: agent.stop.reason, detail: agent.stop.detail, by: agent.by });
  }

  /** Position of a newly started agent. */
  start(): number {
    return this.agents.push(undefined as unknown as LiveTreeAgent) - 1;
  }

  report(): LiveTreeReport {
    const { steps, elapsedMs, spentPico, tokensUsed } = this.budget.totals;
    return { totals: { costPico: spentPico, steps, elapsedMs, tokensUsed, spentPico }, agents: this.agents.filter(Boolean), stopped: [...this.stopped] };
  }
}

/** One agent's place in the tree: its totals, and the tree's checks on its session (the `tree` of its session's checkBeforeCall). */
export class TreeMember implements TreeCheck, RecordedMember {
  private readonly budget: AgentBudget;
  private by: StoppedBy | undefined;
  private readonly order: number;
  private startMs: number | undefined;
  /** The end of the last sub-agent this agent started (inTurn). */
  private turn: Promise<unknown> = Promise.resolve();

  constructor(
    readonly tree: LiveTree,
    readonly agentId: string,
    readonly parent?: { agentId: string; toolCallId: string },
  ) {
    this.order = tree.start();
    this.budget = new AgentBudget(tree.budget, parent !== undefined);
  }

  /** The brakes its session applies itself (the tree's, without those that bind totals). */
  get perRun(): BrakeConfig {
    return this.tree.budget.perRun;
  }

  /** The tree's check before a call (after the session's spend so far is absorbed): null when it may go. */
  check(session: LoopSession, view: PromptView): Stop | null {
    const stop = this.budget.check(session, view);
    if (!stop) {
      this.startMs = this.tree.timeline.nextStartMs(this.tree.budget.totals.elapsedMs);
      return null;
    }
    this.by = stop.by;
    return { reason: stop.reason, detail: stop.detail };
  }

  /** Whether the tree's brakes would let the session's next call through, its cost aside (the summary call's gate). */
  summaryMayRun(session: LoopSession, summary: SummaryCallSize): boolean {
    return this.budget.summaryMayRun(session, summary);
  }

  /** The tree's time so far (every agent's synced spend): a sub-agent's subtree time is what it gains while the sub-agent runs. */
  get treeElapsedMs(): number {
    return this.tree.budget.totals.elapsedMs;
  }

  get timeline(): TreeTimeline {
    return this.tree.timeline;
  }

  get subagentLimits(): SubagentLimits | undefined {
    return this.tree.subagent;
  }

  takeStartMs(): number {
    const start = this.startMs ?? this.tree.timeline.nextStartMs(this.tree.budget.totals.elapsedMs);
    this.startMs = undefined;
    return start;
  }

  /** `inner` (or no recorder), writing this agent's place in the tree into its records (`brakes`: the run's own). */
  recording(inner: DatingRecorder | undefined, brakes: BrakeConfig): TraceRecorder {
    return treeRecording(inner ?? { header() {}, call() {}, end() {} }, this, brakes);
  }

  /** The sub-agents this agent's tool call `toolCallId` (the `callIndex`th of its response) starts while it runs (toolCallStarts.ts). */
  toolCall(toolCallId: string, callIndex: number): ToolCallStarts {
    const parent = { agentId: this.agentId, toolCallId };
    return new ToolCallStarts(parent, (agentId) => this.tree.member(agentId, { ...parent, callIndex }));
  }

  /**
   * Runs `start` (a sub-agent this agent starts) once every sub-agent it started before has ended: the
   * sub-agents of one agent run one at a time, in the order asked, so concurrent ToolContext.runSubagent
   * calls each see the budget the ones before left, and the recordings' timeline is the order they ran.
   */
  inTurn<T>(start: () => Promise<T>): Promise<T> {
    const run = this.turn.then(start);
    this.turn = run.catch(() => undefined);
    return run;
  }

  /** What the session spent since the last sync, into the agent's and the tree's totals. */
  sync(session: LoopSession): void {
    this.budget.sync(session);
  }

  /** The tree's time and timeout, as its check before a call compares them (the session's spend so far synced first): a call's deadline (deadline.ts). */
  runTime(session: LoopSession): RunTime {
    this.sync(session);
    return { elapsedMs: this.tree.budget.totals.elapsedMs, timeoutMs: this.tree.timeoutMs };
  }

  finish(session: LoopSession, outcome: RunOutcome): void {
    this.sync(session);
    const by = this.by ?? (isBrakeStop(outcome.stop.reason) ? 'own' : undefined);
    const agent: LiveTreeAgent = { agentId: this.agentId, steps: outcome.steps, costPico: outcome.costPico, stop: outcome.stop };
    if (this.parent) Object.assign(agent, { parentAgentId: this.parent.agentId, parentToolCallId: this.parent.toolCallId });
    if (by) agent.by = by;
    this.tree.ended(agent, this.order);
  }
}

/**
 * A tool that runs a sub-agent (`agent(args)` says which) under the parent's budget; its observation is
 * the sub-agent's final text, or an error naming the stop when it did not complete.
 */
export function defineSubagentTool<Args>(tool: ToolSpec & { agent(args: Args, context: ToolContext): SubagentSpec | Promise<SubagentSpec> }): AgentTool<Args> {
  const { agent, ...spec } = tool;
  return {
    ...spec,
    subagent: true,
    async run(args, context) {
      if (context.runSubagent === undefined) throw new Error('a sub-agent tool runs inside runAgentLoop');
      const child = await agent(args, context);
      return subagentObservation(child.agentId, await context.runSubagent(child));
    },
  };
}

/** The run's answer, or its stop named by the start the tree saw (`researcher#2` for a second start of `researcher`). */
function subagentObservation(agentId: string, run: AgentRunResult) {
  if (run.stop.reason === 'completed') return { output: run.finalText ?? '' };
  const error = subagentStopError(run.agentId ?? agentId, run.stop.reason);
  return { output: `${error} (${run.stop.detail})`, error };
}

/**
 * One budget over an agent and its sub-agents, as every tree driver applies it (the replay of recorded
 * trees, engine.ts; live trees of step sources, live.ts; a real loop's tool registry the same way):
 * before each call of any agent, the kernel's one before-call check (`beforeCallStop`) on the TREE's
 * totals with the tree's brakes, then — for a sub-agent — on the AGENT's totals with the per-agent limits.
 * The run's own LoopSession then applies the per-call brakes (context window, repeat, same error,
 * backtracks), which `runBrakes` leaves it. Each agent is an AgentBudget, the `tree` every driver hands
 * LoopSession.checkBeforeCall (through run.ts's beforeCall in the synchronous ones).
 */
import { NO_BRAKES, type BrakeConfig } from '../brakes/config.js';
import type { Stop } from '../brakes/stopReasons.js';
import { beforeCallStop, summaryMayRun } from '../kernel/brakes.js';
import { summaryBoundPico, type SummaryCallSize } from '../kernel/cost.js';
import type { PromptView } from '../kernel/context.js';
import { Fact } from '../kernel/describe.js';
import { brakeLimits, Limit, predicts, type BrakeLimits } from '../kernel/limits.js';
import { StopCode } from '../kernel/stopCodes.js';
import { UserError } from '../errors.js';
import { counted } from '../plural.js';
import { toldStop } from '../loop/runStops.js';
import type { LoopSession, TreeCheck } from '../loop/session.js';
import type { AgentStop } from './result.js';

/** Per-agent limits: every sub-agent on its own (all its parts), besides the tree's brakes. */
export interface SubagentLimits {
  maxSteps?: number;
  maxCostPico?: number;
}

/** Running figures the before-call check reads: of the whole tree, or of one agent. */
export interface Running {
  steps: number;
  elapsedMs: number;
  spentPico: number;
  tokensUsed: number;
}

export function running(): Running {
  return { steps: 0, elapsedMs: 0, spentPico: 0, tokensUsed: 0 };
}

/** Limits that bind a run (a part) on its own: the tree's, without those that bind totals. */
export function runBrakes(brakes: BrakeConfig): BrakeConfig {
  const { maxSteps: _steps, maxCostPico: _cost, timeoutMs: _time, maxTokens: _tokens, ...perRun } = brakes;
  return perRun;
}

function subagentBrakes(brakes: BrakeConfig, limits: SubagentLimits | undefined): BrakeConfig {
  const config: BrakeConfig = { ...NO_BRAKES, budgetMode: brakes.budgetMode };
  if (limits?.maxSteps !== undefined) config.maxSteps = limits.maxSteps;
  if (limits?.maxCostPico !== undefined) config.maxCostPico = limits.maxCostPico;
  if (brakes.maxOutputTokens !== undefined) config.maxOutputTokens = brakes.maxOutputTokens;
  return config;
}

/**
 * The before-call check on `totals` with `limits`, described like a lone run's stop. No context window
 * here (TreeBudget leaves it out of both limits: each run's own check applies it), so no prompt size.
 */
function checkTotals(limits: BrakeLimits, totals: Running, bound: { boundPico: number; promptEstimate: number }, session: LoopSession): Stop | null {
  const code = beforeCallStop(limits, totals.steps, totals.elapsedMs, totals.spentPico, bound.boundPico, totals.tokensUsed, 0);
  if (code === StopCode.None) return null;
  const facts = new Float64Array(Fact.Size);
  facts[Fact.BoundPico] = bound.boundPico;
  facts[Fact.PromptEstimate] = bound.promptEstimate;
  // A timeout names what the agent's last call shows, as a lone run's does at its own time: cut (a model call,
  // a tool call), its retry not made, or a tool call during which the tree's time passed the limit (run on past it).
  const label = code === StopCode.Timeout ? session.timeoutWords({ elapsedMs: totals.elapsedMs, timeoutMs: limits[Limit.TimeoutMs]! }) : '';
  return toldStop(code, limits, { facts, figures: totals, label });
}

/**
 * A tree whose agents' spend together leaves exact picodollar arithmetic, though each run's alone may not
 * (kernel/cost.ts costOutOfRange refuses a run's): refused the same way, with the same code, so a caller
 * that knows the run whose call took it past names it (tree/engine.ts step: file, run, agent) and a file
 * of such a run is a bad file like any other.
 */
export function treeCostOutOfRange(steps: number, sessionId: string | undefined): UserError {
  const tree = sessionId === undefined ? 'the session tree' : `session ${sessionId}`;
  return new UserError({
    code: 'cost_out_of_range',
    message: `${tree} costs more than $9,007 over all its agents (${counted(steps, 'step')}), beyond exact picodollar arithmetic`,
    hint: "set --max-steps, --max-cost or --context-window to bound the tree's runs",
  });
}

export class TreeBudget {
  /** What every agent's calls add up to. */
  readonly totals: Running = running();
  /** Brakes each run's LoopSession is given. */
  readonly perRun: BrakeConfig;
  private readonly treeLimits: BrakeLimits;
  private readonly agentLimits: BrakeLimits;
  /** The session the refusal of a tree past exact picodollars names (treeCostOutOfRange). */
  private readonly sessionId: string | undefined;

  /** `named.sessionId`: the tree's session, for the refusal of a tree past exact picodollars. */
  constructor(brakes: BrakeConfig, subagent?: SubagentLimits, named: { sessionId?: string } = {}) {
    this.sessionId = named.sessionId;
    // The context window binds each call: the run's own check applies it, with the model's window under `model`.
    this.treeLimits = brakeLimits({ ...brakes, contextWindow: undefined });
    this.agentLimits = brakeLimits(subagentBrakes(brakes, subagent));
    this.perRun = runBrakes(brakes);
  }

  /** Before a call of an agent (`agent`: its own totals, `subagent`: whether the per-agent limits apply): null when it may go. */
  check(agent: { totals: Running; subagent: boolean }, session: LoopSession, view: PromptView): AgentStop | null {
    const bound = predicts(this.treeLimits) || predicts(this.agentLimits) ? session.boundPico(view) : { boundPico: 0, promptEstimate: 0 };
    const treeStop = checkTotals(this.treeLimits, this.totals, bound, session);
    if (treeStop) return { ...treeStop, by: 'tree' };
    const limitStop = agent.subagent ? checkTotals(this.agentLimits, agent.totals, bound, session) : null;
    return limitStop ? { ...limitStop, by: 'subagent' } : null;
  }

  /** Whether the tree's brakes (and a sub-agent's limits) would let the agent's next call through, `summary` bounded where they predict. */
  summaryMayRun(agent: { totals: Running; subagent: boolean }, summary: SummaryCallSize): boolean {
    const mayRun = (limits: BrakeLimits, t: Running) => summaryMayRun(limits, t.steps, t.elapsedMs, t.spentPico, t.tokensUsed, summaryBoundPico(limits, summary));
    return mayRun(this.treeLimits, this.totals) && (!agent.subagent || mayRun(this.agentLimits, agent.totals));
  }

  /**
   * Adds what `session` spent since `before` (a copy of its state) to the agent's and the tree's totals.
   * Spend past exact picodollars is refused (treeCostOutOfRange), before any brake reads it.
   */
  absorb(agentTotals: Running, session: LoopSession, before: Running): void {
    const s = session.state;
    for (const totals of [agentTotals, this.totals]) {
      totals.steps += s.steps - before.steps;
      totals.elapsedMs += s.elapsedMs - before.elapsedMs;
      totals.spentPico += s.spentPico - before.spentPico;
      totals.tokensUsed += s.tokensUsed - before.tokensUsed;
    }
    // (An agent's totals are at most the tree's: the tree's alone is checked.)
    if (!Number.isSafeInteger(this.totals.spentPico)) throw treeCostOutOfRange(this.totals.steps, this.sessionId);
  }
}

/**
 * One agent under a TreeBudget, as every tree driver keeps it: its totals, kept up to date with what its
 * session spent (`sync`, after each event and before each check), and the tree's check before each of
 * its calls (LoopSession.checkBeforeCall's `tree`). An agent of several parts (a recorded agent's runs,
 * one after another) syncs each part's session from its start.
 */
export class AgentBudget implements TreeCheck {
  readonly totals: Running = running();
  private seen: Running = running();
  private session: LoopSession | undefined;

  constructor(
    private readonly budget: TreeBudget,
    private readonly subagent: boolean,
  ) {}

  /** What `session` spent since the last sync, into the agent's and the tree's totals. */
  sync(session: LoopSession): void {
    if (session !== this.session) {
      this.session = session;
      this.seen = running();
    }
    this.budget.absorb(this.totals, session, this.seen);
    const { steps, elapsedMs, spentPico, tokensUsed } = session.state;
    this.seen = { steps, elapsedMs, spentPico, tokensUsed };
  }

  /** The tree's check before a call of `session` (after what it spent so far is synced): null when it may go. */
  check(session: LoopSession, view: PromptView): AgentStop | null {
    this.sync(session);
    return this.budget.check({ totals: this.totals, subagent: this.subagent }, session, view);
  }

  /** Whether the tree's brakes would let `session`'s next call through, `summary` bounded (after what it spent so far is synced). */
  summaryMayRun(session: LoopSession, summary: SummaryCallSize): boolean {
    this.sync(session);
    return this.budget.summaryMayRun({ totals: this.totals, subagent: this.subagent }, summary);
  }
}

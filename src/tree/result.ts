/** What a tree replay returns: figures per agent (its parts added up) and for the whole tree. */
import { isBrakeStop, type Stop, type StopReason } from '../brakes/stopReasons.js';
import type { RunOutcome, RunTotals, StrategyFigures } from '../loop/types.js';
import type { TreeAgent, UnrecordedAgent } from './group.js';
import { counted } from '../plural.js';
import { partPlace } from './partNumbers.js';
import { partToolCallId } from './partToolCallId.js';

/**
 * Which check stopped an agent: `tree` the tree's brakes on the tree's totals, `subagent` the per-agent
 * limits, `own` the run's own brakes (context window, repeat, same error, backtracks), `parent` the agent
 * that started it stopped first.
 */
export type StoppedBy = 'tree' | 'subagent' | 'own' | 'parent';

export interface AgentStop extends Stop {
  /** Absent when the agent ended by itself (completed, or its recorded trace ended). */
  by?: StoppedBy;
}

/** A stop as a tree driver reports it: the tree's checks' as they are (`by` set), any other brake's as the agent's own. */
export function agentStop(stop: AgentStop): AgentStop {
  return stop.by === undefined && isBrakeStop(stop.reason) ? { ...stop, by: 'own' } : stop;
}

/**
 * A run's figures (RunTotals) added up over an agent's parts or a whole tree, with its compaction calls
 * and what the context strategy did (summary calls and their cost, cache hits lost, skipped actions: 0
 * where it did nothing).
 */
export interface TreeTotals extends Omit<RunTotals, 'backtracks' | 'overshootPico' | 'cacheRuleLostTokens' | keyof StrategyFigures>, StrategyFigures {
  compactionCalls: number;
}

export interface AgentResult extends TreeTotals {
  agentId: string;
  kind: TreeAgent['kind'];
  parentAgentId?: string;
  parentToolCallId?: string;
  /** It ran in the background: its parent's tool call had returned at launch, so its stop ends none (no `endedToolCall`). */
  background?: true;
  /**
   * Its `parentToolCallId` is no tool call of its parent's runs (the tree's note says so: group.ts
   * unlinkedAgents): its start is unknown, tied to no call, so its stop ends none (no `endedToolCall`).
   */
  unlinked?: true;
  /** Runs (parts) the agent's calls span, and how many of them made a call. */
  parts: number;
  partsStarted: number;
  /** Calls the agent's runs hold (what an unbraked replay makes). */
  recordedCalls: number;
  /** The models the agent's parts were priced as (each run's own, or --model's), in the order of its parts. */
  models: string[];
  /**
   * How its last started part ended, or why it never started (`by: 'parent'`). Of an agent of several
   * parts, a stop its run told (`final answer after 1 step`: that part's steps alone) is told over the
   * agent (agentStopDetail): `part 3 of 3: final answer after 1 step; agent: 152 steps`.
   */
  stop?: AgentStop;
  /** A sub-agent stopped by a brake: the parent's tool call it ended, with that stop reason (none for one in the background, or unlinked). */
  endedToolCall?: { agentId: string; toolCallId: string; reason: StopReason };
  /** What the importer noted about the agent's runs (a missing sub-agent file, a cut line). */
  notes: string[];
}

export interface TreeResult {
  sessionId: string;
  /** In the tree's order: the main agent first. */
  agents: AgentResult[];
  totals: TreeTotals;
  /** The main agent's stop (the session's); without a main agent, the first brake stop. */
  stopReason: StopReason;
  stopDetail: string;
  /** That stop was the predictive budget bound's refusal (the kernel's flag on the root agent's stop); absent otherwise. */
  stopByPredictiveBound?: true;
  /** Every agent a brake stopped (not those cut because their parent stopped), in the order it happened. */
  stopped: ({ agentId: string } & AgentStop)[];
  notes: string[];
  /** Started agents with no recording among the inputs (SessionTree.unrecorded): the totals leave them out. */
  unrecorded?: UnrecordedAgent[];
}

export function emptyTotals(): TreeTotals {
  return {
    calls: 0, steps: 0, compactionCalls: 0, failedCalls: 0, toolCalls: 0, inputTokens: 0, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 0, reasoningTokens: 0, costPico: 0, elapsedMs: 0,
    summaryCalls: 0, summaryCostPico: 0, strategyCacheLostTokens: 0, skippedActions: 0,
  };
}

/** The figures TreeTotals adds up (an AgentResult carries more keys than these). */
const TOTAL_KEYS = Object.keys(emptyTotals()) as (keyof TreeTotals)[];

/** Adds a run's outcome to totals (its compaction calls counted apart: a run's outcome does not tell them). */
export function addOutcome(totals: TreeTotals, outcome: RunOutcome, compactionCalls = 0): void {
  const figures = outcome as Partial<Record<keyof TreeTotals, number>>;
  for (const key of TOTAL_KEYS) totals[key] += figures[key] ?? 0;
  totals.compactionCalls += compactionCalls;
}

/** Adds an agent's figures to the tree's. */
export function addTotals(totals: TreeTotals, agent: TreeTotals): void {
  for (const key of TOTAL_KEYS) totals[key] += agent[key];
}

/** Compaction calls among the first `calls` of a run. */
function compactionsMade(agent: TreeAgent, run: number, calls: number): number {
  let count = 0;
  const records = agent.runs[run]?.calls ?? [];
  for (let i = 0; i < calls && i < records.length; i++) if (records[i]!.compaction) count += 1;
  return count;
}

/**
 * A run's stop detail told over what it ended — the agent or the whole tree — the one way: where it
 * happened (the agent, and its part when it has several: the number its run says, of the last its runs
 * say — `part 3 of 3` when part 2 was not given, partNumbers.ts) and the steps counted over all of it.
 * `main, part 3 of 3: final answer after 1 step; tree: 155 steps` (a tree's),
 * `part 3 of 3: final answer after 1 step; agent: 152 steps` (an agent's, its id beside it).
 */
export function stopDetailOver(detail: string, where: { agentId?: string; part: number; parts: number }, over: { name: 'tree' | 'agent'; steps: number }): string {
  const place = [...(where.agentId === undefined ? [] : [where.agentId]), ...(where.parts > 1 ? [`part ${where.part} of ${where.parts}`] : [])].join(', ');
  return `${place}: ${detail}; ${over.name}: ${counted(over.steps, 'step')}`;
}

/** The 1-based part whose run ended last among those started (1 when none did). */
export function lastPartStarted(outcomes: readonly (RunOutcome | undefined)[]): number {
  return outcomes.reduce((last, outcome, r) => (outcome === undefined ? last : r), 0) + 1;
}

/**
 * The tree's stop detail, from the agent that gave the tree its stop (`ran`: its parts' outcomes and the
 * stop the tree's checks gave it). A stop by the tree's brakes is told on the tree's totals already (`60
 * steps taken, limit 60`); any other is the agent's run's (`final answer after 1 step`, the steps of its
 * last part alone), so it is told over the tree (stopDetailOver): `main, part 3 of 3: final answer after 1 step; tree: 155 steps`.
 */
export function treeStopDetail(agent: Pick<TreeAgent, 'agentId' | 'runs'>, ran: { outcomes: readonly (RunOutcome | undefined)[]; stop?: AgentStop | undefined }, treeSteps: number): string {
  const last = lastPartStarted(ran.outcomes) - 1;
  const stop = ran.stop ?? ran.outcomes[last]?.stop;
  if (stop === undefined) return '';
  if ((stop as AgentStop).by === 'tree') return stop.detail;
  return stopDetailOver(stop.detail, { agentId: agent.agentId, ...partPlace(agent.runs, last) }, { name: 'tree', steps: treeSteps });
}

/**
 * An agent's stop as its row tells it: a stop its run told (ended by itself, or its own brake) over the
 * agent when it has several parts (stopDetailOver); one part's steps are the agent's, and a stop by the
 * tree's brakes, the per-agent limits or its parent is told on the figures it names already.
 */
function agentStopDetail(stop: AgentStop, agent: { part: number; parts: number; steps: number }): AgentStop {
  if (agent.parts <= 1 || (stop.by !== undefined && stop.by !== 'own')) return stop;
  return { ...stop, detail: stopDetailOver(stop.detail, agent, { name: 'agent', steps: agent.steps }) };
}

/**
 * An agent's result from its parts' outcomes. `ended.unlinked`: its `parentToolCallId` is no call of its
 * parent (group.ts unlinkedAgents), so its stop ends no call.
 */
export function agentRecord(agent: TreeAgent, outcomes: readonly (RunOutcome | undefined)[], ended: { stop: AgentStop | undefined; pricedAs: readonly string[]; unlinked?: boolean }): AgentResult {
  const { stop } = ended;
  const record: AgentResult = {
    agentId: agent.agentId,
    kind: agent.kind,
    ...emptyTotals(),
    parts: agent.runs.length,
    partsStarted: 0,
    recordedCalls: agent.runs.reduce((sum, run) => sum + run.calls.length, 0),
    // The models its figures were priced as (another under --model), as a replayed run names its model.
    models: [...new Set(ended.pricedAs)],
    notes: agent.runs.flatMap((run) => run.header.importedFrom?.notes ?? []),
  };
  if (agent.parentAgentId !== undefined) record.parentAgentId = agent.parentAgentId;
  if (agent.parentToolCallId !== undefined) record.parentToolCallId = agent.parentToolCallId;
  if (agent.background) record.background = true;
  if (ended.unlinked === true) record.unlinked = true;
  let last: Stop | undefined;
  outcomes.forEach((outcome, r) => {
    if (!outcome) return;
    record.partsStarted += outcome.calls > 0 ? 1 : 0;
    addOutcome(record, outcome, compactionsMade(agent, r, outcome.calls - (outcome.summaryCalls ?? 0)));
    last = outcome.stop;
  });
  const finalStop: AgentStop | undefined = stop ?? last;
  if (finalStop) record.stop = agentStopDetail(finalStop, { ...partPlace(agent.runs, lastPartStarted(outcomes) - 1), steps: record.steps });
  // A background sub-agent's tool call returned at launch: its stop reaches the parent later (a notification), ending no call;
  // an unlinked one's id names no call of its parent: its start is unknown, and its stop ends none either.
  // A resumed sub-agent's later part names the call that resumed it (Claude Code's Task({resume})): its stop ends that call.
  const toolCallId = partToolCallId(agent, lastPartStarted(outcomes) - 1);
  if (stop && stop.by !== 'parent' && !agent.background && !record.unlinked && agent.parentAgentId !== undefined && toolCallId !== undefined) {
    record.endedToolCall = { agentId: agent.parentAgentId, toolCallId, reason: stop.reason };
  }
  return record;
}

/** What a tree replay returns: figures per agent (its parts added up) and for the whole tree. */
import { isBrakeStop, type Stop, type StopReason } from '../brakes/stopReasons.js';
import type { RunOutcome, RunTotals, StrategyFigures } from '../loop/types.js';
import type { TreeAgent } from './group.js';

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
  /** Runs (parts) the agent's calls span, and how many of them made a call. */
  parts: number;
  partsStarted: number;
  /** Calls the agent's runs hold (what an unbraked replay makes). */
  recordedCalls: number;
  /** The agent's models, in the order of its parts. */
  models: string[];
  /** How its last started part ended, or why it never started (`by: 'parent'`). */
  stop?: AgentStop;
  /** A sub-agent stopped by a brake: the parent's tool call it ended, with that stop reason. */
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
  /** Every agent a brake stopped (not those cut because their parent stopped), in the order it happened. */
  stopped: ({ agentId: string } & AgentStop)[];
  notes: string[];
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

export function agentRecord(agent: TreeAgent, outcomes: readonly (RunOutcome | undefined)[], stop: AgentStop | undefined): AgentResult {
  const record: AgentResult = {
    agentId: agent.agentId,
    kind: agent.kind,
    ...emptyTotals(),
    parts: agent.runs.length,
    partsStarted: 0,
    recordedCalls: agent.runs.reduce((sum, run) => sum + run.calls.length, 0),
    models: [...new Set(agent.runs.map((run) => run.header.model))],
    notes: agent.runs.flatMap((run) => run.header.importedFrom?.notes ?? []),
  };
  if (agent.parentAgentId !== undefined) record.parentAgentId = agent.parentAgentId;
  if (agent.parentToolCallId !== undefined) record.parentToolCallId = agent.parentToolCallId;
  let last: Stop | undefined;
  outcomes.forEach((outcome, r) => {
    if (!outcome) return;
    record.partsStarted += outcome.calls > 0 ? 1 : 0;
    addOutcome(record, outcome, compactionsMade(agent, r, outcome.calls));
    last = outcome.stop;
  });
  const finalStop: AgentStop | undefined = stop ?? last;
  if (finalStop) record.stop = finalStop;
  if (stop && stop.by !== 'parent' && agent.parentAgentId !== undefined && agent.parentToolCallId !== undefined) {
    record.endedToolCall = { agentId: agent.parentAgentId, toolCallId: agent.parentToolCallId, reason: stop.reason };
  }
  return record;
}

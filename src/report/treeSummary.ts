/**
 * `replay --tree`'s summary: the flat replay's summary (replay/summary.ts summarise, report/records.ts
 * summaryRecord: `runs`, `completed`, `completionRate`, every stop reason with 0 where none, spend, overshoot,
 * tokens), each session tree one run and its stop the session's (tree/sessionStop.ts), then the tree's own
 * figures (`trees`, `agents`, `calls`, `costUsd`, `stoppedAgents`), the sessions in which a brake stopped a
 * sub-agent, and the false stops when counted. Pure.
 */
import type { BrakeConfig } from '../brakes/config.js';
import { picoToUsd } from '../money.js';
import { counted } from '../plural.js';
import { summarise, type SummarisedRun } from '../replay/summary.js';
import type { TreeResult } from '../tree/result.js';
import { stoppedASubagent, type SubagentFalseStop } from '../tree/sessionStop.js';
import { summaryRecord, type SummaryRecord } from './records.js';
import type { FalseStopFigures } from './replayFalseStops.js';
import { treeOvershootPico } from './treeOvershoot.js';
import { labelledLine } from './view.js';

/** The tree's own figures beside the flat replay's. */
export interface TreeSummaryFigures {
  trees: number;
  agents: number;
  calls: number;
  costUsd: number;
  stoppedAgents: number;
  /** Sessions in which a brake stopped a sub-agent (the tree's brakes, the per-agent limits or its run's own). */
  sessionsWithSubagentsStopped: number;
  /**
   * Of those, the sessions whose main agent completed as recorded while a brake stopped a sub-agent that
   * completes in its recording: counted as stopped with that sub-agent's stop reason, not completed (and, a
   * brake on, as false stops).
   */
  subagentFalseStops: number;
}

export type TreeSummary = SummaryRecord & TreeSummaryFigures & Partial<FalseStopFigures>;

/** A tree as one run of the summary: the session's stop, the tree's totals, its spend past its budget. */
function treeRun(tree: TreeResult, subagentFalseStop: SubagentFalseStop | undefined, brakes: Pick<BrakeConfig, 'maxCostPico'>): SummarisedRun {
  const t = tree.totals;
  return {
    stopReason: subagentFalseStop?.reason ?? tree.stopReason,
    costPico: t.costPico,
    overshootPico: treeOvershootPico(t, brakes),
    steps: t.steps,
    inputTokens: t.inputTokens,
    cachedInputTokens: t.cachedInputTokens,
    outputTokens: t.outputTokens,
    summaryCalls: t.summaryCalls,
    summaryCostPico: t.summaryCostPico,
    strategyCacheLostTokens: t.strategyCacheLostTokens,
    skippedActions: t.skippedActions,
  };
}

/** The summary over `trees` (each tree's brakes `brakesOf(i)`; `subagentFalseStops[i]`: the sub-agent its session counts as stopped by). */
export function treeSummary(trees: readonly TreeResult[], over: { brakesOf: (i: number) => Pick<BrakeConfig, 'maxCostPico'>; subagentFalseStops?: readonly (SubagentFalseStop | undefined)[]; falseStops?: FalseStopFigures }): TreeSummary {
  const falseStopOf = (i: number) => over.subagentFalseStops?.[i];
  const costPico = trees.reduce((sum, tree) => sum + BigInt(tree.totals.costPico), 0n);
  return {
    ...summaryRecord(summarise(trees.map((tree, i) => treeRun(tree, falseStopOf(i), over.brakesOf(i))))),
    trees: trees.length,
    agents: trees.reduce((sum, tree) => sum + tree.agents.length, 0),
    calls: trees.reduce((sum, tree) => sum + tree.totals.calls, 0),
    costUsd: picoToUsd(costPico),
    stoppedAgents: trees.reduce((sum, tree) => sum + tree.stopped.length, 0),
    sessionsWithSubagentsStopped: trees.filter(stoppedASubagent).length,
    subagentFalseStops: trees.filter((_, i) => falseStopOf(i) !== undefined).length,
    ...over.falseStops,
  };
}

/**
 * `completed: 0 of 2 sessions` and, when a brake stopped a sub-agent, `sub-agents stopped: in 2 sessions; 2
 * counted as stopped, not completed: …`: the summary's lines.
 */
export function treeSummaryLines(s: Pick<TreeSummary, 'runs' | 'completed' | 'sessionsWithSubagentsStopped' | 'subagentFalseStops'>, width: number): string {
  const text = `completed: ${s.completed} of ${counted(s.runs, 'session')}\n`;
  if (s.sessionsWithSubagentsStopped === 0) return text;
  const countedAs =
    s.subagentFalseStops === 0
      ? `; none of them completes in its recording, so each session counts as its main agent ended (its calls after the stop as recorded: open loop)`
      : `; ${s.subagentFalseStops} counted as stopped, not completed: a brake stopped a sub-agent that completes in its recording (a false stop), and the main agent's completion after it is the recorded one, made with the sub-agent's whole result (open loop)`;
  return text + labelledLine(`sub-agents stopped: in ${counted(s.sessionsWithSubagentsStopped, 'session')}${countedAs}`, width);
}

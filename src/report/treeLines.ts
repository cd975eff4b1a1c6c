/**
 * What a tree's table (treeReport.ts renderTreeTable) is followed by: who was stopped and why, the Task
 * calls stopped sub-agents ended, the stops that ended none (a sub-agent in the background, or unlinked:
 * its parentToolCallId no call of its parent), what the session counts as when a stopped sub-agent that
 * completes in its recording makes it a stop (tree/sessionStop.ts), what the context strategy did, and the tree's notes —
 * its own (tree notes: how its agents were linked) told apart from its agents' import notes.
 */
import { counted } from '../plural.js';
import { strategyFieldsText } from './strategyFields.js';
import { printableText } from './text.js';
import type { TreeAgentRecord, TreeRecord } from './treeReport.js';
import { labelledLine, type ReportView } from './view.js';

/** Who stopped an agent, in words (the table's stop column says it in one word: tree, limit, own, parent). */
const STOPPED_BY: Record<string, string> = {
  tree: "the tree's brakes (on the tree's totals)",
  subagent: 'the per-agent limit (--subagent-max-*)',
  own: "its run's own brakes",
  parent: 'its parent stopping',
};

/** `background: bg1 stopped with budget; its Task call main/toolu_… had returned at launch, so no call ended`. */
function backgroundStopLine(agent: TreeAgentRecord): string | undefined {
  if (!agent.background || agent.stoppedBy === '' || agent.stoppedBy === 'parent') return undefined;
  const call = agent.parent === undefined ? 'its Task call' : `its Task call ${agent.parent}/${agent.parentToolCallId ?? '?'}`;
  return `background: ${agent.agent} stopped with ${agent.stopReason}; ${call} had returned at launch, so no call ended`;
}

/** `unlinked: a stopped with max_steps; its parentToolCallId t9 is no tool call of main: its start is unknown, so no call ended`. */
function unlinkedStopLine(agent: TreeAgentRecord): string | undefined {
  if (!agent.unlinked || agent.stoppedBy === '' || agent.stoppedBy === 'parent') return undefined;
  return `unlinked: ${agent.agent} stopped with ${agent.stopReason}; its parentToolCallId ${agent.parentToolCallId ?? '?'} is no tool call of ${agent.parent ?? 'its parent'}: its start is unknown, so no call ended`;
}

/**
 * `counted as: max_steps, not completed — a1 was stopped by the per-agent limit (--subagent-max-*) and completes in
 * its recording (a false stop); the main agent's completion after it is the recorded one (open loop)`.
 */
function countedAsLine(counted: NonNullable<TreeRecord['countedAs']>): string {
  const by = STOPPED_BY[counted.stoppedBy] ?? 'a brake';
  return `counted as: ${counted.stopReason}, not completed — ${counted.agent} was stopped by ${by} and completes in its recording (a false stop); the main agent's completion after it is the recorded one, made with its whole result (open loop)`;
}

/** The tree's notes with --wide (`tree note:`, `import note:`), else how many of each there are. */
function notesText(tree: TreeRecord, view: ReportView): string {
  const imported = tree.notes.length - tree.treeNotes;
  if (view.wide) return tree.notes.map((note, i) => labelledLine(printableText(`${i < tree.treeNotes ? 'tree' : 'import'} note: ${note}`), view.width)).join('');
  if (tree.notes.length === 0) return '';
  const counts = [...(tree.treeNotes > 0 ? [counted(tree.treeNotes, 'tree note')] : []), ...(imported > 0 ? [counted(imported, 'import note')] : [])];
  return `notes: ${counts.join(', ')} (shown with --wide, or in --format json)\n`;
}

/** The lines under a tree's table, each cut to the width as a labelled line. */
export function treeLines(tree: TreeRecord, view: ReportView): string {
  const said = (line: string): string => labelledLine(printableText(line), view.width);
  let text = '';
  for (const stop of tree.stopped) text += said(`stopped: ${stop.agent} by ${STOPPED_BY[stop.by] ?? stop.by} — ${stop.reason}: ${stop.detail}`);
  for (const agent of tree.agents) if (agent.endedToolCall) text += said(`task call: ${agent.endedToolCall}`);
  if (tree.countedAs !== undefined) text += said(countedAsLine(tree.countedAs));
  for (const line of tree.agents.flatMap((agent) => [backgroundStopLine(agent), unlinkedStopLine(agent)])) if (line !== undefined) text += said(line);
  const strategy = strategyFieldsText(tree.totals);
  if (strategy !== '') text += labelledLine(`context strategy (tree): ${strategy}`, view.width);
  return text + notesText(tree, view);
}

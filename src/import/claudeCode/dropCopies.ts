/**
 * Calls a Claude Code session tree holds twice, dropped so that each is counted once (with a note):
 * - the calls a resumed or forked session's file copied from another session file of the walk, which that
 *   file keeps (copiedCalls.ts decides which);
 *   (and the compactions among those copied lines: that file's compaction transcripts answer them);
 * - the calls of a sub-agent's lines found both in the session's own transcript (sidechain lines) and in
 *   the sub-agent's own file: counted in the sub-agent's file, where they are linked to its Task call.
 */
import { basename } from 'node:path';
import type { AgentCall } from '../common/agentRuns.js';
import { counted } from '../../plural.js';
import type { Transcript } from './transcript.js';
import type { TranscriptCall } from './transcriptTypes.js';

const COPY_WHY = 'the same message.id, requestId and usage: a resumed or forked session\'s file opens with a copy of the conversation it goes on from';

function kept<T extends AgentCall>(calls: T[], drop: (key: string) => boolean): T[] {
  return calls.filter((call) => call.responseKey === undefined || !drop(call.responseKey));
}

/**
 * The sub-agent links of `transcript` but those started by a tool call of a dropped call: that call, and the
 * sub-agent it started, are the keeping file's tree's (no transcript is missing from this one).
 */
function linksKept(transcript: Transcript, dropped: (call: AgentCall) => boolean): Transcript['links'] {
  const droppedTools = new Set([...transcript.calls, ...transcript.sidechainCalls].filter(dropped).flatMap((call) => (call.record.toolCalls ?? []).flatMap((tool) => (tool.id === undefined ? [] : [tool.id]))));
  const links: Transcript['links'] = new Map();
  for (const [agentId, runs] of transcript.links) {
    const left = runs.filter((link) => !droppedTools.has(link.toolUseId));
    if (left.length > 0) links.set(agentId, left);
  }
  return links;
}

/**
 * `transcript` without the calls another file keeps (`copied`: key → that file), a note per keeping file, and
 * how many each keeps (`copiedTo`: a file left with no call is no run, sessionTree.ts copiesOnly).
 */
export function withoutCopies(transcript: Transcript, copied: ReadonlyMap<string, string>): Transcript {
  if (copied.size === 0) return transcript;
  const byKeeper = new Map<string, Set<string>>();
  for (const call of [...transcript.calls, ...transcript.sidechainCalls]) {
    const keeper = call.responseKey === undefined ? undefined : copied.get(call.responseKey);
    if (keeper === undefined) continue;
    const keys = byKeeper.get(keeper) ?? new Set<string>();
    keys.add(call.responseKey!);
    byKeeper.set(keeper, keys);
  }
  if (byKeeper.size === 0) return transcript;
  const notes = [...byKeeper].map(
    ([keeper, keys]) => `${counted(keys.size, 'call')} of this file ${keys.size === 1 ? 'is a copy of a call' : 'are copies of calls'} of ${basename(keeper)} (${COPY_WHY}): counted there once, dropped here`,
  );
  const drop = (key: string): boolean => copied.has(key);
  // A compaction among the copied lines is the keeping file's (its compaction transcript is that session's).
  const lastCopiedLine = transcript.calls.reduce((last, call) => (call.responseKey !== undefined && drop(call.responseKey) ? Math.max(last, call.modelLine ?? 0) : last), 0);
  return {
    ...transcript,
    calls: kept(transcript.calls, drop),
    compactBoundaries: transcript.compactBoundaries.filter((boundary) => boundary.line > lastCopiedLine),
    sidechainCalls: kept(transcript.sidechainCalls, drop),
    links: linksKept(transcript, (call) => call.responseKey !== undefined && drop(call.responseKey)),
    notes: [...transcript.notes, ...notes],
    copiedTo: [...byKeeper].map(([keeper, keys]) => ({ keeper, calls: keys.size })),
  };
}

/** The session's sidechain calls that no sub-agent file of its tree holds too, and a note on those dropped. */
export function sidechainNotInAgentFiles(main: Transcript, agents: readonly { agentId: string; transcript: Transcript }[]): { calls: TranscriptCall[]; note?: string } {
  const owner = new Map<string, string>();
  for (const { agentId, transcript } of agents) for (const call of transcript.calls) if (call.responseKey !== undefined) owner.set(call.responseKey, agentId);
  const calls = kept(main.sidechainCalls, (key) => owner.has(key));
  const dropped = main.sidechainCalls.length - calls.length;
  if (dropped === 0) return { calls };
  const agentIds = [...new Set(main.sidechainCalls.flatMap((call) => (call.responseKey !== undefined && owner.has(call.responseKey) ? [owner.get(call.responseKey)!] : [])))];
  const files = agentIds.map((id) => `agent-${id}`).join(', ');
  return {
    calls,
    note: `${counted(dropped, 'call')} of sidechain lines in the session transcript ${dropped === 1 ? 'is' : 'are'} also in the sub-agent transcript${agentIds.length === 1 ? '' : 's'} ${files} (the same message.id and requestId): counted there once, dropped here`,
  };
}

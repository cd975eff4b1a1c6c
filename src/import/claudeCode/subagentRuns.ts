/**
 * A Claude Code session tree's sub-agents (their own transcript files) → native runs, each linked to the
 * tool call of its parent that started it, and each later run of a resumed sub-agent to the call that
 * resumed it (resumedRuns.ts); what cannot be linked is imported with a note (sessionTree.ts reads the files).
 */
import { basename } from 'node:path';
import type { Trace } from '../../trace/types.js';
import { agentRuns } from '../common/agentRuns.js';
import { missingTranscriptNote, type TranscriptPlace } from './missingTranscript.js';
import { cutBetweenRuns, runsByLink, tieParts, withReportedOutput } from './resumedRuns.js';
import type { SubagentLink, Transcript } from './transcriptTypes.js';

export const CLAUDE_CODE_FORMAT = 'claude-code';
export const MAIN = 'main';

export interface SubagentTranscript {
  agentId: string;
  transcript: Transcript;
}

/** Each sub-agent's parent, the tool calls of it that started or resumed the sub-agent, and the file they are in. */
export type Owners = Map<string, { parent: string; links: SubagentLink[]; holder: string }>;

function firstStart(transcript: Transcript): number {
  return transcript.calls[0]?.startedAtMs ?? Infinity;
}

const WARMUP_NOTE = (agentId: string): string =>
  `sub-agent ${agentId} is a warm-up agent (its prompt is "Warmup": Claude Code starts it to fill the prompt cache, no Task call did): its calls count in the session's totals, unlinked (no parent tool call), as warmup-${agentId}`;

/** One sub-agent's runs: its parts, each tied to the tool call that started or resumed its run. */
function oneSubagentRuns(sessionPath: string, sessionId: string, { agentId, transcript }: SubagentTranscript, owners: Owners): Trace[] {
  const owner = owners.get(agentId);
  const notes = [...transcript.notes];
  const warmup = !owner && transcript.warmup === true;
  if (warmup) notes.push(WARMUP_NOTE(agentId));
  else if (!owner) notes.push(`no progress line or Task result of the session names sub-agent ${agentId}: imported unlinked (no parent tool call)`);
  const linked = runsByLink(transcript.calls, owner?.links ?? []);
  if (linked.length > 1) notes.push(`sub-agent ${agentId} ran ${linked.length} times (resumed: ${linked.map((run) => run.link?.toolUseId ?? 'no tool call').join(', ')}): each run's parts are tied to the tool call that started or resumed it`);
  const runs = cutBetweenRuns(
    linked.map((run) => {
      const reported = withReportedOutput(run, owner?.holder ?? sessionPath);
      if (reported.note !== undefined) notes.push(reported.note);
      return reported.run;
    }),
  );
  const first = owner?.links[0];
  const parts = agentRuns({
    format: CLAUDE_CODE_FORMAT,
    path: transcript.path,
    sourceBase: sessionPath,
    label: `${warmup ? 'warmup' : 'agent'}-${agentId}`,
    agent: {
      sessionId,
      agentId,
      kind: 'subagent',
      ...(owner && first ? { parentAgentId: owner.parent, parentToolCallId: first.toolUseId } : {}),
      ...(first?.background === true ? { background: true } : {}),
    },
    calls: runs.flatMap((run) => run.calls),
    notes,
  });
  tieParts(parts, runs);
  return parts;
}

/** Runs of the sub-agents, in the order they started, each linked to the tool call that started it (or noted as unlinked). */
export function subagentRuns(sessionPath: string, sessionId: string, agents: SubagentTranscript[], owners: Owners): Trace[] {
  const ordered = [...agents].sort((a, b) => firstStart(a.transcript) - firstStart(b.transcript) || (a.agentId < b.agentId ? -1 : a.agentId > b.agentId ? 1 : 0));
  return ordered.flatMap((agent) => (agent.transcript.calls.length === 0 ? [] : oneSubagentRuns(sessionPath, sessionId, agent, owners)));
}

/**
 * Every sub-agent link the tree's transcripts hold, and a note on the parent for each missing transcript
 * (`sidechain`: sub-agents whose transcript is read elsewhere: the session's own sidechain lines, sidechainRuns.ts,
 * or the tree of the session a fork links it from, forkLinks.ts).
 */
export function linkOwners(main: Transcript, agents: SubagentTranscript[], mainNotes: string[], place: TranscriptPlace, sidechain: ReadonlySet<string> = new Set()): Owners {
  const owners: Owners = new Map();
  const known = new Set([...agents.map((agent) => agent.agentId), ...sidechain]);
  const holders: { parent: string; transcript: Transcript }[] = [{ parent: MAIN, transcript: main }, ...agents.map((a) => ({ parent: a.agentId, transcript: a.transcript }))];
  for (const { parent, transcript } of holders) {
    for (const [agentId, links] of transcript.links) {
      const first = links[0];
      if (agentId === parent || owners.has(agentId) || first === undefined) continue;
      owners.set(agentId, { parent, links, holder: transcript.path });
      if (!known.has(agentId)) {
        const note = missingTranscriptNote({ agentId, toolUseId: first.toolUseId, file: basename(transcript.path), line: first.line, place });
        if (parent === MAIN) mainNotes.push(note);
        else agents.find((a) => a.agentId === parent)?.transcript.notes.push(note);
      }
    }
  }
  return owners;
}

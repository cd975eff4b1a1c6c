/**
 * A Claude Code transcript given without its session's: a sub-agent's, or a compaction's (`agentId` on its
 * lines). A sub-agent's is one agent, no tree to link, with a note the commands warn of (its session's
 * transcript: where it is, what to give, what is left out: missingTranscript.ts loneSubagentNote). A
 * compaction's call is a paid call of its session's main agent, never a run of its own: its read is refused
 * (loneCompaction), and the input set leaves the file out with a line (copiesOnly.ts isLeftOutRead).
 */
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { STDIN_LABEL } from '../../io/openInput.js';
import type { Trace } from '../../trace/types.js';
import { agentRuns, type AgentCall } from '../common/agentRuns.js';
import { sessionFileCandidates } from '../formats.js';
import { loneCompaction, loneSubagentNote, type SessionPlace } from './missingTranscript.js';
import { siblingSessionFiles } from './siblingAgents.js';
import { CLAUDE_CODE_FORMAT } from './subagentRuns.js';
import type { Transcript } from './transcriptTypes.js';

/** Whether an agent id is a compaction's (`acompact-<id>`): its calls are the main agent's compaction calls. */
export function isCompaction(agentId: string): boolean {
  return agentId.startsWith('acompact');
}

export function asCompaction(calls: AgentCall[]): AgentCall[] {
  return calls.map((call) => ({ ...call, record: { ...call.record, compaction: true } }));
}

/**
 * Where the session transcript of the file `path` (read on its own) is: `<dir>/<session>.jsonl[.gz]` for
 * `<dir>/<session>/subagents/agent-<id>.jsonl`, or for a 2.0.x file beside it the session its lines name.
 */
function sessionPlaceOf(path: string, sessionId: string | undefined): SessionPlace {
  if (path === STDIN_LABEL) return { ...(sessionId === undefined ? {} : { sessionId }), stdin: true };
  const candidates = [...sessionFileCandidates(path), ...siblingSessionFiles(path)];
  if (candidates.length === 0) return { ...(sessionId === undefined ? {} : { sessionId }), stdin: false };
  const found = candidates.find((file) => existsSync(file));
  return found === undefined ? { base: candidates[0]!.replace(/\.jsonl$/, '') } : { file: found, folder: dirname(found) };
}

/** A transcript given on its own that is a sub-agent's (one agent, no tree to link) or a compaction's (refused: left out). */
export function loneAgentRuns(transcript: Transcript, path: string): Trace[] {
  const agentId = transcript.agentId!;
  const place = sessionPlaceOf(path, transcript.sessionId);
  if (isCompaction(agentId) && transcript.calls.length > 0) throw loneCompaction(path, place);
  return agentRuns({
    format: CLAUDE_CODE_FORMAT,
    path,
    sourceBase: path,
    label: `agent-${agentId}`,
    agent: { sessionId: transcript.sessionId ?? agentId, agentId, kind: 'subagent' },
    calls: transcript.calls,
    notes: [...transcript.notes, loneSubagentNote(place)],
  });
}

/**
 * The note a Claude Code session tree carries for a sub-agent whose transcript file is not there (one
 * wording, written by sessionTree.ts and picked out by the commands, which warn of it on standard error):
 * the sub-agent's calls, and their cost, are then missing from every total. The note of response lines not
 * read (unreadLinesNote) is warned of the same way.
 */

/** Where a sub-agent's transcript was looked for: `<dir>/<session>/subagents` then `<dir>` (Claude Code 2.0.x), or nowhere (standard input). */
export interface TranscriptPlace {
  /** The directory looked in first; undefined when no sub-agent file is looked for (the session read from standard input). */
  subagentsDir?: string;
  /** The session file's own directory, looked in next for a file whose lines name the session. */
  siblingDir?: string;
}

const LEFT_OUT = 'its calls and their cost are left out of the totals';

/** The note: which sub-agent, what started it, where its transcript was looked for, and what that leaves out. */
export function missingTranscriptNote(args: { agentId: string; toolUseId: string; file: string; line: number; place: TranscriptPlace }): string {
  const { agentId, toolUseId, file, line, place } = args;
  const beside = place.siblingDir === undefined ? '' : `, and as ${place.siblingDir}/agent-${agentId}.jsonl or .jsonl.gz naming this session`;
  const looked = place.subagentsDir === undefined ? 'not looked for: the session was read from standard input' : `looked for as ${place.subagentsDir}/agent-${agentId}.jsonl or .jsonl.gz${beside}`;
  return `sub-agent ${agentId} (started by tool call ${toolUseId}, ${file} line ${line}) has no transcript file (${looked}): ${LEFT_OUT}`;
}

/** How the note of unread response lines (`unreadLinesNote`) ends. */
const UNREAD_LEFT_OUT = 'skipped, so that usage and its cost are left out of the totals';

/**
 * The note of a transcript's lines of no line type loopcost reads that carry a model response's usage
 * (claudeCode/lineFields.ts unreadResponseType): skipped, so the totals may miss a call, or the last part
 * of a streamed one (its usage is then that of its last line read). Warned of like a missing transcript.
 */
export function unreadLinesNote(args: { file: string; line: number; count: number; type: string }): string {
  const { file, line, count, type } = args;
  const lines = count === 1 ? `line ${line} of ${file} is` : `${count} lines of ${file} (the first: line ${line}) are`;
  return `${lines} of type ${type}, which is no Claude Code line type loopcost reads, yet carr${count === 1 ? 'ies' : 'y'} a model response's usage (message.usage): ${UNREAD_LEFT_OUT}`;
}

/**
 * Whether an import note is one the commands warn of on standard error: a missing sub-agent transcript,
 * or lines of a response not read (`unreadLinesNote`). Either leaves calls or usage out of every total.
 */
export function isMissingTranscriptNote(note: string): boolean {
  return (note.startsWith('sub-agent ') && note.endsWith(`): ${LEFT_OUT}`)) || note.endsWith(`(message.usage): ${UNREAD_LEFT_OUT}`);
}

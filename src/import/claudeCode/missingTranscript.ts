/**
 * The note a Claude Code session tree carries for a sub-agent whose transcript file is not there (one
 * wording, written by sessionTree.ts and picked out by the commands, which warn of it on standard error):
 * the sub-agent's calls, and their cost, are then missing from every total. The note of response lines not
 * read (unreadLinesNote), of a compaction whose transcript is missing (missingCompactionNote) and of a
 * sub-agent transcript read without its session's (loneSubagentNote) are warned of the same way; a compaction
 * transcript read without its session's is left out, said on standard error (loneCompaction).
 */
import { UserError } from '../../errors.js';

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

const COMPACTION_LEFT_OUT = 'its call and its cost are left out of the totals';
const COMPACTIONS_LEFT_OUT = 'their calls and their cost are left out of the totals';
/** How many boundaries a note of several names by line; the rest are counted. */
const LINES_SHOWN = 5;

/** What a note says of one boundary beside its line: its trigger and preTokens. */
function boundaryFacts(boundary: { trigger?: string; preTokens?: number }): string[] {
  return [boundary.trigger === undefined ? [] : [`trigger ${boundary.trigger}`], boundary.preTokens === undefined ? [] : [`compactMetadata.preTokens ${boundary.preTokens}`]].flat();
}

/**
 * The note of the compactions the session's transcript records (`compact_boundary` lines, compactBoundaries.ts)
 * whose compaction call no transcript holds: where each was, where their transcripts were looked for, and what
 * they may have cost (`estimate`: compactionEstimate.ts). One note for them all, the first few named by line.
 */
export function missingCompactionNote(args: { file: string; boundaries: readonly { line: number; trigger?: string; preTokens?: number }[]; place: TranscriptPlace; estimate: string }): string {
  const { file, boundaries, place, estimate } = args;
  const beside = place.siblingDir === undefined ? '' : `, or as ${place.siblingDir}/agent-acompact-<id>.jsonl naming this session`;
  const looked = place.subagentsDir === undefined ? 'not looked for: the session was read from standard input' : `looked for as ${place.subagentsDir}/agent-acompact-<id>.jsonl or .jsonl.gz${beside}`;
  const [first] = boundaries;
  if (boundaries.length === 1) return `compaction at ${file} line ${first!.line} (${['compact_boundary', ...boundaryFacts(first!)].join(', ')}) has no transcript file (${looked}): ${COMPACTION_LEFT_OUT}; ${estimate}`;
  const shown = boundaries.slice(0, LINES_SHOWN).map((boundary) => {
    const facts = boundaryFacts(boundary);
    return facts.length === 0 ? `${boundary.line}` : `${boundary.line} (${facts.join(', ')})`;
  });
  const more = boundaries.length > LINES_SHOWN ? ` and ${boundaries.length - LINES_SHOWN} more` : '';
  return `${boundaries.length} compactions at ${file} (compact_boundary lines ${shown.join(', ')}${more}) have no transcript file (${looked}): ${COMPACTIONS_LEFT_OUT}; ${estimate}`;
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
 * Where the session transcript of a sub-agent or compaction transcript read on its own is (loneAgent.ts): a
 * file there but not given (`folder`: the folder that holds it), looked for and not there (`base`: the path
 * but for `.jsonl`), or not looked for (the file is in no `<session>/subagents/` folder nor names a session
 * beside it, or was read from standard input).
 */
export type SessionPlace = { file: string; folder: string } | { base: string } | { sessionId?: string; stdin: boolean };

/** Where the session transcript is, in words, and what to give. */
function sessionPlaceText(place: SessionPlace): string {
  if ('file' in place) return `${place.file} was not given; give it too, or ${place.folder}`;
  if ('base' in place) return `looked for as ${place.base}.jsonl or .jsonl.gz, not there; give it too`;
  return `${place.sessionId ?? '<session>'}.jsonl, not looked for: ${place.stdin ? 'the file was read from standard input' : 'the file is in no <session>/subagents/ folder'}; give it too`;
}

const LONE_SUBAGENT = 'a sub-agent transcript read on its own, ';
const SESSION_LEFT_OUT = "the session's own calls and their cost are left out of the totals";

/**
 * The note of a sub-agent transcript read without its session's: that transcript links it to the tool call
 * that started it and holds the billed output of its final response (the Task result's usage, which a
 * sub-agent's file may log short: resumedRuns.ts), and the session's own calls.
 */
export function loneSubagentNote(place: SessionPlace): string {
  return `${LONE_SUBAGENT}its session's transcript not read (${sessionPlaceText(place)}): nothing links it to the tool call that started it, its final response's output is as this file logged it (the session's Task result may report more), and ${SESSION_LEFT_OUT}`;
}

/** The code of the read of a compaction transcript without its session's (`loneCompaction`): the file is left out, not bad (copiesOnly.ts isLeftOutRead). */
export const COMPACTION_ALONE = 'compaction_alone';

/**
 * A compaction transcript read without its session's: its call is a paid call of the session's main agent,
 * counted with the session (sessionTree.ts), never a run of its own; read alone, the file is left out.
 */
export function loneCompaction(path: string, place: SessionPlace): UserError {
  return new UserError({
    file: path,
    code: COMPACTION_ALONE,
    message: `is a compaction transcript, its session's transcript not read (${sessionPlaceText(place)}): its call is that session's context compaction, a paid call of the session's main agent counted with it, never a run of its own`,
  });
}

/**
 * Whether an import note is one the commands warn of on standard error: a missing sub-agent or compaction
 * transcript, a sub-agent's session transcript not read, or lines of a response not read (`unreadLinesNote`).
 * Each leaves calls or usage out of every total.
 */
export function isMissingTranscriptNote(note: string): boolean {
  return (
    (note.startsWith('sub-agent ') && note.endsWith(`): ${LEFT_OUT}`)) ||
    (note.startsWith(LONE_SUBAGENT) && note.endsWith(SESSION_LEFT_OUT)) ||
    (note.startsWith('compaction at ') && note.includes(`) has no transcript file (`) && note.includes(`): ${COMPACTION_LEFT_OUT}; `)) ||
    (/^\d+ compactions at /.test(note) && note.includes(`) have no transcript file (`) && note.includes(`): ${COMPACTIONS_LEFT_OUT}; `)) ||
    note.endsWith(`(message.usage): ${UNREAD_LEFT_OUT}`)
  );
}

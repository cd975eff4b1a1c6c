/**
 * A Claude Code session and its sub-agents → native runs, one session tree at a time.
 *
 * `<project>/<session>.jsonl` is the main agent; `<project>/<session>/subagents/agent-<id>.jsonl` (2.1.x),
 * else `<project>/agent-<id>.jsonl` whose lines name the session (2.0.x: siblingAgents.ts) are the
 * sub-agents it started with the Task tool (linked by the progress lines `agent_progress` of the session,
 * `data.agentId` → `parentToolUseID`, or the Task result's `toolUseResult.agentId`), and
 * `agent-acompact-<id>.jsonl` the context-compaction calls, which become paid compaction calls of the main
 * agent at the time they were made. A sub-agent launched in the background (its Task result's
 * `toolUseResult.status` is `async_launched`, or — no result saying — the Task call asked
 * `run_in_background: true`) is marked `background` in its header: that call returned at launch. What
 * cannot be linked is imported with a note. A file so placed and named whose lines say it is another agent's
 * (`sessionId`, `agentId`, `isSidechain`) is refused (subagentOwner.ts), but a forked session's link to the
 * sub-agent of the session it was forked from is read (forkLinks.ts), or counted in that session's tree when the
 * walk reads it too. A warm-up agent (its prompt `Warmup`,
 * which Claude Code starts to fill the prompt cache, no Task call) is named `warmup-<id>` in its source.
 */
import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { ReadLimits } from '../../io/limits.js';
import { openInput, STDIN_LABEL } from '../../io/openInput.js';
import { readSmallTextFileSync } from '../../io/readInput.js';
import { lineBatches, type SourceLine } from '../../io/readLines.js';
import type { Trace } from '../../trace/types.js';
import { agentRuns, type AgentCall } from '../common/agentRuns.js';
import { consumeLineBatches, linesOfText } from '../common/jsonLines.js';
import { CLAUDE_CODE_AGENT_FILE as AGENT_FILE, sessionFileCandidates } from '../formats.js';
import { readTranscript, transcriptReader, type Transcript } from './transcript.js';
import type { ExpectedOwner } from './subagentOwner.js';
import type { UnreadLines } from './lineFields.js';
import { noModelCall } from '../importers.js';
import { missingCompactionNote, type TranscriptPlace } from './missingTranscript.js';
import { CLAUDE_CODE_FORMAT, linkOwners, MAIN, subagentRuns, type SubagentTranscript } from './subagentRuns.js';
import { namedSidechainAgents, sidechainRuns } from './sidechainRuns.js';
import { unansweredBoundaries } from './compactBoundaries.js';
import { compactionEstimate } from './compactionEstimate.js';
import { siblingAgentFiles } from './siblingAgents.js';
import { copiedCalls } from './copiedCalls.js';
import { sidechainNotInAgentFiles, withoutCopies } from './dropCopies.js';
import { copiesOnly } from './copiesOnly.js';
import { countedInForkedFromNote, forkLinkNote, forkLinkOf, linkedSessionInWalk, type ForkLink } from './forkLinks.js';
import { counted } from '../../plural.js';
import { asCompaction, isCompaction, loneAgentRuns } from './loneAgent.js';

export { CLAUDE_CODE_FORMAT, sessionFileCandidates };
const TRANSCRIPT_FILE = /\.jsonl(\.gz)?$/i;

/** The session id a session file is named after (`<id>.jsonl[.gz]`). */
function sessionIdOfName(path: string): string {
  return basename(path).replace(TRANSCRIPT_FILE, '');
}

/** The agent id a sub-agent file is named after (`agent-<id>.jsonl[.gz]`). */
function agentIdOfName(path: string): string {
  return AGENT_FILE.exec(basename(path))?.[1] ?? basename(path).replace(TRANSCRIPT_FILE, '');
}

/** Where a session file's sub-agent transcripts are: `<dir>/<session>/subagents`. */
function subagentsDirOf(sessionPath: string, sessionId: string): string {
  return join(dirname(sessionPath), sessionId, 'subagents');
}

/** The sub-agent transcripts of a session file: `<dir>/<session>/subagents/agent-*.jsonl[.gz]`, sorted. */
export function subagentFiles(sessionPath: string, sessionId: string): string[] {
  const dir = subagentsDirOf(sessionPath, sessionId);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => AGENT_FILE.test(name))
    .sort()
    .map((name) => join(dir, name));
}

/**
 * Compaction calls merged into the main agent's calls by start time (ties: the main agent's call first);
 * one without a start time goes after every call, as the merge below places it (sorted first, it held back
 * every timed insert behind it).
 */
export function mergeByStart(calls: AgentCall[], inserts: AgentCall[]): AgentCall[] {
  const startOf = (call: AgentCall) => call.startedAtMs ?? Infinity;
  const sorted = [...inserts].sort((a, b) => (startOf(a) === startOf(b) ? 0 : startOf(a) < startOf(b) ? -1 : 1));
  const merged: AgentCall[] = [];
  let k = 0;
  for (const call of calls) {
    while (k < sorted.length && call.startedAtMs !== undefined && startOf(sorted[k]!) < call.startedAtMs) merged.push(sorted[k++]!);
    merged.push(call);
  }
  while (k < sorted.length) merged.push(sorted[k++]!);
  return merged;
}

/** A sub-agent file of a session tree, and the sub-agent its place and name make it (its lines must agree: subagentOwner.ts). */
interface SubagentFile {
  file: string;
  owner: ExpectedOwner;
  /** Where it leads when it is a fork's link into another session's folder (forkLinks.ts). */
  link?: ForkLink;
}

function subagentTranscript({ file, link }: SubagentFile, transcript: Transcript): SubagentTranscript {
  const agentId = transcript.agentId ?? agentIdOfName(file);
  if (link !== undefined) transcript.notes.push(forkLinkNote(file, agentId, link));
  return { agentId, transcript };
}

/** The session's sub-agent file `file` in its own `subagents/` folder, read as `sessionId`'s (and as the linked session's, if it is a fork's link). */
function nestedFile(sessionId: string, file: string): SubagentFile {
  const owner: ExpectedOwner = { sessionId, agentId: agentIdOfName(file) };
  const link = forkLinkOf(file, sessionId);
  return link === undefined ? { file, owner } : { file, owner: { ...owner, linkedFrom: link.sessionId }, link };
}

/**
 * The sub-agent files of the session whose own transcript is `main` (none for a lone agent's, or standard
 * input's): its `subagents/` folder's (2.1.x), then those beside it that name it (2.0.x), an id found in both once.
 */
function subagentFilesOf(path: string, main: Transcript, walk?: readonly string[]): SubagentFile[] {
  if (main.agentId !== undefined || path === STDIN_LABEL || readWithItsOwnFile(path, main, walk)) return [];
  const folderSession = main.sessionId ?? sessionIdOfName(path);
  const nested = subagentFiles(path, folderSession);
  const found = new Set(nested.map(agentIdOfName));
  const beside = siblingAgentFiles(path, sessionIdOfName(path)).filter((file) => !found.has(agentIdOfName(file)));
  const besideId = sessionIdOfName(path);
  return [...nested.map((file) => nestedFile(folderSession, file)), ...beside.map((file): SubagentFile => ({ file, owner: { sessionId: besideId, agentId: agentIdOfName(file) } }))];
}

/**
 * The sub-agent files a tree reads, and those it leaves to another file of the walk (agent id → that file): a
 * fork's link to the sub-agent of the session it was forked from, whose file the walk reads too (its tree reads the transcript).
 */
function countedElsewhere(files: SubagentFile[], walk: readonly string[] | undefined): { read: SubagentFile[]; elsewhere: Map<string, string> } {
  const elsewhere = new Map<string, string>();
  const read = files.filter((entry) => {
    const holder = entry.link === undefined ? undefined : linkedSessionInWalk(entry.link, walk);
    if (holder !== undefined) elsewhere.set(entry.owner.agentId, holder);
    return holder === undefined;
  });
  return { read, elsewhere };
}

/**
 * Whether the session a file's lines name is another file's of the walk (a resumed session's copy that kept
 * the old session's id): its sub-agents are that file's, read with it, not once more with this one.
 */
function readWithItsOwnFile(path: string, main: Transcript, walk: readonly string[] | undefined): boolean {
  const sessionId = main.sessionId;
  if (walk === undefined || sessionId === undefined || sessionId === sessionIdOfName(path)) return false;
  const base = resolve(dirname(path), sessionId);
  return walk.some((file) => resolve(file) === `${base}.jsonl` || resolve(file) === `${base}.jsonl.gz`);
}

/**
 * The runs of one session tree, its session file's lines held in memory (a text): the sub-agents' files
 * beside it are read whole, each at most the default --max-line-mb.
 */
export function importClaudeCodeSession(path: string, lines: Iterable<SourceLine>): Trace[] {
  const main = readTranscript(lines, path);
  const agents = subagentFilesOf(path, main).map((entry) => subagentTranscript(entry, readTranscript(linesOfText(readSmallTextFileSync(entry.file)), entry.file, entry.owner)));
  return sessionTreeRuns(path, main, agents);
}

/** The runs of one session tree, every transcript read line by line as it arrives, with the read limits. */
export async function importClaudeCodeStream(path: string, batches: AsyncIterable<SourceLine[]>, limits: ReadLimits, walk?: readonly string[]): Promise<Trace[]> {
  const read = await consumeLineBatches(batches, transcriptReader(path));
  // The walk's other session files are scanned only once this one is read whole (a bad line is refused first).
  const main = withoutCopies(read, await copiedCalls(path, walk, limits));
  const agents: SubagentTranscript[] = [];
  const { read: files, elsewhere } = countedElsewhere(subagentFilesOf(path, main, walk), walk);
  for (const entry of files) {
    const input = await openInput(entry.file, limits);
    try {
      agents.push(subagentTranscript(entry, await consumeLineBatches(lineBatches(input, limits.maxLineBytes), transcriptReader(entry.file, entry.owner))));
    } finally {
      await input.close();
    }
  }
  return sessionTreeRuns(path, main, agents, elsewhere);
}

/** The note on the main agent of the compactions its transcript records that no compaction call answers (compactBoundaries.ts), if any. */
function missingCompactionNotes(path: string, main: Transcript, compactions: readonly SubagentTranscript[], place: TranscriptPlace): string[] {
  const starts = [...compactions.filter((agent) => agent.transcript.calls.length > 0).map((agent) => agent.transcript.calls[0]!.startedAtMs), ...main.calls.filter((call) => call.record.compaction).map((call) => call.startedAtMs)];
  const boundaries = unansweredBoundaries(main.compactBoundaries, starts);
  return boundaries.length === 0 ? [] : [missingCompactionNote({ file: basename(path), boundaries, place, estimate: compactionEstimate(boundaries) })];
}

/**
 * The runs of one session tree: the main agent's parts, then each sub-agent's, in the order they started
 * (`elsewhere`: sub-agents whose transcript another file's tree counts, countedElsewhere: no missing-transcript note).
 */
function sessionTreeRuns(path: string, main: Transcript, agents: SubagentTranscript[], elsewhere: ReadonlyMap<string, string> = new Map()): Trace[] {
  if (main.agentId !== undefined) return loneAgentRuns(main, path);
  const sessionId = main.sessionId ?? sessionIdOfName(path);
  const mainNotes = [...main.notes];
  const place: TranscriptPlace = path === STDIN_LABEL ? {} : { subagentsDir: subagentsDirOf(path, sessionId), siblingDir: dirname(path) };
  const compactions = agents.filter((agent) => isCompaction(agent.agentId));
  const subagents = agents.filter((agent) => !isCompaction(agent.agentId));
  const sidechain = sidechainNotInAgentFiles(main, subagents);
  const fileAgents = new Set(agents.map((agent) => agent.agentId));
  const owners = linkOwners(main, agents, mainNotes, place, new Set([...namedSidechainAgents(sidechain.calls, fileAgents), ...elsewhere.keys()]));
  let calls: AgentCall[] = main.calls;
  for (const { agentId, transcript } of compactions) {
    calls = mergeByStart(calls, asCompaction(transcript.calls));
    mainNotes.push(...transcript.notes.map((note) => `compaction ${agentId}: ${note}`));
  }
  if (compactions.length > 0) {
    const count = compactions.reduce((sum, agent) => sum + agent.transcript.calls.length, 0);
    mainNotes.push(`${counted(count, 'context-compaction call')} (${compactions.map((a) => `agent-${a.agentId}`).join(', ')}) merged in as paid compaction calls`);
  }
  mainNotes.push(...missingCompactionNotes(path, main, compactions, place));
  if (sidechain.note !== undefined) mainNotes.push(sidechain.note);
  const forkNote = countedInForkedFromNote(elsewhere);
  if (forkNote !== undefined) mainNotes.push(forkNote);
  const runs = agentRuns({
    format: CLAUDE_CODE_FORMAT,
    path,
    sourceBase: path,
    label: MAIN,
    agent: { sessionId, agentId: MAIN, kind: 'main' },
    calls,
    notes: mainNotes,
  });
  runs.push(...sidechainRuns({ path, sessionId, main, calls: sidechain.calls, fileAgents, owners }));
  runs.push(...subagentRuns(path, sessionId, subagents, owners));
  if (runs.length === 0 && main.unread !== undefined) throw noModelCall(path, unreadWhy(main.unread));
  // Every call copied from another file of the walk, which counts it: no run, not a file of no model call.
  if (runs.length === 0 && main.copiedTo !== undefined) throw copiesOnly(path, main.copiedTo);
  return runs;
}

/** Why a session of no call read holds none: its responses are on lines of a type loopcost does not read. */
function unreadWhy({ count, line, type }: UnreadLines): string {
  return ` loopcost reads (${count === 1 ? `line ${line}` : `${count} lines, the first line ${line},`} of type ${type}, no Claude Code line type it reads, carr${count === 1 ? 'ies' : 'y'} a model response's usage: not read)`;
}

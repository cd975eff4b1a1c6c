/**
 * A sub-agent file of a forked Claude Code session that is a link to the session it was forked from.
 * When a session forks (`SessionStart:fork`, its id rotated; v2.1.216, anthropics/claude-code#79764),
 * Claude Code symlinks the transcripts of the sub-agents still running into the new session's
 * `subagents/` folder: `<new>/subagents/agent-<id>.jsonl` → `<old>/subagents/agent-<id>.jsonl`, whose lines
 * keep the old session's `sessionId` (a sub-agent done before the fork is not carried over; a copy is never
 * made). Such a file is read as the new session's sub-agent (subagentOwner.ts accepts the old id on it),
 * except when the walk also reads the old session's file, whose tree reads the same transcript: then it
 * is counted there once (sessionTree.ts), and the old session's file keeps the calls both files hold
 * (copiedCalls.ts rule 3: a link into another session's folder is not a transcript where its session keeps it).
 * The file system is asked here (lstat, realpath, stat), not in the checks that use the answer.
 */
import { lstatSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** Where a linked sub-agent file leads: the session whose `subagents/` folder holds its target, and the target. */
export interface ForkLink {
  sessionId: string;
  target: string;
}

/**
 * The link a sub-agent file of session `folderSession` is, when it is a symlink to a file of the same name in
 * another session's `subagents/` folder (`<dir>/<session>/subagents/agent-<id>.jsonl[.gz]`); undefined for any other file.
 */
export function forkLinkOf(file: string, folderSession: string): ForkLink | undefined {
  let target: string;
  try {
    if (!lstatSync(file).isSymbolicLink()) return undefined;
    target = realpathSync(file);
  } catch {
    return undefined; // gone or dangling: its own read says so
  }
  const folder = dirname(target);
  const sessionId = basename(dirname(folder));
  if (basename(folder) !== 'subagents' || basename(target) !== basename(file) || sessionId === folderSession) return undefined;
  return { sessionId, target };
}

/** Whether two paths name one file (same device and inode); false when either is not there. */
function sameFile(a: string, b: string): boolean {
  try {
    const [x, y] = [statSync(a), statSync(b)];
    return x.dev === y.dev && x.ino === y.ino;
  } catch {
    return false;
  }
}

/** The walk's file that is the session file of the session a link leads into (`<dir>/<session>.jsonl[.gz]` beside its folder), if the walk holds it. */
export function linkedSessionInWalk(link: ForkLink, walk: readonly string[] | undefined): string | undefined {
  if (walk === undefined) return undefined;
  const base = join(dirname(dirname(dirname(link.target))), link.sessionId);
  const candidates = [`${base}.jsonl`, `${base}.jsonl.gz`];
  return walk.find((file) => candidates.some((candidate) => sameFile(file, candidate)));
}

/** The note on a sub-agent read through such a link: whose transcript it is, and why it is read here. */
export function forkLinkNote(file: string, agentId: string, link: ForkLink): string {
  return `${basename(file)} is a link to sub-agent ${agentId}'s transcript in session ${link.sessionId}'s subagents/ folder, the session this one was forked from (Claude Code links a sub-agent still running at a fork into the new session's folder; its lines keep the old session's id): read as this session's sub-agent`;
}

/** The note on the main agent of a session whose linked sub-agents another file of the walk counts (`skipped`: agent ids by that file). */
export function countedInForkedFromNote(skipped: ReadonlyMap<string, string>): string | undefined {
  if (skipped.size === 0) return undefined;
  const byFile = new Map<string, string[]>();
  for (const [agentId, file] of skipped) byFile.set(file, [...(byFile.get(file) ?? []), agentId]);
  return [...byFile]
    .map(([file, agentIds]) => `sub-agent${agentIds.length === 1 ? '' : 's'} ${agentIds.join(', ')} of this session ${agentIds.length === 1 ? 'is a link' : 'are links'} to the transcript${agentIds.length === 1 ? '' : 's'} of the session this one was forked from, whose file ${basename(file)} is read too: counted in its tree once, not here`)
    .join('; ');
}

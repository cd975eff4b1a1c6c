/**
 * Runs that are parts of session trees (an agent and its sub-agents, or an agent's calls split over several
 * runs: a Claude Code session's main.1, main.2 and agent-…), read as runs of their own without `--tree`:
 * how many (SessionParts, the one count every command makes) and the warning that says what that does to a
 * report's figures and how to see the sessions (sessionPartsWarnings).
 */
import { counted } from '../plural.js';
import type { ReportWarning } from './warnings.js';

/** Runs per session tree, counted run by run; a run that is no part of a tree (no `header.agent`) counts nowhere. */
export class SessionParts {
  private readonly runsBySession = new Map<string, number>();

  /** One run, by the session tree it is a part of (`header.agent.sessionId`), if any. */
  add(sessionId: string | undefined): void {
    if (sessionId !== undefined) this.runsBySession.set(sessionId, (this.runsBySession.get(sessionId) ?? 0) + 1);
  }

  /** Each run of `runs` (their headers). */
  static of(runs: Iterable<{ header: { agent?: { sessionId: string } } }>): SessionParts {
    const parts = new SessionParts();
    for (const run of runs) parts.add(run.header.agent?.sessionId);
    return parts;
  }

  /** Runs that are parts of a session tree of more than one run, and those sessions. */
  parts(): { runs: number; sessions: number } {
    const split = [...this.runsBySession.values()].filter((runs) => runs > 1);
    return { runs: split.reduce((a, b) => a + b, 0), sessions: split.length };
  }
}

/** What a command's report does with the parts, for the warning's words. */
export interface PartsSaid {
  /** Brakes bind each part on its own (any brake set, no `--tree`). Default: true. */
  braked?: boolean;
  /** The figures that count each part as a run or a task (`cost per run and per completed task`), if the report shows any. */
  figures?: string;
  /** How to see each session as one run; default: `--tree` (the command has it). */
  remedy?: string;
}

const TREE_REMEDY = '--tree replays each session as one loop under the brakes';

/**
 * Runs that are parts of session trees, replayed as runs of their own: each brake binds each part on its
 * own, so a session can spend past a budget its parts each keep to; and a figure per run or per task counts
 * each part as one. Said with the way to see each session as one run.
 */
export function sessionPartsWarnings(parts: { runs: number; sessions: number }, said: PartsSaid = {}): ReportWarning[] {
  if (parts.sessions === 0) return [];
  const braked = said.braked !== false;
  if (!braked && said.figures === undefined) return [];
  const what = [
    ...(braked ? ['each brake binds each part on its own, not the session'] : []),
    ...(said.figures === undefined ? [] : [`${said.figures} count each part as one, not each session`]),
  ].join(', and ');
  return [
    {
      code: 'session_parts',
      message:
        `${counted(parts.runs, 'run')} ${parts.runs === 1 ? 'is a part' : 'are parts'} of ${counted(parts.sessions, 'session tree')} (an agent and its sub-agents, or an agent's calls over several runs): ` +
        `${what}; ${said.remedy ?? (braked ? TREE_REMEDY : '--tree replays each session as one loop, one task')}`,
    },
  ];
}

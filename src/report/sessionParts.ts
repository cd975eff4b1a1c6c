/**
 * Runs that are parts of session trees (an agent and its sub-agents, or an agent's calls split over several
 * runs: a Claude Code session's main.1, main.2 and agent-…), read as runs of their own without `--tree`:
 * how many (SessionParts, the one count every command makes) and the warning that says what that does to a
 * report's figures and how to see the sessions (sessionPartsWarnings), and what a recommendation picked on
 * such figures says of them (sessionPartsRecommendation).
 */
import { counted } from '../plural.js';
import type { ReportWarning } from './warnings.js';

/** Runs per session tree as plain data (a worker thread sends it): [session id, runs], in the order first seen. */
export type SessionRuns = [sessionId: string, runs: number][];

/** Runs per session tree, counted run by run; a run that is no part of a tree (no `header.agent`) counts nowhere. */
export class SessionParts {
  private readonly runsBySession = new Map<string, number>();

  /** One run, by the session tree it is a part of (`header.agent.sessionId`), if any. */
  add(sessionId: string | undefined, runs = 1): void {
    if (sessionId !== undefined) this.runsBySession.set(sessionId, (this.runsBySession.get(sessionId) ?? 0) + runs);
  }

  /** Runs counted apart (another unit's, another thread's: `counted()`), added: a session's parts read apart count as one session. */
  addCounted(counted: SessionRuns | undefined): this {
    for (const [sessionId, runs] of counted ?? []) this.add(sessionId, runs);
    return this;
  }

  /** What it counted, as plain data; undefined: no run is a part of a session tree. */
  counted(): SessionRuns | undefined {
    return this.runsBySession.size === 0 ? undefined : [...this.runsBySession];
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
  /** The figures that count each part as a run or a task (`cost per run and per completed run`), if the report shows any. */
  figures?: string;
  /** How to see each session as one run; default: `--tree` (the command has it). */
  remedy?: string;
}

const TREE_REMEDY = '--tree replays each session as one loop under the brakes';

/** What the warning says brakes do to parts (and sessionPartsRecommendation reads back). */
const BRAKED_WORDS = 'each brake binds each part on its own, not the session';

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
    ...(braked ? [BRAKED_WORDS] : []),
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

/**
 * What a recommendation of brakes (sweep's, picked on figures that count each part as a run) says where its
 * report warns of session parts (`warnings`, a sweep's header's: a merge of shards reads the same): over whole
 * sessions it may complete fewer and spend more, and the way to pick for sessions; undefined: no such warning.
 */
export function sessionPartsRecommendation(warnings: readonly ReportWarning[]): string | undefined {
  const warning = warnings.find((w) => w.code === 'session_parts');
  if (warning === undefined) return undefined;
  const braked = warning.message.includes(BRAKED_WORDS) ? ', each of its brakes (a budget too) binding each part on its own, not the session' : '';
  return `Session parts: its figures count each part of a session tree as a run of its own${braked}: over whole sessions it may complete fewer and cost more; sweep --tree picks brakes for whole sessions.`;
}

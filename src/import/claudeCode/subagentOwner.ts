/**
 * Whose transcript a sub-agent file read with its session is (sessionTree.ts). A file the session tree finds
 * by its place and name — `<session>/subagents/agent-<id>.jsonl[.gz]` (2.1.x), or `agent-<id>.jsonl[.gz]`
 * beside the session naming it (2.0.x) — is counted as sub-agent `<id>` of that session, so every line of it
 * that says whose it is must agree: `sessionId` the session's, `agentId` the `<id>` of its name (a compaction's:
 * `acompact-…`), `isSidechain` true. Claude Code writes all three on every line of such a file (the real
 * sessions of ../shared: every line of their four files; 2.0.x: test/fixtures/claude-code-20/README.md); a
 * line lacking one is not held to it. Another file under that name — the session's own transcript copied
 * there (counted twice), another session's sub-agent, an id edited — is refused (UserError, exit 2), each
 * field that disagrees at the first line it does, with what the file holds instead: it would otherwise be
 * counted as this sub-agent while the Task call that started it is warned of as having no transcript. A
 * sub-agent file read on its own is held to none of this (its lines say whose it is). One exception: a file
 * that is a link into another session's `subagents/` folder (forkLinks.ts: Claude Code links a sub-agent still
 * running at a fork into the new session's folder) may carry that session's `sessionId`; `agentId` and
 * `isSidechain` are held to its name as ever, and a copy (no link) is held to the session's id.
 */
import type { LineIssues } from '../common/jsonLines.js';
import { shortText } from '../common/text.js';
import { agentIdOf } from './sidechainKeys.js';

/** The sub-agent a file is read as: its session and its agent id (from its name). */
export interface ExpectedOwner {
  sessionId: string;
  agentId: string;
  /** The session whose `subagents/` folder the file is a link into (a fork's link, forkLinks.ts): its id is accepted too. */
  linkedFrom?: string;
}

type OwnerField = 'isSidechain' | 'agentId' | 'sessionId';

/** The value a line's field gives that is not the expected owner's, if any (a field absent, or of another type, says nothing). */
function disagreement(field: OwnerField, value: Record<string, unknown>, owner: ExpectedOwner): string | undefined {
  if (field === 'isSidechain') return value.isSidechain === false ? 'false' : undefined;
  const found = field === 'agentId' ? agentIdOf(value) : typeof value.sessionId === 'string' ? value.sessionId : undefined;
  if (found === undefined || found === owner[field] || (field === 'sessionId' && found === owner.linkedFrom)) return undefined;
  return JSON.stringify(shortText(found));
}

/** What a line says it is: the session's own transcript (a main-chain line), or which sub-agent of which session. */
function holderOf(value: Record<string, unknown>, owner: ExpectedOwner): string {
  const session = typeof value.sessionId === 'string' ? shortText(value.sessionId) : owner.sessionId;
  if (value.isSidechain === false) return `session ${session}'s own transcript (a main-chain line)`;
  return `sub-agent ${shortText(agentIdOf(value) ?? owner.agentId)} of session ${session}`;
}

const FIELDS: readonly OwnerField[] = ['isSidechain', 'agentId', 'sessionId'];

/** Checks each line of one sub-agent file against the sub-agent it is read as; each field's first disagreement is an issue of the file. */
export class OwnerCheck {
  private readonly reported = new Set<OwnerField>();

  constructor(
    private readonly owner: ExpectedOwner,
    private readonly issues: LineIssues,
  ) {}

  read(line: number, value: Record<string, unknown>): void {
    for (const field of FIELDS) {
      if (this.reported.has(field)) continue;
      const found = disagreement(field, value, this.owner);
      if (found === undefined) continue;
      this.reported.add(field);
      const { agentId, sessionId } = this.owner;
      this.issues.add(
        line,
        field,
        'not_this_subagent',
        `${field} is ${found}: the file holds ${holderOf(value, this.owner)}, not sub-agent ${agentId} of session ${sessionId}, whose file its name and place make it`,
        `restore the agent-${agentId}.jsonl that session ${sessionId} wrote, or remove this file: the sub-agent's calls are then warned of as left out`,
      );
    }
  }
}

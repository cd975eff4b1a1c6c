/** What one Claude Code transcript file holds once read (transcript.ts): its agent's calls and what links it to other agents. */
import type { AgentCall } from '../common/agentRuns.js';
import type { UnreadLines } from './lineFields.js';
import type { CopiedTo } from './copiesOnly.js';

/** A sub-agent started by a tool call of this transcript's agent. */
export interface SubagentLink {
  toolUseId: string;
  line: number;
  /** Output tokens of the sub-agent's final response, as its Task result reports them. */
  finalOutputTokens?: number;
  /** It ran in the background: its Task result says `async_launched`, or (no result saying) the call asked `run_in_background`. */
  background?: boolean;
}

export interface Transcript {
  path: string;
  sessionId?: string;
  /** `agentId` its lines carry: set in sub-agent and compaction transcripts, absent in a session's own. */
  agentId?: string;
  calls: AgentCall[];
  /** Calls of `isSidechain` lines in a session's own transcript (older Claude Code wrote sub-agents there). */
  sidechainCalls: AgentCall[];
  /** Sub-agent id → the tool call that started it (progress lines, Task results). */
  links: Map<string, SubagentLink>;
  /** Its first prompt is `Warmup`: a warm-up agent, which Claude Code starts to fill the prompt cache, with no Task call. */
  warmup?: true;
  notes: string[];
  /** Its lines of no known type that carry a response's usage (not read: noted), when it has some. */
  unread?: UnreadLines;
  /** Its calls another session file of the walk keeps (dropCopies.ts withoutCopies), by that file: none when absent. */
  copiedTo?: CopiedTo[];
}

/** What one Claude Code transcript file holds once read (transcript.ts): its agent's calls and what links it to other agents. */
import type { AgentCall } from '../common/agentRuns.js';
import type { UnreadLines } from './lineFields.js';
import type { CopiedTo } from './copiesOnly.js';

/** A Task result's `toolUseResult.usage`: the billed usage of the sub-agent's final response of that run. */
export interface ReportedUsage {
  input: number;
  cacheWrite: number;
  cacheRead: number;
  output: number;
  /** The line of the Task result. */
  line: number;
}

/** A tool call of this transcript's agent that started (or resumed: `Task({resume})`, `SendMessage`) a sub-agent. */
export interface SubagentLink {
  toolUseId: string;
  line: number;
  /** When the tool call was made (its tool_use line), when dated. */
  atMs?: number;
  /** The usage the Task result reports for the sub-agent's final response of the run this call started. */
  reported?: ReportedUsage;
  /** It ran in the background: its Task result says `async_launched`, or (no result saying) the call asked `run_in_background`. */
  background?: boolean;
}

/** A model call of a transcript: the user turn it answers, and (a sidechain line of a session's own transcript) its sub-agent. */
export interface TranscriptCall extends AgentCall {
  /** How many user prompts of its chain came before it: a sub-agent's run a Task call started or resumed opens with one. */
  turn: number;
  /** Which sub-agent of the session's sidechain lines made it (its `agentId`, else `#<n>` in the order they started). */
  sidechainAgent?: string;
}

/** A `compact_boundary` system line of the main chain: Claude Code compacted the conversation there. */
export interface CompactBoundary {
  line: number;
  atMs?: number;
  /** `compactMetadata.preTokens`: the conversation's tokens when it compacted (about the compaction call's prompt). */
  preTokens?: number;
  /** `compactMetadata.trigger` (`auto`, `manual`). */
  trigger?: string;
  /** The summary the compaction wrote (its `isCompactSummary` user line), counted with the Claude tokenizer, and its line. */
  summary?: { tokens: number; line: number };
  /** The model of the main chain's next call (`modelAfter`), else of its previous one. */
  model?: string;
  modelAfter?: true;
}

export interface Transcript {
  path: string;
  sessionId?: string;
  /** `agentId` its lines carry: set in sub-agent and compaction transcripts, absent in a session's own. */
  agentId?: string;
  calls: TranscriptCall[];
  /** Calls of `isSidechain` lines in a session's own transcript (older Claude Code wrote sub-agents there). */
  sidechainCalls: TranscriptCall[];
  /** The first prompt of each sub-agent of those sidechain lines (by `sidechainAgent`). */
  sidechainPrompts: Map<string, string>;
  /** Sub-agent id → the tool calls that started or resumed it, in the order they were made (progress lines, Task results). */
  links: Map<string, SubagentLink[]>;
  /** Where the main chain was compacted (`compact_boundary` lines). */
  compactBoundaries: CompactBoundary[];
  /** Its first prompt is `Warmup`: a warm-up agent, which Claude Code starts to fill the prompt cache, with no Task call. */
  warmup?: true;
  notes: string[];
  /** Its lines of no known type that carry a response's usage (not read: noted), when it has some. */
  unread?: UnreadLines;
  /** Its calls another session file of the walk keeps (dropCopies.ts withoutCopies), by that file: none when absent. */
  copiedTo?: CopiedTo[];
}

/**
 * Importer for Claude Code transcripts (`~/.claude/projects/<project>/<session>.jsonl`, with the session's
 * sub-agents under `<session>/subagents/`, or beside it as `agent-<id>.jsonl` in Claude Code 2.0.x).
 * Detected by content: JSON lines whose `type` is one of Claude Code's line types and that carry its
 * session fields.
 *
 * The work is split under claudeCode/ (common/jsonLines.ts reads the JSON lines: a cut last line is a
 * note): lineFields.ts what one line says, transcript.ts one file's calls, sessionTree.ts a session and its
 * sub-agents as runs (common/agentRuns.ts cuts an agent's calls into runs; loneAgent.ts a sub-agent's or
 * compaction's file given without its session's), siblingAgents.ts which 2.0.x
 * sub-agent files beside a session are its, subagentOwner.ts that each sub-agent file's lines are that sub-agent's. usage.ts reads a response's usage (a null count is refused at its
 * field), billingNotes.ts says what bills beyond the token prices (web searches, fast mode, US-only
 * inference), imageTokens.ts estimates an image a tool returned; copiedCalls.ts and dropCopies.ts count once
 * a call that a resumed or forked session's file (walkSiblings.ts: the walk's session files of one folder)
 * or a session's sidechain lines hold again.
 */
import { linesOfText } from './common/jsonLines.js';
import type { Trace } from '../trace/types.js';
import { importClaudeCodeSession } from './claudeCode/sessionTree.js';

export { CLAUDE_CODE_FORMAT, importClaudeCodeStream, sessionFileCandidates, subagentFiles } from './claudeCode/sessionTree.js';
export { importClaudeCodeSession };

export { looksLikeClaudeCodeLine } from './formats.js';

/** A session (and its sub-agents, read from beside `path`) held as text. */
export function importClaudeCodeText(text: string, path: string): Trace[] {
  return importClaudeCodeSession(path, linesOfText(text));
}

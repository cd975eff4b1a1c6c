/**
 * Importer for Codex CLI rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`), detected by
 * content: JSON lines `{timestamp, type, payload}` whose `type` is a rollout item type. A rollout is one
 * agent (`main`, or a spawned sub-agent linked to its parent thread: agentOf below); its calls become one
 * run per part (common/agentRuns.ts: a user turn that ended, a model switch). codex/rolloutLines.ts reads
 * what one line says, codex/readRollout.ts the session's calls.
 *
 * The line shapes follow openai/codex's own definitions (`RolloutLine`, `RolloutItem`, `ResponseItem`,
 * `TokenCountEvent`, and the rollout-line deserialization tests of codex-rs/protocol/src/protocol.rs);
 * rollouts written before Codex persisted `token_count` events (autumn 2025) carry no usage and are not read.
 */
import { basename } from 'node:path';
import type { SourceLine } from '../io/readLines.js';
import { consumeLineBatches, linesOfText } from './common/jsonLines.js';
import type { Trace } from '../trace/types.js';
import { agentRuns, type AgentRunsSpec } from './common/agentRuns.js';
import { readRollout, rolloutReader, type Rollout } from './codex/readRollout.js';
import type { SpawnedBy } from './codex/rolloutLines.js';

export { looksLikeCodexRolloutLine } from './codex/rolloutLines.js';

export const CODEX_FORMAT = 'codex';

/** A rollout's runs, from its lines held in memory. */
export function importCodexRollout(path: string, lines: Iterable<SourceLine>): Trace[] {
  return rolloutRuns(path, readRollout(lines, path));
}

/** A rollout's runs, its lines read as they arrive (batches of src/io/readLines.ts). */
export async function importCodexStream(path: string, batches: AsyncIterable<SourceLine[]>): Promise<Trace[]> {
  return rolloutRuns(path, await consumeLineBatches(batches, rolloutReader(path)));
}

/**
 * A rollout's place in its session tree. The main thread's rollout is the tree's `main` agent, its thread
 * id the session. A spawned sub-agent's rollout names its parent thread (session_meta's `thread_spawn`):
 * at depth 1 the parent is the main agent and its thread the session; deeper, the parent is a sub-agent,
 * whose thread id is its agent id, and the tree joins it there (src/tree/group.ts). The parent's
 * `spawn_agent` call names the sub-agent's thread (`startedAgentId`), which links the call. It returns
 * at launch (codex-rs multi_agents.rs: its output is the new thread's id) and the parent waits for the
 * thread later with `wait`, so the sub-agent ran in the background (`background: true`, as Claude Code's
 * `async_launched` Task result): its stop by a brake ends no call of its parent.
 */
function agentOf(threadId: string, spawnedBy: SpawnedBy | undefined): { agent: AgentRunsSpec['agent']; label: string } {
  if (spawnedBy === undefined) return { agent: { sessionId: threadId, agentId: 'main', kind: 'main' }, label: 'main' };
  const parentAgentId = spawnedBy.depth <= 1 ? 'main' : spawnedBy.parentThreadId;
  // spawn_agent returns at once (`{"agent_id"}`) and the parent waits later (`wait`): the sub-agent runs in the background.
  return { agent: { sessionId: spawnedBy.parentThreadId, agentId: threadId, kind: 'subagent', parentAgentId, background: true }, label: `agent-${spawnedBy.nickname ?? threadId}` };
}

function rolloutRuns(path: string, rollout: Rollout): Trace[] {
  const threadId = rollout.sessionId ?? basename(path).replace(/\.jsonl(\.gz)?$/i, '');
  const { agent, label } = agentOf(threadId, rollout.spawnedBy);
  return agentRuns({
    format: CODEX_FORMAT,
    path,
    sourceBase: path,
    label,
    agent,
    calls: rollout.calls,
    notes: rollout.notes,
  });
}

export function importCodexText(text: string, path: string): Trace[] {
  return importCodexRollout(path, linesOfText(text));
}

/**
 * Importer for Codex CLI rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`), detected by
 * content: JSON lines `{timestamp, type, payload}` whose `type` is a rollout item type. A rollout is one
 * agent (`main`); its calls become one run per part (common/agentRuns.ts: a user turn that ended, a model
 * switch). codex/rolloutLines.ts reads what one line says, codex/readRollout.ts the session's calls.
 *
 * The line shapes follow openai/codex's own definitions (`RolloutLine`, `RolloutItem`, `ResponseItem`,
 * `TokenCountEvent`, and the rollout-line deserialization tests of codex-rs/protocol/src/protocol.rs);
 * rollouts written before Codex persisted `token_count` events (autumn 2025) carry no usage and are not read.
 */
import { basename } from 'node:path';
import type { SourceLine } from '../io/readLines.js';
import { consumeLineBatches, linesOfText } from './common/jsonLines.js';
import type { Trace } from '../trace/types.js';
import { agentRuns } from './common/agentRuns.js';
import { readRollout, rolloutReader, type Rollout } from './codex/readRollout.js';

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

function rolloutRuns(path: string, rollout: Rollout): Trace[] {
  const sessionId = rollout.sessionId ?? basename(path).replace(/\.jsonl(\.gz)?$/i, '');
  return agentRuns({
    format: CODEX_FORMAT,
    path,
    sourceBase: path,
    label: 'main',
    agent: { sessionId, agentId: 'main', kind: 'main' },
    calls: rollout.calls,
    notes: rollout.notes,
    ...(rollout.finalStatus !== undefined ? { finalStatus: rollout.finalStatus } : {}),
  });
}

export function importCodexText(text: string, path: string): Trace[] {
  return importCodexRollout(path, linesOfText(text));
}

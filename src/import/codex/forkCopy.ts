/**
 * The history a forked Codex rollout opens with. `codex fork` (and a fork from an edited earlier prompt)
 * and a sub-agent spawned with its parent's context (spawn_agent's fork modes) start a thread from the
 * parent's rollout items (`InitialHistory::Forked`): the new rollout writes its own session_meta, whose
 * `forked_from_id` names the parent, then persists the parent's items as they were — the parent's own
 * session_meta (and, for a fork of a fork, its ancestors'), its messages, turn contexts and events,
 * token_counts included — at once, each line stamped when it is written (codex-rs core
 * `record_initial_history`, agent/control/spawn.rs `spawn_forked_thread`; openai/codex#35003, #21025).
 * The thread's usage is seeded from the copy's last token_count, so its own running totals go on from there.
 *
 * The copied token_counts are the parent's calls (metered in the parent's rollout), not calls this thread
 * made: the copy is read for what it sets (the model, the running total, the service tier, the prompt)
 * and none of its calls is metered; the thread's first call still carries that context in its prompt, as
 * its own token_count says.
 *
 * Where the copy ends is not written down. It starts after the rollout's own session_meta when that names
 * `forked_from_id`, or at a session_meta of another thread met before the rollout's first call (a copy
 * whose own session_meta does not say so). It runs while each line comes within BURST_MS of the line
 * before (the copy is written in one burst, milliseconds for thousands of lines) or carries a time before
 * the fork (a copy that kept its parent's times). The first line after a longer pause ends it for good: at
 * the latest the thread's first model output, which waits for a model call. The thread's own first prompt
 * lines may fall inside the burst; they set the prompt, and a copied line is never metered. A first
 * response that came back within BURST_MS of the line before it would be read as copied.
 */
import { counted } from '../../plural.js';
import type { JsonObject } from '../common/jsonValue.js';

/** The longest pause between two lines of one copy burst (ccusage and t3code end a fork's replay at a 1 s gap too). */
export const BURST_MS = 1000;

type CopyState = 'watching' | 'copying' | 'done';

/** The rollout's copied history as it is read: which lines are copied, and how many copied calls were not metered. */
export class ForkCopy {
  private state: CopyState = 'watching';
  private ownThread: string | undefined;
  private forkMs: number | undefined;
  private previousMs: number | undefined;
  /** The thread the copy came from (`forked_from_id`, else the first other thread's session_meta). */
  private fromThread: string | undefined;
  private firstLine: number | undefined;
  /** The line of the last copied call's token_count. */
  private lastCallLine: number | undefined;
  /** Copied token_counts whose running total moved: the parent's calls, not metered here. */
  private copiedCalls = 0;

  /** Whether line `line` (of `type`, written at `atMs`) is part of the copied history. */
  copied(line: number, type: unknown, payload: JsonObject, atMs: number | undefined): boolean {
    const copied = this.classify(type, payload, atMs);
    if (atMs !== undefined) this.previousMs = atMs;
    if (copied) this.firstLine ??= line;
    return copied;
  }

  /** A copied token_count whose running total moved (at `line`): a call of the parent's. */
  copiedCall(line: number): void {
    this.copiedCalls += 1;
    this.lastCallLine = line;
  }

  /** The rollout metered a call of its own: a copy can no longer begin. */
  ownCall(): void {
    if (this.state === 'watching') this.state = 'done';
  }

  private classify(type: unknown, payload: JsonObject, atMs: number | undefined): boolean {
    if (this.state === 'done') return false;
    if (this.state === 'copying') {
      const inBurst = atMs === undefined || this.previousMs === undefined || atMs - this.previousMs <= BURST_MS || (this.forkMs !== undefined && atMs < this.forkMs);
      if (!inBurst) this.state = 'done';
      return inBurst;
    }
    if (type !== 'session_meta') return false;
    const thread = threadOf(payload);
    if (this.ownThread === undefined) {
      this.ownThread = thread ?? '';
      this.forkMs = atMs;
      const forkedFrom = payload.forked_from_id;
      if (typeof forkedFrom === 'string' && forkedFrom !== '') [this.state, this.fromThread] = ['copying', forkedFrom];
      return false;
    }
    if (thread === undefined || thread === this.ownThread) return false;
    [this.state, this.fromThread] = ['copying', thread];
    return true;
  }

  /** The import note, when copied calls were left out. */
  note(): string | undefined {
    if (this.copiedCalls === 0) return undefined;
    const from = this.fromThread !== undefined && this.fromThread !== '' ? `thread ${this.fromThread}` : 'its parent thread';
    return `the rollout opens with ${from}'s history, copied in when this thread was forked from it (from line ${this.firstLine}; ${counted(this.copiedCalls, 'call')}, their token_counts up to line ${this.lastCallLine}): the context the thread starts with, not calls it made, so not metered again here (its own first call's prompt still carries that context)`;
  }
}

/** The thread a session_meta names (as RolloutReader.readMeta reads it). */
function threadOf(payload: JsonObject): string | undefined {
  return typeof payload.id === 'string' ? payload.id : typeof payload.session_id === 'string' ? payload.session_id : undefined;
}

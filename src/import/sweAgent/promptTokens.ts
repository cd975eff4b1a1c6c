/**
 * Prompt tokens of each call of a SWE-agent run, rebuilt from the chat it sent (`history` up to the call's
 * assistant message), framed as the provider counts them: OpenAI chat framing, or the request SWE-agent
 * 0.x builds for Anthropic's Messages API (`anthropic_history_to_messages` / `anthropic_query` in
 * sweagent/agent/models.py).
 */
import {
  CLAUDE_ASSISTANT_TURN,
  CLAUDE_HUMAN_TURN,
  chatMessageTokens,
  replyPrimingTokens,
  type EncodingName,
} from '../tokenCount.js';
import type { HistoryMessage } from './readTrajectory.js';

/**
 * Prompt tokens per call for OpenAI-style chat (and the cl100k fallback): the messages of history[0..end)
 * as they are (`chatMessageTokens`) plus the reply priming. Zero messages → 0.
 */
export function chatPromptTokens(history: readonly HistoryMessage[], ends: readonly number[], encoding: EncodingName): number[] {
  // prefix[j] = chat tokens of history[0..j) (per-message framing included, reply priming not).
  const prefix: number[] = [0];
  for (const message of history) {
    prefix.push(prefix[prefix.length - 1]! + chatMessageTokens({ role: message.role, content: message.content }, encoding));
  }
  const priming = replyPrimingTokens(encoding);
  return ends.map((end) => (end > 0 ? prefix[end]! + priming : 0));
}

/**
 * Prompt tokens per call for Claude, of the request SWE-agent sends for history[0..end): the system
 * messages joined by "\n" as the `system` prompt; the other messages with consecutive same-role ones
 * joined by "\n" into one turn (role `tool` is the human side, as in the Messages API), each turn framed
 * once; an empty turn sent as "(No output)" (0.x); the reply priming. Zero messages → 0.
 */
export function claudePromptTokens(
  history: readonly HistoryMessage[],
  ends: readonly number[],
  tok: (text: string) => number,
  isV0: boolean,
): number[] {
  const { systemAt, turns } = claudeTurns(history);
  const frame = { assistant: tok(CLAUDE_ASSISTANT_TURN), human: tok(CLAUDE_HUMAN_TURN) };
  const turnTokens = (turn: Turn, before: number): number => {
    const text = turn.indices
      .filter((j) => j < before)
      .map((j) => history[j]!.content)
      .join('\n');
    return frame[turn.side] + tok(isV0 && text.trim() === '' ? '(No output)' : text);
  };
  // turnPrefix[t] = tokens of turns[0..t), each whole.
  const turnPrefix: number[] = [0];
  for (const turn of turns) turnPrefix.push(turnPrefix[turnPrefix.length - 1]! + turnTokens(turn, Infinity));
  const systemOf = systemTokensOf(history, systemAt, tok);
  const priming = tok(CLAUDE_ASSISTANT_TURN);
  return ends.map((end) => {
    if (end <= 0) return 0;
    let whole = 0;
    while (whole < turns.length && turns[whole]!.indices[turns[whole]!.indices.length - 1]! < end) whole++;
    let total = turnPrefix[whole]!;
    // A turn cut by the end (same-role messages on both sides of it) is sent with its earlier messages only.
    const cut = turns[whole];
    if (cut !== undefined && cut.indices[0]! < end) total += turnTokens(cut, end);
    return total + systemOf(systemAt.filter((j) => j < end).length) + priming;
  });
}

/** One turn of the Messages API request: consecutive same-side messages joined. */
interface Turn {
  side: 'assistant' | 'human';
  /** History indices of the messages joined into this turn. */
  indices: number[];
}

/** Where the system messages are, and the other messages grouped into turns (role `tool` on the human side). */
function claudeTurns(history: readonly HistoryMessage[]): { systemAt: number[]; turns: Turn[] } {
  const sideOf = (role: string): 'assistant' | 'human' => (role === 'assistant' ? 'assistant' : 'human');
  const systemAt: number[] = [];
  const turns: Turn[] = [];
  history.forEach((message, j) => {
    if (message.role === 'system') {
      systemAt.push(j);
      return;
    }
    const side = sideOf(message.role);
    const last = turns[turns.length - 1];
    if (last !== undefined && last.side === side) last.indices.push(j);
    else turns.push({ side, indices: [j] });
  });
  return { systemAt, turns };
}

/** Tokens of the `system` prompt made of the first `count` system messages joined by "\n", each count counted once. */
function systemTokensOf(history: readonly HistoryMessage[], systemAt: readonly number[], tok: (text: string) => number): (count: number) => number {
  const systemTokens = new Map<number, number>();
  return (count) => {
    let cached = systemTokens.get(count);
    if (cached === undefined) {
      cached = tok(systemAt.slice(0, count).map((j) => history[j]!.content).join('\n'));
      systemTokens.set(count, cached);
    }
    return cached;
  };
}

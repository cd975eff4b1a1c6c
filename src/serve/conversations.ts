/**
 * Which session a request without `x-loopcost-session` continues: the conversation is the key. A real
 * server sees only what a request carries, so the rule reads the messages and nothing else:
 *
 *   with assistant messages  it continues the session, among those that opened the same way (first
 *                            system/developer and first user message), that gave its last assistant
 *                            message; if several did, the one that gave the most of its assistant
 *                            messages, then the one that gave that last message most recently (fewest
 *                            answers since), then the one started first. If none did (the agent rewrote
 *                            its messages), the latest session that opened the same way.
 *   without                  it is a retry, and continues the session, if a session that opened the
 *                            same way has answered calls but none a client could send back (failed
 *                            calls, answers cut at the output cap) and its last request was this same
 *                            body; the one started first if several. Otherwise it starts a new session:
 *                            the same task run again is a new run.
 *
 * An answer is known by its tool-call ids (serve writes ids unique to the session unless the recording
 * has its own), else by its text. Truly ambiguous: two runs of the same task at once, answered from the
 * same recording with its own ids (identical answers: each request goes to the first session started
 * that fits, so two runs can swap sessions, each still getting the recording's calls in order); and a
 * second run's opening request sent while the first run's opening call has only failed (taken as a
 * retry of it). The header names a session exactly.
 */
import { sha256Hex } from '../io/builtins.js';
import type { Reply } from './reply.js';
import { messageText, type ChatMessage, type ChatRequest } from './request.js';
import type { ServeSession } from './session.js';

/** What matching knows of a session started without the header. */
export interface Conversation {
  readonly session: ServeSession;
  /** Keys of the answers a client can send back as assistant messages (not failed, cut or summaries), in order. */
  readonly answers: string[];
  readonly answered: Set<string>;
  /** Hash of the last request's body, kept while the session has no such answer (only a retry is matched by it). */
  lastBody: string | undefined;
}

export function newConversation(session: ServeSession): Conversation {
  return { session, answers: [], answered: new Set(), lastBody: undefined };
}

/** The conversation among `candidates` (sessions that opened as `request` does, in start order) that `request` continues, or undefined for a new one. */
export function continuedConversation(candidates: readonly Conversation[], request: ChatRequest): Conversation | undefined {
  const keys = request.messages.filter((m) => m.role === 'assistant').map(assistantKey);
  if (keys.length === 0) {
    const body = bodyKey(request);
    return candidates.find((c) => c.session.calls > 0 && c.answers.length === 0 && c.lastBody === body);
  }
  return answering(candidates, keys) ?? candidates.at(-1);
}

/** The candidate that gave the last of `keys`: most of `keys` given, then latest given, then first started. */
function answering(candidates: readonly Conversation[], keys: readonly string[]): Conversation | undefined {
  const last = keys[keys.length - 1]!;
  let best: { conversation: Conversation; shared: number; since: number } | undefined;
  for (const conversation of candidates) {
    const at = conversation.answers.lastIndexOf(last);
    if (at < 0) continue;
    const shared = keys.filter((key) => conversation.answered.has(key)).length;
    const since = conversation.answers.length - 1 - at;
    if (!best || shared > best.shared || (shared === best.shared && since < best.since)) best = { conversation, shared, since };
  }
  return best?.conversation;
}

/** Before a request of `conversation` is answered: its body, while a retry could still be matched by it. */
export function noteRequest(conversation: Conversation, request: ChatRequest): void {
  if (conversation.answers.length === 0) conversation.lastBody = bodyKey(request);
}

/** An answered call a client can send back (not cut at its cap, not a summary): the session's next answer. */
export function noteAnswer(conversation: Conversation, reply: Reply, summary: boolean): void {
  if (summary || reply.cut) return;
  const key = answerKey(reply.toolCalls.map((call) => call.id), reply.content ?? '');
  conversation.answers.push(key);
  conversation.answered.add(key);
  conversation.lastBody = undefined;
}

/** An answer by its tool-call ids, else its text. */
function answerKey(toolCallIds: readonly string[], text: string): string {
  return toolCallIds.length > 0 ? `ids:${JSON.stringify(toolCallIds)}` : `text:${text}`;
}

function assistantKey(message: ChatMessage): string {
  return answerKey((message.tool_calls ?? []).map((call) => call.id), messageText(message));
}

function bodyKey(request: ChatRequest): string {
  return sha256Hex(JSON.stringify(request));
}

/**
 * Which session a request without `x-loopcost-session` continues: the conversation is the key. A real
 * server sees only what a request carries, so the rule reads the messages and nothing else:
 *
 *   with assistant messages  it continues the session, among those that opened the same way (first
 *                            system/developer and first user message), that gave its last assistant
 *                            message; if several did, the one whose answers so far are the request's
 *                            assistant messages (its place in the conversation), else the one whose
 *                            answers end with them (earlier messages dropped), else the one that gave
 *                            the most of them; then the one that gave that last message most recently
 *                            (fewest answers since), then the one started first. If none did (the agent
 *                            rewrote its messages), the one that gave the most of them, the latest
 *                            started if several; if none gave any, the latest that opened the same way.
 *   without                  it is a retry, and continues the session, if a session that opened the
 *                            same way has not ended, has answered calls but none a client could send
 *                            back whole (failed calls, answers cut at the output cap) and its last
 *                            request was this same body (same JSON, whatever its keys' order); the one
 *                            started first if several. Otherwise it starts a new session: the same task
 *                            run again is a new run.
 *
 * An answer is known by its tool-call ids (serve writes ids unique to the session unless the recording
 * has its own), else by its text; an answer cut at the output cap counts (its text is what the client
 * sends back), a context summary does not. Truly ambiguous: two runs of the same task at once with the
 * same answers so far (one recording with its own ids: each request goes to the first session started
 * that fits, so two runs can swap sessions, each still getting the recording's calls in order); and a
 * second run's opening request sent while the first run's opening call has only failed (taken as a retry
 * of it). The header names a session exactly.
 *
 * An ended session keeps none of this (retire): it is found by its last two answers only (a final
 * answer's text alone is often the same in every run), so the request after a recording's last call —
 * what a real loop sends next — still gets the session's 409. A request whose last assistant message no
 * session in progress gave at its place continues the ended session whose last two answers are its last
 * two assistant messages (the first started if several); else the rule above, among sessions in
 * progress, and "the latest that opened the same way" may be an ended one.
 *
 * Work: a request costs its messages (keys hashed, deduplicated) plus the sessions that gave its last
 * assistant message (each compared back from its latest answer, stopping at the first difference); only
 * when those tie on place, or none gave it, the sessions that gave its other messages too. An index from
 * answer to the sessions that gave it, kept as answers are noted, makes that so. Memory: sessions in
 * progress keep their answers' keys; an ended one, a short key of its last two at most (endings.ts); an
 * opening with none in progress, its latest started alone (registry.ts).
 */
import { canonicalJson } from '../brakes/fingerprint.js';
import { sha256Hex } from '../io/builtins.js';
import type { Reply } from './reply.js';
import { messageText, type ChatMessage, type ChatRequest } from './request.js';
import type { HeldSession, ServeSession } from './session.js';
import { Endings, shortHash, type Matched } from './endings.js';

export type { Matched } from './endings.js';

/** What matching knows of a session started without the header. */
export interface Conversation {
  readonly session: ServeSession;
  /** Start order among the sessions that opened the same way. */
  readonly ordinal: number;
  /** Keys of the answers a client can send back as assistant messages (not failed calls, not summaries), in order. */
  readonly answers: string[];
  /** Each key's last position in `answers`. */
  readonly lastAt: Map<string, number>;
  /** Answers not cut at the output cap: while none, a request with no assistant message may be its retry. */
  wholeAnswers: number;
  /** Hash of the last request's body, kept while the session has no whole answer (only a retry is matched by it). */
  lastBody: string | undefined;
}

/** The sessions started without the header that opened the same way, in start order, and what finds them. */
export class Opening {
  /** Those in progress, in start order (an ended one leaves: retire). */
  readonly conversations: Conversation[] = [];
  /** Conversations started: the next one's ordinal. */
  private started: number;
  /** The latest started, in progress or ended. */
  private newest: Matched | undefined;
  /** Answer key → the conversations that gave it, each once, in the order they first gave it. */
  private readonly givers = new Map<string, Conversation[]>();
  /** Body hash → the conversations a retry of that body could continue. */
  private readonly retries = new Map<string, Set<Conversation>>();
  /** Sessions examined and index lookups made, for tests of the work done. */
  lookups = 0;

  /**
   * The opening keyed `hash`, its ended conversations found in `endings` (shared by every opening); `latest`:
   * the latest started of its conversations, all ended (an opening with none in progress keeps only that: registry.ts).
   */
  constructor(
    readonly hash = '',
    private readonly endings = new Endings(),
    latest?: Matched,
  ) {
    this.newest = latest;
    this.started = latest === undefined ? 0 : latest.ordinal + 1;
  }

  /** The latest started, in progress or ended. */
  get latest(): Matched | undefined {
    return this.newest;
  }

  start(session: ServeSession): Conversation {
    const conversation: Conversation = { session, ordinal: this.started++, answers: [], lastAt: new Map(), wholeAnswers: 0, lastBody: undefined };
    this.conversations.push(conversation);
    this.newest = conversation;
    return conversation;
  }

  /** The conversation `request` continues (an ended one: its session, which answers with its ending), or undefined for a new one. */
  continued(request: ChatRequest): Matched | undefined {
    const keys = assistantKeys(request);
    if (keys.length === 0) return this.retried(bodyKey(request));
    const answering = this.answering(keys);
    if (answering && answering.place > 0) return answering.conversation;
    this.lookups += 1;
    return this.endings.find(this.hash, keys) ?? answering?.conversation ?? this.mostShared(keys) ?? this.newest;
  }

  /**
   * `conversation`'s session has ended and is now `retired`: everything matching kept for it is dropped
   * (its answers, its index entries, a retry's body) but its last two answers, which still find it.
   */
  retire(conversation: Conversation, retired: HeldSession): void {
    this.forgetBody(conversation);
    removeFrom(this.conversations, conversation);
    for (const key of conversation.lastAt.keys()) {
      const givers = this.givers.get(key)!;
      removeFrom(givers, conversation);
      if (givers.length === 0) this.givers.delete(key);
    }
    const tomb: Matched = { session: retired, ordinal: conversation.ordinal };
    this.endings.note(this.hash, conversation.answers, tomb);
    if (this.newest === conversation) this.newest = tomb;
  }

  /** Before a request of `conversation` is answered: its body, while a retry could still be matched by it. */
  noteRequest(conversation: Conversation, request: ChatRequest): void {
    if (conversation.wholeAnswers > 0) return;
    const body = bodyKey(request);
    if (body === conversation.lastBody) return;
    this.forgetBody(conversation);
    conversation.lastBody = body;
    const waiting = this.retries.get(body);
    if (waiting) waiting.add(conversation);
    else this.retries.set(body, new Set([conversation]));
  }

  /** An answered call (not a summary): the session's next answer; a whole one ends its retries. */
  noteAnswer(conversation: Conversation, reply: Reply, summary: boolean): void {
    if (summary) return;
    const key = answerKey(reply.toolCalls.map((call) => call.id), reply.content ?? '');
    if (!conversation.lastAt.has(key)) {
      const givers = this.givers.get(key);
      if (givers) givers.push(conversation);
      else this.givers.set(key, [conversation]);
    }
    conversation.lastAt.set(key, conversation.answers.length);
    conversation.answers.push(key);
    if (reply.cut) return;
    conversation.wholeAnswers += 1;
    this.forgetBody(conversation);
  }

  private forgetBody(conversation: Conversation): void {
    if (conversation.lastBody === undefined) return;
    const waiting = this.retries.get(conversation.lastBody);
    waiting?.delete(conversation);
    if (waiting?.size === 0) this.retries.delete(conversation.lastBody);
    conversation.lastBody = undefined;
  }

  /** The first started conversation, not ended, with calls and no whole answer, whose last request was `body`. */
  private retried(body: string): Conversation | undefined {
    const waiting = this.retries.get(body);
    this.lookups += 1;
    let first: Conversation | undefined;
    for (const conversation of waiting ?? []) {
      this.lookups += 1;
      if (conversation.session.ended()) {
        this.forgetBody(conversation);
        continue;
      }
      if (conversation.session.calls > 0 && (!first || conversation.ordinal < first.ordinal)) first = conversation;
    }
    return first;
  }

  /** Among those that gave the last of `keys`: best placed, then most shared, then latest given, then first started; with its place (placeOf). */
  private answering(keys: readonly string[]): { conversation: Conversation; place: number } | undefined {
    const last = keys[keys.length - 1]!;
    const givers = this.givers.get(last);
    this.lookups += 1;
    if (!givers) return undefined;
    let placedBest: Conversation[] = [];
    let bestPlace = -1;
    for (const conversation of givers) {
      this.lookups += 1;
      const place = placeOf(conversation.answers, keys);
      if (place > bestPlace) [placedBest, bestPlace] = [[conversation], place];
      else if (place === bestPlace) placedBest.push(conversation);
    }
    // Placed candidates all hold every key: only an unplaced tie needs the counts.
    const shared = bestPlace === 0 && placedBest.length > 1 ? this.sharedCounts(keys) : undefined;
    let best: { conversation: Conversation; shared: number; since: number } | undefined;
    for (const conversation of placedBest) {
      const count = shared?.get(conversation) ?? 0;
      const since = conversation.answers.length - 1 - conversation.lastAt.get(last)!;
      if (!best || count > best.shared || (count === best.shared && since < best.since)) best = { conversation, shared: count, since };
    }
    return best && { conversation: best.conversation, place: bestPlace };
  }

  /** The conversation that gave the most of `keys`, the latest started if several. */
  private mostShared(keys: readonly string[]): Conversation | undefined {
    let best: { conversation: Conversation; shared: number } | undefined;
    for (const [conversation, shared] of this.sharedCounts(keys)) {
      if (!best || shared > best.shared || (shared === best.shared && conversation.ordinal > best.conversation.ordinal)) best = { conversation, shared };
    }
    return best?.conversation;
  }

  /** How many of `keys` (each counted once) each conversation gave. */
  private sharedCounts(keys: readonly string[]): Map<Conversation, number> {
    const counts = new Map<Conversation, number>();
    for (const key of new Set(keys)) {
      this.lookups += 1;
      for (const conversation of this.givers.get(key) ?? []) {
        this.lookups += 1;
        counts.set(conversation, (counts.get(conversation) ?? 0) + 1);
      }
    }
    return counts;
  }
}

/** `item` taken out of `list` (a short list: the sessions in progress of one opening, or that gave one answer). */
function removeFrom<T>(list: T[], item: T): void {
  const at = list.indexOf(item);
  if (at >= 0) list.splice(at, 1);
}

/** 2: `answers` are `keys`; 1: they end with `keys`; 0: neither. Compared from the end, stopping at the first difference. */
function placeOf(answers: readonly string[], keys: readonly string[]): number {
  if (answers.length < keys.length) return 0;
  for (let back = 1; back <= keys.length; back++) {
    if (answers[answers.length - back] !== keys[keys.length - back]) return 0;
  }
  return answers.length === keys.length ? 2 : 1;
}

/** Keys longer than this are kept as their hash. */
const MAX_KEY_CHARS = 80;

/** An answer by its tool-call ids, else its text. */
function answerKey(toolCallIds: readonly string[], text: string): string {
  const key = toolCallIds.length > 0 ? `ids:${JSON.stringify(toolCallIds)}` : `text:${text}`;
  return key.length > MAX_KEY_CHARS ? `sha256:${sha256Hex(key)}` : key;
}

function assistantKey(message: ChatMessage): string {
  return answerKey((message.tool_calls ?? []).map((call) => call.id), messageText(message));
}

function assistantKeys(request: ChatRequest): string[] {
  const keys: string[] = [];
  for (const message of request.messages) if (message.role === 'assistant') keys.push(assistantKey(message));
  return keys;
}

/** The body as JSON with keys in a canonical order: a retry that reorders them is the same body. */
function bodyKey(request: ChatRequest): string {
  let key = bodyKeys.get(request);
  if (key === undefined) bodyKeys.set(request, (key = sha256Hex(canonicalJson(request))));
  return key;
}

/** Each request's body hash, made once: matching (continued) and noting (noteRequest) both read it. */
const bodyKeys = new WeakMap<ChatRequest, string>();

/** The conversation's opening: first system/developer message and first user message. */
export function openingHash(request: ChatRequest): string {
  const system = request.messages.find((m) => m.role === 'system' || m.role === 'developer');
  const user = request.messages.find((m) => m.role === 'user');
  const opening = JSON.stringify([system ? messageText(system) : null, user ? messageText(user) : null]);
  return shortHash(opening);
}

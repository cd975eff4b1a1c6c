/**
 * What finds a conversation started without the header once it has ended (conversations.ts retire drops
 * the rest): its opening and last two answers → the first started of that opening that ended with them.
 * One index for every opening, so an opening with no conversation in progress keeps no table of its own
 * (registry.ts keeps its latest started only). Keys are 128 bits of a SHA-256 of the opening and the two
 * answers: a long-lived server holds about a hundred bytes per ended conversation, whatever its answers' size.
 */
import { nodeCrypto } from '../io/builtins.js';
import type { HeldSession } from './session.js';

/** What a request is matched to: a conversation in progress, or an ended one by its session alone. */
export interface Matched {
  readonly session: HeldSession;
  /** Start order among the sessions that opened the same way. */
  readonly ordinal: number;
}

/** Bytes of a SHA-256 kept in a key (128 bits). */
const KEY_BYTES = 16;

/**
 * `text`'s SHA-256, its first 128 bits in base64url (22 characters): what the tables key openings and
 * endings by. Written from the digest's bytes, not sliced from a longer string (V8 would keep the whole).
 */
export function shortHash(text: string): string {
  return nodeCrypto().createHash('sha256').update(text).digest().toString('base64url', 0, KEY_BYTES);
}

export class Endings {
  private readonly firsts = new Map<string, Matched>();

  /** The first started of `opening`'s ended conversations whose last two answers are the last two of `keys` (answers, or a request's assistant messages). */
  find(opening: string, keys: readonly string[]): Matched | undefined {
    return this.firsts.get(endingKey(opening, keys));
  }

  /** `ended`, of `opening`, gave `answers`: it is found by their last two, unless one started before it ended with them too. */
  note(opening: string, answers: readonly string[], ended: Matched): void {
    if (answers.length === 0) return;
    const key = endingKey(opening, answers);
    const first = this.firsts.get(key);
    if (first === undefined || first.ordinal > ended.ordinal) this.firsts.set(key, ended);
  }

  /** Ended conversations kept, one a distinct ending. */
  get size(): number {
    return this.firsts.size;
  }
}

function endingKey(opening: string, keys: readonly string[]): string {
  return shortHash(JSON.stringify([opening, ...keys.slice(-2)]));
}

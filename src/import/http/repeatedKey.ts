/**
 * The duplicate-key rule of every JSON reader (src/io/jsonText.ts) for JSON held inside a recording: a
 * cassette's body string, a streamed body's event data. JSON.parse keeps the last of a repeated key
 * silently (`"prompt_tokens":10, …, "prompt_tokens":100000` would pass as 100000), so it is refused.
 */
import { parsedJsonTextProblem, type JsonTextProblem } from '../../io/jsonText.js';
import type { Reader } from './bodyReader.js';

/** What to do about a key given twice inside a recorded body. */
export const REPEATED_KEY_HINT = 'keep the one you mean and delete the other, or record the exchange again: JSON readers keep only the last of a repeated key, silently';

/** The problem of `text` (which JSON.parse turned into `value`) when it gives a key twice in one object; else undefined. */
export function repeatedKey(text: string, value: unknown): (JsonTextProblem & { code: 'duplicate_key' }) | undefined {
  const problem = parsedJsonTextProblem(text, value);
  return problem?.code === 'duplicate_key' ? { ...problem, code: 'duplicate_key' } : undefined;
}

/** Refuses `text` (which JSON.parse turned into `value`) when it gives a key twice in one object; `where` opens the message. */
export function failOnRepeatedKey(r: Reader, text: string, value: unknown, where: string): void {
  const twice = repeatedKey(text, value);
  if (twice) r.fail('', twice.code, `${where}: ${twice.message} (at ${twice.field})`, REPEATED_KEY_HINT);
}

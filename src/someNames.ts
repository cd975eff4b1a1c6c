/**
 * The few names a message lists (files, scenarios, models), in one wording everywhere: a message names
 * the first few and says how many more there are, so a directory of a thousand files stays one line.
 */
import { sanitizeForTerminal } from './errors.js';

/** Most names a message lists; past them it says how many more. */
export const SHOWN_NAMES = 3;

/**
 * `a`, `a and b`, `a, b and c`, `a, b, c and 4 more`: up to SHOWN_NAMES names, each safe to print on a
 * terminal (a control character in a file name is shown as its escape, not acted on).
 */
export function someNames(names: readonly string[]): string {
  const shown = names.slice(0, SHOWN_NAMES).map(sanitizeForTerminal);
  const more = names.length - shown.length;
  if (more > 0) return `${shown.join(', ')} and ${more} more`;
  return shown.length <= 1 ? (shown[0] ?? '') : `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`;
}

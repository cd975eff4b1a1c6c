/** The nearest of some known names to a name given (a misspelt field, grid key or setting), as commander suggests flags. */
import { editDistance, MAX_SUGGESTED_LENGTH, nearEdits } from '../../pricing/suggest.js';
import { shownName } from '../../shownName.js';

/**
 * The known name nearest to `key` (case and punctuation aside, or within a few edits), if any; none for
 * a key longer than MAX_SUGGESTED_LENGTH. Each comparison stops once past the nearest so far.
 */
export function nearestField(key: string, known: readonly string[]): string | undefined {
  if (key.length > MAX_SUGGESTED_LENGTH) return undefined;
  const squash = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');
  const squashed = squash(key);
  const same = known.find((name) => squash(name) === squashed);
  if (same) return same;
  const lower = key.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(lower, name.toLowerCase(), best === undefined ? nearEdits(key.length) : best.distance - 1);
    if (distance <= nearEdits(key.length) && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/** `did you mean outputTokens (for outputTokenz)?`, or the fields the record takes when none is near. */
export function unknownFieldsHint(keys: readonly string[], known: readonly string[]): string | undefined {
  if (known.length === 0) return undefined;
  const guesses = keys.map((key) => [key, nearestField(key, known)] as const).filter(([, near]) => near !== undefined);
  if (guesses.length > 0) return `did you mean ${guesses.map(([key, near]) => (keys.length === 1 ? near : `${near} (for ${shownName(key)})`)).join(', ')}?`;
  return `fields here: ${known.join(', ')}`;
}

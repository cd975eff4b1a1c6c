/** The nearest of some known names to a name given (a misspelt field, grid key or setting), as commander suggests flags. */
import { editDistance } from '../../pricing/suggest.js';

/** The known name nearest to `key` (case and punctuation aside, or within a few edits), if any. */
export function nearestField(key: string, known: readonly string[]): string | undefined {
  const squash = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');
  const same = known.find((name) => squash(name) === squash(key));
  if (same) return same;
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(key.toLowerCase(), name.toLowerCase());
    if (!best || distance < best.distance) best = { name, distance };
  }
  return best && best.distance <= Math.max(2, Math.floor(key.length / 4)) ? best.name : undefined;
}

/** ` (did you mean max-steps?)` to end a message about an unknown `name`, when a known one is near; else nothing. */
export function didYouMean(name: string, known: readonly string[]): string {
  const near = name === '' ? undefined : nearestField(name, known);
  return near === undefined || near === name ? '' : ` (did you mean ${near}?)`;
}

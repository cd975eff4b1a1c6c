/**
 * A run's call lines (Trace.callLines) as a cache entry keeps them: stretches of consecutive lines, each
 * its first line and length (`[first, count, first, count, …]`), so a run written one call a line is two
 * numbers however long. Pure: no node:*.
 */

/** `lines` as stretches of consecutive lines: [first, count, …]. */
export function storedCallLines(lines: Int32Array): number[] {
  const stretches: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    const last = stretches.length - 2;
    if (last >= 0 && stretches[last]! + stretches[last + 1]! === lines[i]) stretches[last + 1]! += 1;
    else stretches.push(lines[i]!, 1);
  }
  return stretches;
}

/** The lines `stored` (storedCallLines) holds; undefined when it is not such a list (an entry holding something else there). */
export function callLinesOfStored(stored: unknown): Int32Array | undefined {
  if (!Array.isArray(stored) || stored.length % 2 !== 0 || !stored.every((n) => Number.isSafeInteger(n) && n >= 0)) return undefined;
  let total = 0;
  for (let i = 1; i < stored.length; i += 2) total += stored[i] as number;
  if (total > 2 ** 31) return undefined;
  const lines = new Int32Array(total);
  let at = 0;
  for (let i = 0; i < stored.length; i += 2) for (let k = 0; k < (stored[i + 1] as number); k++) lines[at++] = (stored[i] as number) + k;
  return lines;
}

/**
 * Appends every item of `items` to `into`, by a loop. `into.push(...items)` passes every item as an
 * argument and overflows the stack past ~120k of them (a population of that many runs: `replay --runs
 * 1.3e5` exited 70 with a RangeError); this takes any length. Returns `into`.
 */
export function appendAll<T>(into: T[], items: Iterable<T>): T[] {
  for (const item of items) into.push(item);
  return into;
}

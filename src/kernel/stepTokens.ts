/**
 * A step's tokens as the context holds them, written once for the context tracker (context.ts) and the
 * compiled replay's sums over calls (src/fast/stretch.ts): a tool-result cap truncates each result as it
 * enters the step; a step holds its output and its results so capped.
 */

/** The tokens a tool result of `resultTokens` adds to its step under a cap of `capTokens` (Infinity: no cap). */
export function cappedResultTokens(resultTokens: number, capTokens: number): number {
  return resultTokens < capTokens ? resultTokens : capTokens;
}

/** A step's kept tokens: `outputTokens` and the results resultTokens[from..to−1], each capped at `capTokens`. */
export function keptStepTokens(outputTokens: number, resultTokens: ArrayLike<number>, from: number, to: number, capTokens: number): number {
  let kept = outputTokens;
  for (let j = from; j < to; j++) kept += cappedResultTokens(resultTokens[j]!, capTokens);
  return kept;
}

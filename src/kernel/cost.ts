/**
 * The cost formula, written once: exact integer picodollars of one call at one tier's prices.
 *
 *   uncached = input − cached − cacheWrite − cacheWrite1h (clamped at 0)
 *   cost = uncached·input + cached·cachedInput + cacheWrite·cacheWrite + cacheWrite1h·cacheWrite1h
 *        + (output − reasoning)·output + reasoning·reasoning
 *
 * at the prices of the row `row` of `rows` (prices.ts: fallbacks resolved, the tier chosen by the whole
 * prompt, cached parts included). Whole token counts times whole picodollar prices are exact below 2^53.
 */
import { PriceField, tierRow } from './prices.js';

export function callCostPico(
  rows: Float64Array,
  row: number,
  input: number,
  cached: number,
  cacheWrite: number,
  cacheWrite1h: number,
  output: number,
  reasoning: number,
): number {
  let uncached = input - cached - cacheWrite - cacheWrite1h;
  if (uncached < 0) uncached = 0;
  let plainOutput = output - reasoning;
  if (plainOutput < 0) plainOutput = 0;
  return (
    uncached * rows[row + PriceField.Input]! +
    cached * rows[row + PriceField.Cached]! +
    cacheWrite * rows[row + PriceField.CacheWrite]! +
    cacheWrite1h * rows[row + PriceField.CacheWrite1h]! +
    plainOutput * rows[row + PriceField.Output]! +
    reasoning * rows[row + PriceField.Reasoning]!
  );
}

/**
 * What a live loop can bound a call by before making it: the prompt estimate at the input price of its
 * tier (uncached), plus `maxOutputTokens` at the output price (the reasoning price when higher).
 */
export function predictiveBoundPico(rows: Float64Array, tiers: number, promptEstimate: number, maxOutputTokens: number): number {
  const row = tierRow(rows, tiers, promptEstimate);
  const output = rows[row + PriceField.Output]!;
  const reasoning = rows[row + PriceField.Reasoning]!;
  return promptEstimate * rows[row + PriceField.Input]! + maxOutputTokens * (reasoning > output ? reasoning : output);
}

/** The next prompt's estimate: what the context holds plus the overhead the previous call showed. */
export function promptEstimate(viewTokens: number, overheadTokens: number): number {
  const estimate = viewTokens + overheadTokens;
  return estimate > 0 ? estimate : 0;
}

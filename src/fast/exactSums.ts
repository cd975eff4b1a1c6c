/**
 * The bound below which the fast path's running sums stay exact whole numbers (token counts, integer
 * picodollars, whole milliseconds): 2^52, a margin below 2^53 so a sum of two such figures is exact too.
 * A sum at or past it leaves the shortcut (closed form, recorded form, run tables) to the per-step loop.
 */
export const EXACT = 2 ** 52;

/** Splitting an integer total over parts in proportion to weights, exactly. */

/**
 * Split `total` into integers proportional to `weights` (largest remainder; ties to the earlier index),
 * summing exactly to `total`. All-zero weights split evenly.
 */
export function apportion(weights: readonly number[], total: number): number[] {
  const n = weights.length;
  if (n === 0) return [];
  const w = weights.map((x) => BigInt(Math.max(0, Math.round(x))));
  let sum = w.reduce((a, b) => a + b, 0n);
  if (sum === 0n) {
    w.fill(1n);
    sum = BigInt(n);
  }
  const t = BigInt(total);
  const shares = w.map((x) => (x * t) / sum);
  const remainders = w.map((x, i) => ({ i, r: (x * t) % sum }));
  let left = Number(t - shares.reduce((a, b) => a + b, 0n));
  remainders.sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1));
  for (let k = 0; left > 0; k++, left--) shares[remainders[k]!.i]! += 1n;
  return shares.map(Number);
}

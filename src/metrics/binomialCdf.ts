/**
 * The binomial distribution function P(B ≤ k), B ~ Binomial(n, p), summed from its probabilities in logs
 * (n·ln(1 − p) underflows as a product for large n; a term that underflows is negligible). O(k). Pure.
 */
export function binomialCdf(k: number, n: number, p: number): number {
  if (k < 0) return 0;
  if (k >= n || p <= 0) return 1;
  if (p >= 1) return 0;
  let logPmf = n * Math.log1p(-p);
  const step = Math.log(p) - Math.log1p(-p);
  let cdf = 0;
  for (let j = 0; j <= k; j++) {
    cdf += Math.exp(logPmf);
    logPmf += Math.log((n - j) / (j + 1)) + step;
  }
  return Math.min(1, cdf);
}

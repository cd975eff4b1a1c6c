/**
 * How a mistake in a scenario file's `expect:` block is hinted: expectations are described in docs/check.md
 * (not docs/scenarios.md, where the rest of a scenario file is), and a quantile of `costPerRunUsd` that is
 * not one a check measures (`p90`) is told the ones there are, not the nearest name (`p50`), whose meaning
 * differs.
 */

/** Where expectations are described: every hint of an `expect:` issue ends with it. */
export const EXPECT_HINT = 'expectations are described in docs/check.md (and schema/scenario-v1.schema.json)';

/** The figures of `costPerRunUsd` a check measures: the expect schema's keys, in its words. */
const COST_PER_RUN_FIGURES = 'costPerRunUsd bounds mean, p50, p95 and max (nearest-rank quantiles of run cost): no other quantile is measured';

/** An `expect:` issue's hint: the figures `costPerRunUsd` has for an unknown key there, else its own hint (`did you mean …`), then docs/check.md. */
export function expectIssueHint(issue: { code: string; path: readonly PropertyKey[] }, ownHint: string | undefined): string {
  const at = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys' && at === 'expect.population.costPerRunUsd') return `${COST_PER_RUN_FIGURES}; ${EXPECT_HINT}`;
  return ownHint === undefined ? EXPECT_HINT : `${ownHint}; ${EXPECT_HINT}`;
}

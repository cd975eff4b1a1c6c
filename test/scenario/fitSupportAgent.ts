/**
 * A support agent of distinct behaviours (a review's, its brakes and expectations left out), seeded: the runs
 * it generates are what `fit`'s tests profile (fitGroupShares.test.ts, test/cli/fitReliabilityLine.test.ts).
 */
export const SUPPORT_AGENT = `scenario: loopcost.scenario/1
name: support agent
model: gpt-4o-mini
provider: openai
systemTokens: 1200
goalTokens: { kind: lognormal, median: 250, p95: 900 }
latency: { call: 1500, output-token: 8, tool: 400 }
context: { context: full, cache: on }
hardCapSteps: 150
runs: 300
seed: 11
population:
  - behaviour: healthy
    name: resolves
    weight: 85
    steps: { kind: lognormal, median: 5, p95: 11 }
    repeatShare: 0.05
    errorShare: 0.05
    outputTokens: { kind: lognormal, median: 150, p95: 500 }
    toolResultTokens: { kind: lognormal, median: 400, p95: 2500 }
  - behaviour: perfectionist
    name: kb loop
    tool: kb_search
    weight: 5
    repeatQuery: 0.6
    outputTokens: { kind: lognormal, median: 120, p95: 300 }
    toolResultTokens: { kind: lognormal, median: 800, p95: 2000 }
  - behaviour: retrier
    name: crm down
    tool: crm_lookup
    weight: 5
    error: "CRMTimeout: upstream did not answer"
    variants: [{ id: 1 }, { id: "1" }, { email: a@b.c }]
    leadSteps: { kind: uniform, min: 0, max: 3 }
    givesUpAfter: 40
    outputTokens: { kind: lognormal, median: 80, p95: 200 }
    toolResultTokens: 30
  - behaviour: asker
    name: anything else
    weight: 5
    workSteps: { kind: uniform, min: 2, max: 6 }
    outputTokens: { kind: lognormal, median: 90, p95: 200 }
    toolResultTokens: 20
`;

/**
 * A population of retriers that give up after 40 attempts and answer anyway (every run ends `completed`, some
 * with the task undone) beside healthy runs: the scenario sweep's tasks-done tests read.
 */
export const RETRIERS_SCENARIO = `scenario: loopcost.scenario/1
name: retriers that give up and answer
model: gpt-4o
provider: openai
systemTokens: 1500
goalTokens: 200
runs: 200
seed: 7
population:
  - behaviour: healthy
    name: ok
    weight: 85
    steps: { kind: lognormal, median: 8, p95: 25 }
    outputTokens: 150
    toolResultTokens: 500
  - behaviour: retrier
    name: retry
    weight: 15
    error: "Timeout"
    leadSteps: { kind: uniform, min: 1, max: 5 }
    givesUpAfter: 40
    outputTokens: 80
    toolResultTokens: 50
`;

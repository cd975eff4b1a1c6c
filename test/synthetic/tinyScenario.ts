/**
 * A scenario of healthy agents on `tiny` (a hand-priced model, see each world's prices): system 100 and
 * goal 20 tokens, a hard cap of 60 steps, one population entry. Shared by the synthetic worlds that only
 * differ in name, steps and sizes (outputCapScenario.ts, maxTokensWindowScenario.ts); a world may append
 * more population entries to the text.
 */
export function tinyHealthyScenarioText(world: { name: string; steps: number; outputTokens: string | number; toolResultTokens: number }): string {
  return `
scenario: loopcost.scenario/1
name: ${world.name}
model: tiny
systemTokens: 100
goalTokens: 20
hardCapSteps: 60
population:
  - behaviour: healthy
    weight: 1
    steps: ${world.steps}
    outputTokens: ${world.outputTokens}
    toolResultTokens: ${world.toolResultTokens}
`;
}

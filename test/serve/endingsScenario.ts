/** A one-entry healthy scenario whose agent ends as `ending` after 4 steps, or at `hardCapSteps` (serve's and the real loop's ending tests). */
export function endingsScenario(hardCapSteps: number, ending: string): string {
  return `
scenario: loopcost.scenario/1
name: endings
model: gpt-4o-mini
provider: openai
systemTokens: 100
hardCapSteps: ${hardCapSteps}
population:
  - behaviour: healthy
    weight: 1
    steps: 4
    ending: ${ending}
    outputTokens: 40
    toolResultTokens: 20
`;
}

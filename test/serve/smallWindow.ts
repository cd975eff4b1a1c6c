/** `serve` from a one-behaviour scenario on `tiny` ($1 / $2 per million tokens) with a small context window: shared by the window-refusal tests. */
import type { ModelPricing } from '../../src/pricing/types.js';
import { parseScenario } from '../../src/scenario/load.js';
import { startServer, type RunningServer } from '../../src/serve/index.js';
import { handPriced, handTable } from '../helpers.js';

/** `tiny`'s prices with a window of `windowTokens`. */
export const tinyPricing = (windowTokens: number): ModelPricing => handPriced('tiny', { input: 1, output: 2 }, windowTokens);

/** A healthy agent of `steps` steps (40 tokens out, 20 of tool result a step) on `tiny`, 100 system tokens. */
export function smallWindowScenario(steps: number): string {
  return `
scenario: loopcost.scenario/1
name: small window
model: tiny
systemTokens: 100
hardCapSteps: 30
population:
  - behaviour: healthy
    weight: 1
    steps: ${steps}
    outputTokens: 40
    toolResultTokens: 20
`;
}

/** serve (any port) from smallWindowScenario(steps), priced by `pricing`. */
export function startSmallWindow(pricing: ModelPricing, steps: number): Promise<RunningServer> {
  return startServer({ sources: { scenario: { scenario: parseScenario(smallWindowScenario(steps), 'small.yaml') } }, prices: handTable(pricing), port: 0 });
}

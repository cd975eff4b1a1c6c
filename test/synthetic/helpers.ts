import { parseScenario, type Scenario } from '../../src/scenario/load.js';
import { MINI_TABLE } from '../helpers.js';

export const PRICES = MINI_TABLE;

/** A scenario from a plain object, validated as a file would be (model `mini`, hand-priced). */
export function scenarioOf(fields: Record<string, unknown>, file = 'test.yaml'): Scenario {
  return parseScenario(JSON.stringify({ scenario: 'loopcost.scenario/1', model: 'mini', systemTokens: 300, goalTokens: 50, ...fields }), file);
}

/** One population entry with default token sizes. */
export function entry(behaviour: string, params: Record<string, unknown> = {}): Record<string, unknown> {
  return { behaviour, weight: 1, outputTokens: 100, toolResultTokens: 400, ...params };
}

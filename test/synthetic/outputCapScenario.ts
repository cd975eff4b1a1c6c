/**
 * The world of test/synthetic/outputCap*.test.ts: healthy agents on `tiny` (hand-priced: $1 in, $2 out
 * per million tokens, no window) whose output sizes vary around 100 tokens, 6 steps each (the final
 * answer the 6th). Sent max_tokens CAP, a call drawn longer is cut there by the agent's provider.
 */
import { parseScenario } from '../../src/scenario/load.js';
import { handPriced, handTable } from '../helpers.js';
import { tinyHealthyScenarioText } from './tinyScenario.js';

export const PRICES = handTable(handPriced('tiny', { input: 1, output: 2 }));
/** Picodollars per input and per output token on `tiny`. */
export const PICO = { input: 1_000_000, output: 2_000_000 } as const;
export const CAP = 120;
export const STEPS = 6;

export const SCENARIO_TEXT = tinyHealthyScenarioText({ name: 'output cap', steps: STEPS, outputTokens: '{ kind: lognormal, median: 100, p95: 300 }', toolResultTokens: 50 });
export const SCENARIO = parseScenario(SCENARIO_TEXT, 'output-cap.yaml');

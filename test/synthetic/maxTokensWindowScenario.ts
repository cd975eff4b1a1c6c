/**
 * The small-window world of test/synthetic/maxTokensWindow*.test.ts: a healthy agent that never answers
 * before the window, whose prompt grows by exactly 1,500 tokens a step (20 out, 1,480 of tool result)
 * from 120 (system 100 + goal 20), on `tiny`, a hand-priced model with a 15,170-token window. Its prompt
 * at call n is 120 + 1,500·(n − 1), and the provider refuses call n once that + max_tokens passes 15,170:
 *   max_tokens 4096 (the default)  call 9   (12,120 + 4,096 > 15,170; 10,620 + 4,096 fits)
 *   max_tokens 2596                call 10  (13,620 + 2,596 > 15,170; 12,120 + 2,596 fits)
 *   max_tokens 100                 call 11  (15,120 + 100 > 15,170; 13,620 + 100 fits)
 *   no max_tokens                  call 12  (16,620 > 15,170): where every call was refused before the fix
 * Each refused prompt is within the window: only the max_tokens asked for makes the provider refuse it.
 * The thresholds fall 454 tokens past a step's prompt for 4096 and 2596 (1,046 before the next), room
 * for the tokenizer's count of the messages a served agent is sent.
 */
import { parseScenario } from '../../src/scenario/load.js';
import { handPriced, handTable } from '../helpers.js';
import { tinyHealthyScenarioText } from './tinyScenario.js';

export const WINDOW = 15_170;
export const TINY = handPriced('tiny', { input: 1, output: 2 }, WINDOW);
export const PRICES = handTable(TINY);

export const SCENARIO_TEXT = tinyHealthyScenarioText({ name: 'small window', steps: 40, outputTokens: 20, toolResultTokens: 1480 });
export const SCENARIO = parseScenario(SCENARIO_TEXT, 'small-window.yaml');

/** The prompt of call `n` (1-based) of every run of SCENARIO. */
export const promptAt = (n: number): number => 120 + 1500 * (n - 1);

/** The call the provider refuses (the run's last call, not a step: it stops provider_refused one step before) with `maxOutputTokens` sent. */
export const REFUSED_AT = { 4096: 9, 2596: 10, 100: 11 } as const;

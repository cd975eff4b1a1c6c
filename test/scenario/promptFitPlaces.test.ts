/**
 * A scenario whose first prompt + the max_tokens sent cannot fit its model's window is refused with a hint
 * that names where the model and the max_tokens were given (task O). Before, whenever a model place came
 * with the scenario, the hint said `brakes.maxOutputTokens in <that place's file>`: checkScenario named
 * `brakes.maxOutputTokens in <checkScenario options>` (its brakes come from `input.settings`, not its
 * options), populationRuns `model in <populationRuns arguments>` (its `config.model`), and a CLI path that
 * placed `--model` said `model in <command line>`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { checkRuns, checkScenario, checkScenarioAsCommand } from '../../src/check/run.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import { COMMAND_LINE_MODEL } from '../../src/options/given.js';
import { baselinesOf, populationRuns } from '../../src/population/run.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { parseAnyScenario, parseScenario } from '../../src/scenario/load.js';
import { prepareScenario, runScenario } from '../../src/scenario/run.js';
import { scenarioSettings } from '../../src/scenario/settings.js';
import { userErrorOf } from '../helpers.js';
import { cli, tempDir } from '../cli/run.js';

// keeps-asking's goal is 50 tokens: 126,050 + 4,096 = 130,146 > gpt-4o-mini's 128,000; 1,950 would fit.
const TEXT = readFileSync('scenarios/keeps-asking.yaml', 'utf8').replace('systemTokens: 450', 'systemTokens: 126000');
const prices = loadPriceTable();

/** The hint's two places: where to send less (`send at most 1,950 (…)`) and where to give another model. */
function places(fn: () => unknown): { maxTokens: string; model: string } {
  const issue = userErrorOf(fn).issues[0]!;
  expect(issue.code).toBe('prompt_and_max_tokens_past_context_window');
  return { maxTokens: /send at most 1,950 \((.*?)\), lower/.exec(issue.hint!)![1]!, model: /a larger window \(model:, or (.*)\)$/.exec(issue.hint!)![1]! };
}

describe("the prompt-fit hint names where the caller gave the max_tokens and the model", () => {
  const scenario = parseAnyScenario(TEXT, 's.yaml');
  const settings = scenarioSettings(scenario, {});
  const input = { scenario, settings, traceStrategy: settings.strategy, traceFiles: [] };

  it('checkScenario and checkRuns: the brakes of their input argument, the model of their options', () => {
    expect(places(() => checkScenario(input, [], prices))).toEqual({ maxTokens: 'input.settings.brakes.maxOutputTokens in <checkScenario arguments>', model: 'model in <checkScenario options>' });
    expect(places(() => checkRuns(input, [], prices))).toEqual({ maxTokens: 'input.settings.brakes.maxOutputTokens in <checkRuns arguments>', model: 'model in <checkRuns options>' });
  });

  it('populationRuns and baselinesOf: their config argument’s brakes and model', () => {
    const population = { scenarios: [{ scenario: parseScenario(TEXT, 's.yaml'), runs: 1, seed: 1 }] };
    const config = { brakes: NO_BRAKES, strategy: FULL_HISTORY };
    expect(places(() => populationRuns(population, config, prices))).toEqual({ maxTokens: 'config.brakes.maxOutputTokens in <populationRuns arguments>', model: 'config.model in <populationRuns arguments>' });
    expect(places(() => baselinesOf(population, config, prices))).toEqual({ maxTokens: 'config.brakes.maxOutputTokens in <baselinesOf arguments>', model: 'config.model in <baselinesOf arguments>' });
  });

  it('runScenario: its own options, as before', () => {
    expect(places(() => runScenario(parseScenario(TEXT, 's.yaml'), { prices, runs: 1 }))).toEqual({ maxTokens: 'brakes.maxOutputTokens in <runScenario options>', model: 'model in <runScenario options>' });
  });

  it('the command line: its flags, whether the model was placed at --model or not', () => {
    const command = { maxTokens: '--max-output-tokens', model: '--model' };
    expect(places(() => checkScenarioAsCommand(input, [], prices))).toEqual(command);
    expect(places(() => prepareScenario(parseScenario(TEXT, 's.yaml'), { prices, modelPlace: COMMAND_LINE_MODEL }))).toEqual(command);
  });

  it('loopcost check and sweep say the flags', async () => {
    const path = join(tempDir(), 's126k.yaml');
    writeFileSync(path, TEXT);
    for (const args of [['check', path], ['sweep', path, '--runs', '2', '--grid', 'max-steps=5,10']]) {
      const r = await cli(...args);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('send at most 1,950 (--max-output-tokens), lower systemTokens or goalTokens, or run it on a model with a larger window (model:, or --model))');
    }
  });
});

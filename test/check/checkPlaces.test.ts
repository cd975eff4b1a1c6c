/**
 * checkScenario and checkRuns name their own options when called from the library (`<checkRuns options>`
 * field `model`; a strategy no place was given for: their `input` argument's field), as populationRuns
 * names its `config` argument's; the CLI's `loopcost check` names its flags (`--model`, `--context`).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkRuns, checkScenario } from '../../src/check/run.js';
import type { CheckInput } from '../../src/check/inputs.js';
import { COMMAND_LINE_CONTEXT, parseContextSpec } from '../../src/context/strategy.js';
import { COMMAND_LINE_MODEL } from '../../src/options/given.js';
import { parseAnyScenario } from '../../src/scenario/load.js';
import { scenarioSettings } from '../../src/scenario/settings.js';
import { tinyHealthyScenarioText } from '../synthetic/tinyScenario.js';
import { cli, tempDir } from '../cli/run.js';
import { distinctSteps, MINI_TABLE, trace, userErrorOf } from '../helpers.js';

const RUN = trace(distinctSteps(4), { model: 'mini' });
const TEXT = tinyHealthyScenarioText({ name: 'tiny', steps: 3, outputTokens: 20, toolResultTokens: 100 }).replace('model: tiny', 'model: mini');
/** A summary strategy whose summary model the table does not price: refused where the strategy was given. */
const SUMMARY_OF_UNKNOWN = parseContextSpec('summary:trigger=1000,keep=2,tokens=100,model=gpt-9');

/** A check of the tiny population (with `traces`: of recorded runs too), its strategy `strategy` when given, placed nowhere. */
function input(strategy?: typeof SUMMARY_OF_UNKNOWN): CheckInput {
  const scenario = parseAnyScenario(TEXT, 'tiny.yaml');
  const settings = scenarioSettings(scenario, {});
  const chosen = strategy === undefined ? settings : { ...settings, strategy };
  return { scenario, settings: chosen, traceStrategy: chosen.strategy, traceFiles: [] } as unknown as CheckInput;
}

const placeOf = (fn: () => unknown) => {
  const issue = userErrorOf(fn).issues[0]!;
  return [issue.file, issue.field];
};

describe('checkRuns and checkScenario from the library: their own options, not --model or --context', () => {
  it('an unknown model, for recorded runs and for the population', () => {
    expect(placeOf(() => checkRuns(input(), [RUN], MINI_TABLE, 'gpt-9'))).toEqual(['<checkRuns options>', 'model']);
    expect(placeOf(() => checkRuns(input(), [], MINI_TABLE, { model: 'gpt-9' }))).toEqual(['<checkRuns options>', 'model']);
    expect(placeOf(() => checkScenario(input(), [RUN], MINI_TABLE, 'gpt-9'))).toEqual(['<checkScenario options>', 'model']);
    expect(placeOf(() => checkScenario(input(), [], MINI_TABLE, { model: 'gpt-9' }))).toEqual(['<checkScenario options>', 'model']);
  });

  it('a strategy it cannot run that no place came with: the input field that holds it', () => {
    expect(placeOf(() => checkRuns(input(SUMMARY_OF_UNKNOWN), [RUN], MINI_TABLE))).toEqual(['<checkRuns arguments>', 'input.traceStrategy']);
    expect(placeOf(() => checkRuns(input(SUMMARY_OF_UNKNOWN), [], MINI_TABLE))).toEqual(['<checkRuns arguments>', 'input.settings.strategy']);
    expect(placeOf(() => checkScenario(input(SUMMARY_OF_UNKNOWN), [], MINI_TABLE))).toEqual(['<checkScenario arguments>', 'input.settings.strategy']);
  });

  it('places the caller gives are kept', () => {
    expect(placeOf(() => checkRuns(input(), [RUN], MINI_TABLE, { model: 'gpt-9', modelPlace: COMMAND_LINE_MODEL }))).toEqual(['<command line>', '--model']);
    const placed = { ...input(SUMMARY_OF_UNKNOWN), strategyPlace: COMMAND_LINE_CONTEXT };
    expect(placeOf(() => checkScenario(placed, [], MINI_TABLE))).toEqual(['<command line>', '--context']);
  });
});

describe('loopcost check: its flags', () => {
  it('--model and --context', async () => {
    const dir = tempDir();
    const file = join(dir, 'tiny.yaml');
    writeFileSync(file, `${TEXT.replace('model: mini', 'model: gpt-4o-mini')}expect: { runs: { steps: { max: 12 } } }\n`);
    const said = async (...argv: string[]) => {
      const r = await cli('check', file, ...argv);
      expect(r.code).toBe(2);
      return r.stderr.split('\n')[0];
    };
    expect(await said('--model', 'gpt-9')).toMatch(/^loopcost: <command line> field '--model': unknown model 'gpt-9'/);
    expect(await said('--context', 'summary:trigger=1000,keep=2,tokens=100,model=gpt-9')).toMatch(/^loopcost: <command line> field '--context': unknown model 'gpt-9'/);
  });
});

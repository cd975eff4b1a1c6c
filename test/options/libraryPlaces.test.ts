/**
 * The library's last `--model` and `<command line>` words (roadmap: library errors name the caller's
 * options): populationRuns and baselinesOf name their `config` argument's model and strategy, curveRun,
 * compareCurves and growthCurve their own arguments, contextTokenSums its options and arguments, and
 * parseContextSpec the place its caller gives (its own `spec` argument by default). The CLI keeps its flags.
 */
import { describe, expect, it } from 'vitest';
import { brakeConfig } from '../../src/brakes/config.js';
import { COMMAND_LINE_CONTEXT, FULL_HISTORY, parseContextList, parseContextSpec } from '../../src/context/strategy.js';
import { COMMAND_LINE_MODEL, optionPlace } from '../../src/options/given.js';
import { contextTokenCurves, contextTokenSums } from '../../src/population/contextTokens.js';
import { baselinesOf, populationRuns } from '../../src/population/run.js';
import { compareCurves, curveRun, growthCurve } from '../../src/replay/curve.js';
import { parseScenario } from '../../src/scenario/load.js';
import { tinyHealthyScenarioText } from '../synthetic/tinyScenario.js';
import { cli } from '../cli/run.js';
import { distinctSteps, MINI_TABLE, trace, userErrorOf } from '../helpers.js';

const RUN = trace(distinctSteps(4), { model: 'mini' });
const SCENARIO = parseScenario(tinyHealthyScenarioText({ name: 'tiny', steps: 3, outputTokens: 20, toolResultTokens: 100 }).replace('model: tiny', 'model: mini'), 'mini.yaml');
/** A summary strategy whose summary model the table does not price: refused where the strategy was given. */
const SUMMARY_OF_UNKNOWN = parseContextSpec('summary:trigger=1000,keep=2,tokens=100,model=gpt-9');
const placeOf = (fn: () => unknown) => {
  const issue = userErrorOf(fn).issues[0]!;
  return [issue.file, issue.field];
};

describe('populationRuns and baselinesOf: their config argument, not --model or --context', () => {
  const config = { brakes: brakeConfig({}), strategy: FULL_HISTORY };

  it('an unknown model, for recorded runs and for a scenario population', () => {
    expect(placeOf(() => populationRuns({ traces: [RUN] }, { ...config, model: 'gpt-9' }, MINI_TABLE))).toEqual(['<populationRuns arguments>', 'config.model']);
    expect(placeOf(() => populationRuns({ scenarios: [{ scenario: SCENARIO, runs: 1, seed: 1 }] }, { ...config, model: 'gpt-9' }, MINI_TABLE))).toEqual(['<populationRuns arguments>', 'config.model']);
    expect(placeOf(() => baselinesOf({ traces: [RUN] }, { ...config, model: 'gpt-9' }, MINI_TABLE))).toEqual(['<baselinesOf arguments>', 'config.model']);
  });

  it('a strategy it cannot run, for recorded runs and for a scenario population', () => {
    const summary = { ...config, strategy: SUMMARY_OF_UNKNOWN };
    expect(placeOf(() => populationRuns({ traces: [RUN] }, summary, MINI_TABLE))).toEqual(['<populationRuns arguments>', 'config.strategy']);
    expect(placeOf(() => populationRuns({ scenarios: [{ scenario: SCENARIO, runs: 1, seed: 1 }] }, summary, MINI_TABLE))).toEqual(['<populationRuns arguments>', 'config.strategy']);
  });

  it('places the caller gives are kept', () => {
    const given = { ...config, model: 'gpt-9', modelPlace: COMMAND_LINE_MODEL };
    expect(placeOf(() => populationRuns({ traces: [RUN] }, given, MINI_TABLE))).toEqual(['<command line>', '--model']);
    const strategy = { ...config, strategy: SUMMARY_OF_UNKNOWN, strategyPlace: optionPlace('myTool', 'context') };
    expect(placeOf(() => populationRuns({ traces: [RUN] }, strategy, MINI_TABLE))).toEqual(['<myTool options>', 'context']);
  });
});

describe('curveRun, compareCurves, growthCurve: their own arguments', () => {
  const spec = { model: 'gpt-9', systemTokens: 100, outputTokens: 10, toolTokens: 20, steps: 3 };
  const known = { ...spec, model: 'mini' };

  it('an unknown model', () => {
    expect(placeOf(() => curveRun(spec, FULL_HISTORY, MINI_TABLE))).toEqual(['<curveRun arguments>', 'spec.model']);
    expect(placeOf(() => compareCurves(spec, [{ spec: 'full', strategy: FULL_HISTORY }], MINI_TABLE))).toEqual(['<compareCurves arguments>', 'spec.model']);
    expect(placeOf(() => growthCurve(spec, FULL_HISTORY, MINI_TABLE))).toEqual(['<growthCurve arguments>', 'spec.model']);
    expect(placeOf(() => curveRun(spec, FULL_HISTORY, MINI_TABLE, { modelPlace: COMMAND_LINE_MODEL }))).toEqual(['<command line>', '--model']);
  });

  it('a strategy it cannot run', () => {
    expect(placeOf(() => curveRun(known, SUMMARY_OF_UNKNOWN, MINI_TABLE))).toEqual(['<curveRun arguments>', 'strategy']);
    const two = [{ spec: 'full', strategy: FULL_HISTORY }, { spec: 'summary', strategy: SUMMARY_OF_UNKNOWN }];
    expect(placeOf(() => compareCurves(known, two, MINI_TABLE))).toEqual(['<compareCurves arguments>', 'strategies[1].strategy']);
    expect(placeOf(() => curveRun(known, SUMMARY_OF_UNKNOWN, MINI_TABLE, { strategyPlace: COMMAND_LINE_CONTEXT }))).toEqual(['<command line>', '--context']);
  });
});

describe('contextTokenSums and contextTokenCurves: their options and arguments', () => {
  const strategies = [{ spec: 'full', strategy: FULL_HISTORY }, { spec: 'summary', strategy: SUMMARY_OF_UNKNOWN }];

  it('an unknown model, a strategy it cannot run', () => {
    expect(placeOf(() => contextTokenSums([RUN], strategies.slice(0, 1), MINI_TABLE, { model: 'gpt-9' }))).toEqual(['<contextTokenSums options>', 'model']);
    expect(placeOf(() => contextTokenCurves([RUN], strategies.slice(0, 1), MINI_TABLE, { model: 'gpt-9' }))).toEqual(['<contextTokenCurves options>', 'model']);
    expect(placeOf(() => contextTokenSums([RUN], strategies, MINI_TABLE))).toEqual(['<contextTokenSums arguments>', 'strategies[1].strategy']);
    expect(placeOf(() => contextTokenSums([RUN], strategies.slice(0, 1), MINI_TABLE, { model: 'gpt-9', modelPlace: COMMAND_LINE_MODEL }))).toEqual(['<command line>', '--model']);
  });
});

describe('parseContextSpec: the place its caller gives', () => {
  it('its own argument by default; a place; a flag on the command line', () => {
    expect(placeOf(() => parseContextSpec('window:0'))).toEqual(['<parseContextSpec arguments>', 'spec']);
    expect(placeOf(() => parseContextSpec('mask:3,keep=2', { file: '<myTool options>', field: 'context' }))).toEqual(['<myTool options>', 'context']);
    expect(placeOf(() => parseContextSpec('summary:keep=2', '--context'))).toEqual(['<command line>', '--context']);
    expect(placeOf(() => parseContextList('full;full', { file: 'team.yaml', field: 'strategies' }))).toEqual(['team.yaml', 'strategies']);
  });

  it('the CLI names its flags: --model, --context, --compare-context', async () => {
    const curve = ['curve', '--system-tokens', '100', '--output-tokens', '10', '--tool-tokens', '20', '--steps', '3'];
    const said = async (...argv: string[]) => {
      const r = await cli(...curve, ...argv);
      expect(r.code).toBe(2);
      return r.stderr.split('\n')[0];
    };
    expect(await said('--model', 'gpt-9')).toMatch(/^loopcost: <command line> field '--model': unknown model 'gpt-9'/);
    expect(await said('--model', 'gpt-4o-mini', '--context', 'summary:trigger=1000,keep=2,tokens=100,model=gpt-9')).toMatch(/^loopcost: <command line> field '--context': unknown model 'gpt-9'/);
    expect(await said('--model', 'gpt-4o-mini', '--context', 'window:0')).toMatch(/^loopcost: <command line> field '--context': 'window:0'/);
    expect(await said('--model', 'gpt-4o-mini', '--compare-context', 'full;window:0')).toMatch(/^loopcost: <command line> field '--compare-context': 'window:0'/);
  });
});

/**
 * A Scenario built in code (or a parsed one changed in place) is held to the rules a scenario file is: the same
 * schema and checks parseScenario applies (scenario/scenarioObject.ts), at runScenario, scenarioRuns,
 * generateTraces and populationRuns, naming the argument's field path; parseScenarioObject checks one up front.
 */
import { describe, expect, it } from 'vitest';
import { NO_BRAKES } from '../../src/brakes/config.js';
import { FULL_HISTORY } from '../../src/context/strategy.js';
import { loadPriceTable } from '../../src/pricing/index.js';
import { populationRuns } from '../../src/population/run.js';
import { generateTraces } from '../../src/scenario/generate.js';
import { loadScenarioFile, parseScenario, type Scenario } from '../../src/scenario/load.js';
import { runScenario } from '../../src/scenario/run.js';
import { parseScenarioObject } from '../../src/scenario/scenarioObject.js';
import { userErrorOf } from '../helpers.js';
import { stringify } from 'yaml';

const prices = loadPriceTable();
const good = (): Scenario => structuredClone(loadScenarioFile('scenarios/flight-search.yaml'));
const changed = (change: (s: Record<string, any>) => void): Scenario => {
  const s = good();
  change(s as Record<string, any>);
  return s;
};
const fieldsOf = (fn: () => unknown) => userErrorOf(fn).issues.map((issue) => `${issue.file} ${issue.field}`);

describe('a scenario object is checked as a scenario file is', () => {
  it('runScenario: a negative systemTokens, steps, a zero or negative weight, an empty population, NaN: a UserError naming the field', () => {
    expect(fieldsOf(() => runScenario(changed((s) => (s.systemTokens = -2000)), { prices, runs: 3 }))).toEqual(['<runScenario arguments> scenario.systemTokens']);
    expect(fieldsOf(() => runScenario(changed((s) => (s.population[0].steps = -3)), { prices, runs: 3 }))[0]).toBe('<runScenario arguments> scenario.population[0].steps');
    expect(fieldsOf(() => runScenario(changed((s) => (s.population[0].weight = -1)), { prices, runs: 3 }))[0]).toMatch(/^<runScenario arguments> scenario\.population/);
    expect(fieldsOf(() => runScenario(changed((s) => (s.population = s.population.map((e: object) => ({ ...e, weight: 0 })))), { prices, runs: 3 }))[0]).toMatch(/^<runScenario arguments> scenario\.population/);
    expect(fieldsOf(() => runScenario(changed((s) => (s.population = [])), { prices, runs: 3 }))[0]).toBe('<runScenario arguments> scenario.population');
    expect(fieldsOf(() => runScenario(changed((s) => (s.systemTokens = NaN)), { prices, runs: 3 }))).toEqual(['<runScenario arguments> scenario.systemTokens']);
  });

  it('the same value refused in a file and in an object, in the same words', () => {
    const object = changed((s) => (s.systemTokens = -2000));
    const { source: _, ...file } = object;
    const fromText = userErrorOf(() => parseScenario(stringify(file), 'x.yaml')).issues[0]!;
    const fromObject = userErrorOf(() => runScenario(object, { prices, runs: 3 })).issues[0]!;
    expect([fromObject.code, fromObject.message]).toEqual([fromText.code, fromText.message]);
  });

  it('populationRuns and generateTraces name their own argument', () => {
    const bad = changed((s) => (s.systemTokens = -2000));
    expect(fieldsOf(() => populationRuns({ scenarios: [{ scenario: bad, runs: 2, seed: 1 }] }, { brakes: NO_BRAKES, strategy: FULL_HISTORY }, prices))).toEqual(['<populationRuns arguments> inputs.scenarios[0].scenario.systemTokens']);
    expect(fieldsOf(() => generateTraces(bad, { prices }).next())).toEqual(['<generateTraces arguments> scenario.systemTokens']);
  });

  it('a misspelt brake or an unknown field is refused, not ignored', () => {
    expect(fieldsOf(() => runScenario(changed((s) => (s.brakes = { maxStep: 3 })), { prices, runs: 3 }))[0]).toMatch(/^<runScenario arguments> scenario\.brakes/);
  });

  it('parseScenarioObject: a good one is the Scenario (its source kept, else given); a bad one a UserError', () => {
    const s = good();
    expect(parseScenarioObject(s)).toBe(s);
    const { source: _, ...file } = good();
    expect(parseScenarioObject(file, 'mine').source).toBe('mine');
    expect(runScenario(parseScenarioObject(file), { prices, runs: 2 })).toHaveLength(2);
    expect(fieldsOf(() => parseScenarioObject({ ...file, systemTokens: -1 }))).toEqual(['<parseScenarioObject arguments> scenario.systemTokens']);
    expect(fieldsOf(() => parseScenarioObject(null))).toEqual(['<parseScenarioObject arguments> scenario']);
  });

  it('a good scenario object runs as its file does', () => {
    expect(runScenario(good(), { prices, runs: 4 }).map((r) => r.costPico)).toEqual(runScenario(loadScenarioFile('scenarios/flight-search.yaml'), { prices, runs: 4 }).map((r) => r.costPico));
  });
});

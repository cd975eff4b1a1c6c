/**
 * Scenario-file mistakes of a first hour, answered with what to do: an unknown key at its own line (each
 * one, when several), a share written as a percentage (every share field, one message), a file with a
 * scenario's keys but no `scenario:` line (loaded as a scenario, told the line is missing).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/scenario/load.js';
import { isScenarioFile } from '../../src/scenario/inputs.js';
import { scenarioSchema } from '../../src/scenario/schema.js';
import { SCENARIO_TOP_KEYS } from '../../src/scenario/scenarioMark.js';
import { userErrorOf } from '../helpers.js';

const REFERENCE = readFileSync('scenarios/reference-sum-of-squares.yaml', 'utf8');

function withEdit(from: string, to: string): string {
  const text = REFERENCE.replace(from, to);
  expect(text).not.toBe(REFERENCE);
  return text;
}

function issuesOf(text: string) {
  return userErrorOf(() => parseScenario(text, 'bad.yaml')).issues;
}

describe('an unknown key is reported at its own line', () => {
  it('systemToken (line 9), not the mapping it is in (line 5)', () => {
    const [issue, ...rest] = issuesOf(withEdit('systemTokens: 310', 'systemToken: 310'));
    expect(issue).toMatchObject({ line: 9, code: 'unrecognized_keys', message: 'unknown field systemToken' });
    expect(issue!.hint).toMatch(/^did you mean systemTokens\?/);
    expect(rest).toEqual([]);
  });

  it("outputToken in a population entry (line 23), not the entry's first line (19)", () => {
    const issues = issuesOf(withEdit('    outputTokens: 150', '    outputToken: 150'));
    expect(issues.find((issue) => issue.code === 'unrecognized_keys')).toMatchObject({ line: 23, field: 'population[0]', message: 'unknown field outputToken' });
  });

  it('two unknown keys of one mapping: two issues, each at its own line', () => {
    const issues = issuesOf(withEdit('    outputTokens: 150\n    toolResultTokens: 450', '    outputTokens: 150\n    toolResultTokens: 450\n    colour: red\n    size: 3'));
    expect(issues.map((issue) => [issue.line, issue.message])).toEqual([
      [25, 'unknown field colour'],
      [26, 'unknown field size'],
    ]);
  });

  it('an unknown key whose value is a block below it: the key\'s line', () => {
    const [issue] = issuesOf(`${REFERENCE}extra:\n  a: 1\n`);
    expect(issue).toMatchObject({ line: 26, message: 'unknown field extra' });
  });
});

describe('every share field: a share from 0 to 1, with what to write', () => {
  const SHARES: [string, string, string][] = [
    ['expect.population.completionRate.min', 'completionRate: { min: 1 }', 'completionRate: { min: 100 }'],
    ['expect.population.falseStopRate.max', 'falseStopRate: { max: 0 }', 'falseStopRate: { max: 5 }'],
    ['expect.population.wastedShare.max', 'falseStopRate: { max: 0 }', 'falseStopRate: { max: 0 }, wastedShare: { max: 10 }'],
    ['cacheHitShare', 'runs: 10', 'runs: 10\ncacheHitShare: 80'],
    ['population[0].repeatShare', '    tool: run_python', '    tool: run_python\n    repeatShare: 20'],
    ['population[0].errorShare', '    tool: run_python', '    tool: run_python\n    errorShare: -0.5'],
    ['population[0].repeatQuery', '  - behaviour: healthy\n    name: solver\n    weight: 1\n    steps: 3', '  - behaviour: perfectionist\n    name: solver\n    weight: 1\n    repeatQuery: 50'],
  ];
  for (const [field, from, to] of SHARES) {
    it(field, () => {
      const issue = issuesOf(withEdit(from, to)).find((i) => i.field === field);
      expect(issue?.message).toMatch(/^is -?\d+(\.\d+)?, not a share from 0 to 1: write 0\.9 for 90%$/);
      expect(issue?.message).not.toMatch(/Too (big|small)|expected number/);
    });
  }

  it('backtrackShare and unparseableShare: from 0 to below 1', () => {
    for (const [behaviour, key] of [['backtracker', 'backtrackShare'], ['sloppy', 'unparseableShare']]) {
      const text = withEdit('  - behaviour: healthy\n    name: solver\n    weight: 1\n    steps: 3', `  - behaviour: ${behaviour}\n    name: solver\n    weight: 1\n    steps: 3\n    ${key}: 30`);
      const issue = issuesOf(text).find((i) => i.field === `population[0].${key}`);
      expect(issue?.message).toBe('is 30, not a share from 0 to below 1: write 0.3 for 30% (at 1 the agent never gets anywhere)');
    }
  });
});

describe('a scenario without its scenario: line', () => {
  const NO_HEAD = withEdit('scenario: loopcost.scenario/1\n', '');

  it('the loader says the line is missing (the first key\'s line), with what to add', () => {
    const [issue, ...rest] = issuesOf(NO_HEAD);
    expect(rest).toEqual([]);
    expect(issue).toMatchObject({ line: 5, field: 'scenario', code: 'no_scenario_line', message: 'has no `scenario: loopcost.scenario/1` line' });
    expect(issue!.hint).toMatch(/add `scenario: loopcost\.scenario\/1` as its first line/);
  });

  it('the input split takes it for a scenario file (population and model keys), not a YAML cassette or a lone key', () => {
    const dir = mkdtempSync(join(tmpdir(), 'loopcost-nohead-'));
    const file = (name: string, text: string) => (writeFileSync(join(dir, name), text), join(dir, name));
    expect(isScenarioFile(file('nohead.yaml', NO_HEAD))).toBe(true);
    expect(isScenarioFile(file('nohead.json', JSON.stringify({ model: 'gpt-4o-mini', systemTokens: 10, population: [] })))).toBe(true);
    expect(isScenarioFile(file('cassette.yaml', 'interactions:\n- request: {}\n  response: {}\nversion: 1\n'))).toBe(false);
    expect(isScenarioFile(file('other.yaml', 'model: gpt-4o\nname: x\n'))).toBe(false);
  });

  it("the keys that tell one are the schema's own top-level keys", () => {
    const shape = (scenarioSchema as unknown as { _zod: { def: { shape: Record<string, unknown> } } })._zod.def.shape;
    expect([...SCENARIO_TOP_KEYS].sort()).toEqual(Object.keys(shape).filter((key) => key !== 'scenario').sort());
  });
});

/**
 * Scenario-file input messages (hostile-input review): each names the file, line and field and says what
 * to do, in loopcost's words, not the YAML package's: a key given twice, aliases past the limit.
 */
import { describe, expect, it } from 'vitest';
import { parseAnyScenario } from '../../src/scenario/load.js';
import { userErrorOf } from '../helpers.js';

const HEAD = ['scenario: loopcost.scenario/1', 'model: gpt-4o-mini', 'systemTokens: 10'];
const POPULATION = ['population:', '  - behaviour: healthy', '    weight: 1', '    steps: 3', '    outputTokens: 10', '    toolResultTokens: 10'];
const issuesOf = (lines: string[]) => userErrorOf(() => parseAnyScenario(lines.join('\n') + '\n', 's.yaml')).issues;

describe('a key given twice in a scenario file', () => {
  it('names the key, its line and field, and the fix (as the JSON readers do)', () => {
    const issues = issuesOf([...HEAD, ...POPULATION, 'systemTokens: 11']);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ file: 's.yaml', line: 10, field: 'systemTokens', code: 'duplicate_key' });
    expect(issues[0]!.message).toBe('key "systemTokens" is given twice in the same mapping');
    expect(issues[0]!.hint).toMatch(/keep the one you mean/);
    expect(userErrorOf(() => parseAnyScenario([...HEAD, ...POPULATION, 'systemTokens: 11'].join('\n'), 's.yaml')).message).not.toMatch(/Map keys must be unique/);
  });

  it('a nested key: its dotted field', () => {
    const issues = issuesOf([...HEAD, 'brakes:', '  maxSteps: 3', '  maxSteps: 4', ...POPULATION]);
    expect(issues[0]).toMatchObject({ line: 6, field: 'brakes.maxSteps', code: 'duplicate_key' });
    expect(issues[0]!.message).toBe('key "maxSteps" is given twice in the same mapping');
  });

  it('in a list entry', () => {
    const issues = issuesOf([...HEAD, ...POPULATION, '    steps: 4']);
    expect(issues[0]).toMatchObject({ line: 10, field: 'population[0].steps', code: 'duplicate_key' });
  });
});

describe('YAML aliases past the limit', () => {
  const bomb = [...HEAD, ...POPULATION, 'description:', '  a: &a [x, x, x, x, x, x, x, x, x, x]', '  b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]', '  c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]', '  d: [*c, *c]'];

  it('names the line of the first alias past the limit, in loopcost words, and what to do', () => {
    const issues = issuesOf(bomb);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ file: 's.yaml', line: 13, code: 'too_many_aliases' });
    expect(issues[0]!.message).toBe('uses YAML aliases past the limit: this alias takes the file past 100 alias expansions');
    expect(issues[0]!.hint).toMatch(/write the values out instead of aliasing them/);
    expect(`${issues[0]!.message} ${issues[0]!.hint}`).not.toMatch(/resource exhaustion|Excessive/);
  });

  it('a file under the limit still reads (the watch leaves nothing behind)', () => {
    const fine = [...HEAD, ...POPULATION, 'description:', '  a: &a [x, x]', '  b: [*a, *a]'];
    expect(() => parseAnyScenario(fine.join('\n'), 's.yaml')).toThrow(/description/);
  });
});

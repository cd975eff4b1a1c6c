/**
 * A newcomer's scenario-file mistakes, each told at its line and field with what to write: a numeral past a
 * double in a field that takes a number or a distribution (`systemTokens: 1e400`) is too large, quoted as
 * written; `variants: 4` is told a list of argument objects is wanted; a YAML merge key (`- <<: *base`) is
 * named as unsupported, not read as an entry missing its behaviour; a step count that draws only 0 is refused.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/scenario/load.js';
import { drawsOnlyZero } from '../../src/scenario/stepCounts.js';
import { userErrorOf } from '../helpers.js';

const issuesOf = (text: string) => userErrorOf(() => parseScenario(text, 'bad.yaml')).issues;

/** A one-entry healthy scenario; `top` and `entry` lines replace or add fields. */
function scenario(top: string[] = [], entry: string[] = ['steps: 3']): string {
  return ['scenario: loopcost.scenario/1', 'model: gpt-4o-mini', 'systemTokens: 10', ...top, 'population:', '  - behaviour: healthy', '    weight: 1', '    outputTokens: 10', '    toolResultTokens: 10', ...entry.map((l) => `    ${l}`)].join('\n') + '\n';
}

describe('a numeral past a double where a number or a distribution goes', () => {
  it('systemTokens: 1e400 and outputTokens: -1e400 are too large, quoted as written, at their lines', () => {
    const [top] = issuesOf(scenario().replace('systemTokens: 10', 'systemTokens: 1e400'));
    expect(top).toMatchObject({ field: 'systemTokens', line: 3, code: 'number_too_large' });
    expect(top!.message).toBe('is 1e400: beyond the largest number a file can give (±1.8e308), so it reads as infinite, which is not a value loopcost can use here; give a finite number');
    const [entry] = issuesOf(scenario().replace('outputTokens: 10', 'outputTokens: -1e400'));
    expect(entry).toMatchObject({ field: 'population[0].outputTokens', line: 7, code: 'number_too_large' });
    expect(entry!.message).toMatch(/^is -1e400: beyond the largest number/);
    expect(issuesOf(scenario().replace('systemTokens: 10', 'systemTokens: .inf'))[0]!.message).toBe('is .inf: infinite is not a value loopcost can use here; give a finite number');
  });
});

describe('list fields say a list of what', () => {
  const weather = readFileSync('scenarios/springfield-weather.yaml', 'utf8');
  it('variants: 4 asks for argument objects, one per attempt, as springfield-weather.yaml shows', () => {
    const text = weather.replace(/ {4}variants:\n( {6}- .*\n)+/, '    variants: 4\n');
    expect(text).not.toBe(weather);
    const [issue] = issuesOf(text);
    expect(issue).toMatchObject({ field: 'population[0].variants', line: 23 });
    expect(issue!.message).toMatch(/^is 4: give a list of argument objects, one per attempt, in order \(- \{ city: Springfield \}.*as scenarios\/springfield-weather\.yaml shows/);
  });

  it("a repeater's cycle and an asker's phrasings say what they take", () => {
    const repeater = scenario([], ['cycle: { sort: type }']).replace('behaviour: healthy', 'behaviour: repeater');
    expect(issuesOf(repeater)[0]!.message).toMatch(/^is an object.*: give a list of argument objects, one per call of the cycle/);
    const asker = scenario([], ['workSteps: 2', 'phrasings: [hi, hello]']).replace('behaviour: healthy', 'behaviour: asker');
    expect(issuesOf(asker)[0]!.message).toMatch(/give a whole number: how many wordings of the question the asker uses in turn/);
  });
});

describe('YAML merge keys', () => {
  it('- <<: *base is refused as a merge key at its line, not as an entry missing its behaviour', () => {
    const text = ['scenario: loopcost.scenario/1', 'model: gpt-4o-mini', 'systemTokens: 10', 'population:', '  - &base', '    behaviour: healthy', '    weight: 1', '    steps: 3', '    outputTokens: 10', '    toolResultTokens: 10', '  - <<: *base', '    name: b'].join('\n');
    const issues = issuesOf(text);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ field: 'population[1].<<', line: 11, code: 'merge_key' });
    expect(issues[0]!.message).toMatch(/^is a YAML merge key \(<<: \*anchor\), which scenario files do not support/);
    expect(issues[0]!.hint).toMatch(/write the fields out in each entry, or alias a whole entry/);
  });

  it('at the top level too (not "unknown field <<"); an alias of a whole entry still reads', () => {
    const top = issuesOf(['base: &b { preset: reference }', 'brakes: { <<: *b }'].join('\n') + '\n' + scenario().split('\n').slice(0).join('\n'));
    expect(top.map((i) => i.code)).toContain('merge_key');
    const aliased = ['scenario: loopcost.scenario/1', 'model: gpt-4o-mini', 'systemTokens: 10', 'population:', '  - &base', '    behaviour: healthy', '    weight: 1', '    steps: 3', '    outputTokens: 10', '    toolResultTokens: 10', '  - *base'].join('\n');
    expect(parseScenario(aliased, 'ok.yaml').population).toHaveLength(2);
  });
});

describe('a step count that draws only 0', () => {
  it('steps: 0 is refused naming the field and line (a step count is held at 1)', () => {
    const [issue] = issuesOf(scenario([], ['steps: 0']));
    expect(issue).toMatchObject({ field: 'population[0].steps', line: 9, code: 'no_steps' });
    expect(issue!.message).toBe("is 0: a run takes at least 1 step (a healthy entry's steps is held at 1), so it would run 1 step, not 0");
  });

  it("{ kind: fixed, value: 0 } and uniform 0..0 too, an asker's workSteps: 0 too; 1, uniform 0..2 and a forgetful's steps: 0 read", () => {
    expect(issuesOf(scenario([], ['steps: { kind: fixed, value: 0 }']))[0]!.code).toBe('no_steps');
    expect(issuesOf(scenario([], ['steps: { kind: uniform, min: 0, max: 0 }']))[0]!.message).toMatch(/^draws only 0 \(uniform\)/);
    const asker = scenario([], ['workSteps: 0']).replace('behaviour: healthy', 'behaviour: asker');
    expect(issuesOf(asker)[0]).toMatchObject({ field: 'population[0].workSteps', code: 'no_steps' });
    expect(parseScenario(scenario([], ['steps: 1']), 'ok.yaml').population).toHaveLength(1);
    expect(parseScenario(scenario([], ['steps: { kind: uniform, min: 0, max: 2 }']), 'ok.yaml').population).toHaveLength(1);
    const forgetful = scenario([], ['steps: 0', 'observationTokens: 5']).replace('behaviour: healthy', 'behaviour: forgetful');
    expect(parseScenario(forgetful, 'ok.yaml').population).toHaveLength(1);
    expect([drawsOnlyZero({ kind: 'normal', mean: 0.4, sd: 0 }), drawsOnlyZero({ kind: 'normal', mean: 0, sd: 1 }), drawsOnlyZero({ kind: 'lognormal', median: 0.1, p95: 0.2 })]).toEqual([true, false, false]);
  });
});

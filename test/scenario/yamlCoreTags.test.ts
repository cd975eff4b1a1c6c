/**
 * `runs: !!float 20` was refused as `is the string "20", not a number: write the number without quotes` (no
 * quotes there: `yaml` reads a tagged scalar its rule does not take as the string under it), while
 * `!!int "20"` was 20. One rule now: a core tag is read as it says, quoted or not (`!!float 20` = 20,
 * `!!int "20"` = 20, `!!str 20` = the string "20"); a value the tag does not take is refused naming the
 * tag; and a string where a number belongs is told to lose its quotes only when it has some.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/scenario/load.js';
import { userErrorOf } from '../helpers.js';
import { cli, tempDir } from '../cli/run.js';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';

const KEEPS_ASKING = readFileSync('scenarios/keeps-asking.yaml', 'utf8');
const withRuns = (runs: string) => {
  const text = KEEPS_ASKING.replace(/^runs: 20$/m, `runs: ${runs}`);
  expect(text).not.toBe(KEEPS_ASKING);
  return text;
};
const issuesOf = (text: string) => userErrorOf(() => parseScenario(text, 'bad.yaml')).issues;

describe('a core tag on a scenario number is read as the tag says', () => {
  it.each([
    ['!!float 20', 20],
    ['!!float "20"', 20],
    ['!!float 2e1', 20],
    ['!!float +20.', 20],
    ['!!int "20"', 20],
    ['!!int 20', 20],
    ['!!int 0x14', 20],
  ])('runs: %s is %d', (runs, value) => {
    expect(parseScenario(withRuns(runs), 'ok.yaml').runs).toBe(value);
  });

  it('!!float on a cost limit, !!str on a name: as the tag says', () => {
    const text = KEEPS_ASKING.replace('costUsd: { max: 0.003 }', 'costUsd: { max: !!float 1 }').replace('name: keeps asking', 'name: !!str 42');
    const scenario = parseScenario(text, 'ok.yaml');
    expect(scenario.expect?.runs?.costUsd?.max).toBe(1);
    expect(scenario.name).toBe('42');
  });

  it('!!float .inf is still infinite, said as such', () => {
    expect(issuesOf(withRuns('!!float .inf'))[0]).toMatchObject({ field: 'runs', message: 'is .inf: infinite is not a number of runs; give a finite number' });
  });

  it.each([
    ['!!int 20.5', 'has the YAML tag !!int, but 20.5 is not a whole number as YAML writes one (20, -3, 0x14, 0o24)'],
    ['!!int "twenty"', 'has the YAML tag !!int, but "twenty" is not a whole number as YAML writes one (20, -3, 0x14, 0o24)'],
    ['!!float 20x', 'has the YAML tag !!float, but 20x is not a number as YAML writes one (20, 2.5, 1e3, .inf)'],
    ['!!bool 20', 'has the YAML tag !!bool, but 20 is not true or false'],
    ['!!null 20', 'has the YAML tag !!null, but 20 is not null (null, ~ or nothing)'],
    ['!!map 20', 'has the YAML tag !!map, but its value is not a mapping'],
    ['!!int [20]', 'has the YAML tag !!int, but its value is a list, not a whole number as YAML writes one (20, -3, 0x14, 0o24)'],
  ])('runs: %s is refused at its line, naming the tag', (runs, message) => {
    expect(issuesOf(withRuns(runs))).toEqual([expect.objectContaining({ line: 14, field: 'runs', code: 'yaml_tag_mismatch', message })]);
  });
});

describe('a string where a number belongs: the words say how the file wrote it', () => {
  it('!!str 20: the tag, not quotes', () => {
    const [issue, ...rest] = issuesOf(withRuns('!!str 20'));
    expect(rest).toEqual([]);
    expect(issue).toMatchObject({ line: 14, field: 'runs', message: 'is the string "20" (its tag !!str makes it one), not a number: remove the tag !!str' });
    expect(issuesOf(withRuns('! 20'))[0]!.message).toBe('is the string "20" (its tag ! makes it one), not a number: remove the tag !');
  });

  it('a numeral YAML reads as text (0b101, 0X14): no quotes claimed', () => {
    expect(issuesOf(withRuns('0b101'))[0]!.message).toBe('is the string "0b101" (YAML reads 0b101 as text), not a number: write the number in decimal (20, 2.5, 1e3), or as YAML writes one (0x14, 0o24)');
    expect(issuesOf(withRuns('0X14'))[0]!.message).not.toMatch(/quotes/);
    expect(issuesOf(withRuns('|\n  20'))[0]!.message).toBe('is the string "20\\n" (a block of text (| or >) is one), not a number: write the number on the line of its field');
  });

  it('a quoted number is still told to lose its quotes; a union field (systemTokens) too', () => {
    expect(issuesOf(withRuns('"20"'))[0]!.message).toBe('is the string "20", not a number: write the number without quotes');
    expect(issuesOf(withRuns("'20'"))[0]!.message).toBe('is the string "20", not a number: write the number without quotes');
    const union = KEEPS_ASKING.replace(/^systemTokens: .*$/m, 'systemTokens: !!str 900');
    expect(union).not.toBe(KEEPS_ASKING);
    expect(issuesOf(union)[0]).toMatchObject({ field: 'systemTokens', message: 'is the string "900" (its tag !!str makes it one), not a number: remove the tag !!str' });
  });

  it('the command line: replay of runs: !!float 20 runs; !!str 20 names the tag', async () => {
    const dir = tempDir();
    const floatFile = join(dir, 'float.yaml');
    const strFile = join(dir, 'str.yaml');
    writeFileSync(floatFile, withRuns('!!float 20'));
    writeFileSync(strFile, withRuns('!!str 20'));
    const ran = await cli('replay', floatFile, '--format', 'json');
    expect(ran.code, ran.stderr).toBe(0);
    const refused = await cli('replay', strFile);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${strFile}:line 14 field 'runs': is the string "20" (its tag !!str makes it one), not a number: remove the tag !!str`);
    expect(refused.stderr).not.toMatch(/quotes/);
  });
});

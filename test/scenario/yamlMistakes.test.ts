/**
 * YAML mistakes of a scenario file's first hour, each said once, at its line, in the file's own words:
 * a syntax error on the `scenario:` line (a scenario file's YAML error, not "no trace format"), one wrong
 * indentation (its first error, the rest counted), several documents, a number past several limits (the
 * field's own), a tag past the core schema's (refused, not read as the string under it), and a numeral too
 * large for a number (quoted as written, not called `.inf`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/scenario/load.js';
import { isScenarioFile } from '../../src/scenario/inputs.js';
import { userErrorOf } from '../helpers.js';
import { tempDir } from '../cli/run.js';

const KEEPS_ASKING = readFileSync('scenarios/keeps-asking.yaml', 'utf8');

function edited(from: string | RegExp, to: string): string {
  const text = KEEPS_ASKING.replace(from, to);
  expect(text).not.toBe(KEEPS_ASKING);
  return text;
}

const issuesOf = (text: string) => userErrorOf(() => parseScenario(text, 'bad.yaml')).issues;

describe('a YAML syntax error on the scenario: line', () => {
  it('makes the file a scenario file, whose loader says where the YAML is broken', () => {
    const dir = tempDir();
    const path = join(dir, 'syntaxerr.yaml');
    writeFileSync(path, 'scenario: [unclosed\n');
    expect(isScenarioFile(path)).toBe(true);
    const [issue, ...rest] = issuesOf('scenario: [unclosed\n');
    expect(rest).toEqual([]);
    expect(issue).toMatchObject({ file: 'bad.yaml', line: 1, code: 'invalid_yaml' });
    // Placed just past the bracket's last character, not on the blank line the parser reached.
    expect(issue!.message).toBe('not valid YAML at column 20: Flow sequence in block collection must be sufficiently indented and end with a ]');
  });

  it('a misspelt version is the loader’s too; a cassette (no scenario: key) is still not a scenario file', () => {
    const dir = tempDir();
    const path = join(dir, 'version.yaml');
    writeFileSync(path, 'scenario: loopcost/1\nname: x\n');
    expect(isScenarioFile(path)).toBe(true);
    const json = join(dir, 'broken.json');
    writeFileSync(json, '{"scenario": [\n');
    expect(isScenarioFile(json)).toBe(true);
    expect(isScenarioFile('test/fixtures/cassettes/openai-chat-tool-retry.yaml')).toBe(false);
  });
});

describe('noisy YAML errors', () => {
  it('one wrong indentation is one message: its first error, with line and column, the others counted', () => {
    const text = edited('    phrasings: 3', '   phrasings: 3');
    const issues = issuesOf(text);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ line: 22, code: 'invalid_yaml' });
    expect(issues[0]!.message).toMatch(/^not valid YAML at column 1: Sequence item without - indicator; \d+ more YAML errors after it, which may follow from it: fix this one first$/);
  });

  it('several documents: how many, and that a scenario file is one (not the library’s API)', () => {
    const [issue, ...rest] = issuesOf(`${KEEPS_ASKING}---\n${KEEPS_ASKING}---\nname: third\n`);
    expect(rest).toEqual([]);
    expect(issue).toMatchObject({ code: 'multiple_yaml_documents', message: 'holds 3 YAML documents (`---` starts each); a scenario file is one document', hint: 'split it into files, one document each' });
    expect(issue!.message).not.toMatch(/parseAllDocuments/);
  });

  it('a number past several limits is one message, with the field’s own limit', () => {
    expect(issuesOf(edited(/^runs: 20$/m, 'runs: 99999999999999999999'))).toEqual([
      expect.objectContaining({ field: 'runs', line: 14, message: 'is 99999999999999999999: at most 10,000,000' }),
    ]);
    // At one limit, the schema's own words (why 2^53 − 1) rather than zod's.
    expect(issuesOf(`${KEEPS_ASKING}seed: 99999999999999999999\n`)).toEqual([
      expect.objectContaining({ field: 'seed', message: 'is 99999999999999999999: must be at most 9007199254740991 (2^53 − 1), the largest count held exactly' }),
    ]);
  });
});

describe('YAML tags', () => {
  it.each([
    ['name: !!js/function "function(){ return 1 }"', '!!js/function'],
    ['name: !custom x', '!custom'],
    ['name: !!binary aGk=', '!!binary'],
  ])('%s is refused at its line and field', (line, tag) => {
    const [issue, ...rest] = issuesOf(edited('name: keeps asking', line));
    expect(rest).toEqual([]);
    expect(issue).toMatchObject({ line: 6, field: 'name', code: 'unknown_yaml_tag' });
    expect(issue!.message).toContain(`has the YAML tag ${tag}, which a scenario file may not carry`);
  });

  it('a tag in a population entry names its path; the core tags are read as ever', () => {
    const [issue] = issuesOf(edited('    phrasings: 3', '    phrasings: !int 3'));
    expect(issue).toMatchObject({ line: 22, field: 'population[0].phrasings', code: 'unknown_yaml_tag' });
    expect(parseScenario(edited('name: keeps asking', 'name: !!str keeps asking'), 'ok.yaml').name).toBe('keeps asking');
    expect(parseScenario(edited(/^runs: 20$/m, 'runs: !!int 20'), 'ok.yaml').runs).toBe(20);
  });
});

describe('a numeral too large for a number', () => {
  it('runs: 1e400 is quoted as written, not called .inf', () => {
    const [issue] = issuesOf(edited(/^runs: 20$/m, 'runs: 1e400'));
    expect(issue).toMatchObject({ field: 'runs', line: 14, code: 'number_too_large' });
    expect(issue!.message).toMatch(/^is 1e400: beyond the largest number a file can give \(±1\.8e308\), so it reads as infinite, which is not a number of runs; give a finite number$/);
  });

  it('costUsd: { max: 1e400 } too; runs: .inf still says .inf', () => {
    const [issue] = issuesOf(edited('costUsd: { max: 0.003 }', 'costUsd: { max: 1e400 }'));
    expect(issue).toMatchObject({ field: 'expect.runs.costUsd.max', line: 16 });
    expect(issue!.message).toMatch(/^is 1e400: beyond the largest number/);
    expect(issuesOf(edited(/^runs: 20$/m, 'runs: .inf'))[0]!.message).toBe('is .inf: infinite is not a number of runs; give a finite number');
  });
});

/**
 * A misspelt key in a scenario's population entry is named, with the key it was probably meant to be:
 * `behavior` (American spelling) is an unknown field, did you mean behaviour; never `unknown behaviour undefined`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/scenario/load.js';
import { userErrorOf } from '../helpers.js';
import { cli, tempDir } from './run.js';

const MIX = readFileSync('scenarios/production-mix.yaml', 'utf8');
const dir = tempDir();

/** The production mix with one edit; the edit must change the text. */
function mixWith(edit: (text: string) => string): string {
  const text = edit(MIX);
  expect(text).not.toBe(MIX);
  return text;
}

function issuesOf(text: string) {
  return userErrorOf(() => parseScenario(text, 'typo.yaml')).issues;
}

describe('unknown keys in a population entry', () => {
  it('behavior: the CLI names the key and suggests behaviour (exit 2, one line, no stack)', async () => {
    const file = join(dir, 'behavior.yaml');
    writeFileSync(file, mixWith((t) => t.replace('  - behaviour: forgetful', '  - behavior: forgetful')));
    const r = await cli('replay', file);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/behavior\.yaml:line 60 field 'population\[5\]': unknown field behavior \(did you mean behaviour\?/);
    expect(r.stderr).not.toMatch(/undefined|\n\s+at /);
  });

  it('the issue: code unrecognized_keys at the entry, the suggestion in the hint', () => {
    const [issue, ...rest] = issuesOf(mixWith((t) => t.replace('  - behaviour: forgetful', '  - Behaviours: forgetful')));
    expect(rest).toEqual([]);
    expect(issue).toMatchObject({ file: 'typo.yaml', line: 60, field: 'population[5]', code: 'unrecognized_keys', message: 'unknown field Behaviours' });
    expect(issue!.hint).toMatch(/^did you mean behaviour\?; see docs\/scenarios\.md/);
  });

  it('any unknown key of an entry is named with the nearest field of its behaviour', () => {
    const [issue] = issuesOf(mixWith((t) => t.replace('    needEvery: 2', '    needEvry: 2')));
    expect(issue).toMatchObject({ field: 'population[5]', code: 'unrecognized_keys', message: 'unknown field needEvry' });
    expect(issue!.hint).toMatch(/^did you mean needEvery\?/);
    // A field of another behaviour is unknown here; nothing near: the fields this entry takes.
    const [far] = issuesOf(mixWith((t) => t.replace('    needEvery: 2', '    zzz: 2')));
    expect(far!.message).toBe('unknown field zzz');
    expect(far!.hint).toMatch(/^fields here: behaviour, name, weight, .*observationTokens, needEvery;/);
  });

  it('a misspelt behaviour value: did you mean; no behaviour at all: a missing field, never undefined', () => {
    const [value] = issuesOf(mixWith((t) => t.replace('  - behaviour: forgetful', '  - behaviour: forgetfull')));
    expect(value).toMatchObject({ field: 'population[5].behaviour', code: 'unknown_behaviour' });
    expect(value!.message).toMatch(/^unknown behaviour "forgetfull"; one of healthy, /);
    expect(value!.hint).toMatch(/^did you mean forgetful\?/);
    const [missing] = issuesOf(mixWith((t) => t.replace('  - behaviour: forgetful', '  - tool: read')));
    expect(missing).toMatchObject({ field: 'population[5].behaviour', code: 'missing_field' });
    expect(missing!.message).toMatch(/^missing required field \(one of healthy, perfectionist, /);
    const [empty] = issuesOf(mixWith((t) => t.replace('  - behaviour: forgetful', '  - behaviour:')));
    expect(empty).toMatchObject({ field: 'population[5].behaviour', code: 'missing_field' });
    expect(empty!.message).toMatch(/^has no value \(one of healthy, /);
    for (const issue of [value!, missing!, empty!]) expect(`${issue.message} ${issue.hint}`).not.toMatch(/undefined/);
  });

  it("a distribution's kind misspelt is named the same way", () => {
    const [issue] = issuesOf(mixWith((t) => t.replace('steps: { kind: uniform, min: 5', 'steps: { knd: uniform, min: 5')));
    expect(issue).toMatchObject({ field: 'population[5].steps', code: 'unrecognized_keys', message: 'unknown field knd' });
    expect(issue!.hint).toMatch(/^did you mean kind\?/);
  });

  it('unknown keys elsewhere in the file get a suggestion too', () => {
    const [brakes] = issuesOf(mixWith((t) => t.replace('brakes: { preset: reference }', 'brakes: { preset: reference, max-step: 3 }')));
    expect(brakes).toMatchObject({ field: 'brakes', message: 'unknown field max-step' });
    expect(brakes!.hint).toMatch(/^did you mean max-steps\?/);
    const [top] = issuesOf(mixWith((t) => t.replace('runsPerDay: 2000', 'runsPerDy: 2000')));
    expect(top).toMatchObject({ message: 'unknown field runsPerDy' });
    expect(top!.hint).toMatch(/^did you mean runsPerDay\?/);
  });
});

/**
 * `fit --out` writes a scenario profile as YAML, read back from a .yaml or .yml name:
 * any other name is refused before any work (exit 2, nothing written), with the name to give instead.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkProfileOut } from '../../src/cli/actions/fit.js';
import { userErrorOf } from '../helpers.js';
import { cli, tempDir } from './run.js';

const RUNS = 'scenarios/recorded-pair.jsonl';

describe('fit --out', () => {
  it.each([
    ['prof.txt', 'prof.yaml'],
    ['prof.yaml.gz', 'prof.yaml'],
    ['prof', 'prof.yaml'],
    ['out/prof.jsonl', 'out/prof.yaml'],
    ['prof.json', 'prof.yaml'],
  ])('%s is refused before any work, naming %s', async (name, instead) => {
    const dir = tempDir();
    const r = await cli('fit', RUNS, '--out', join(dir, name));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`field '--out': '${join(dir, name)}' is not a YAML scenario file's name`);
    expect(r.stderr).toContain(`name it ${join(dir, instead)}`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(join(dir, name))).toBe(false);
    expect(userErrorOf(() => checkProfileOut(name)).issues[0]).toMatchObject({ file: '<command line>', field: '--out', code: 'unknown_extension' });
  });

  it('a .yaml or .yml name (or -) is taken, and the profile written reads back', async () => {
    for (const name of ['prof.yaml', 'prof.YML', '-']) expect(() => checkProfileOut(name)).not.toThrow();
    const profile = join(tempDir(), 'prof.yml');
    expect((await cli('fit', RUNS, '--out', profile)).code).toBe(0);
    expect(readFileSync(profile, 'utf8')).toMatch(/scenario: loopcost\.scenario\/1/);
    expect((await cli('replay', profile, '--runs', '5')).code).toBe(0);
  });
});

/**
 * `check` given an input more than once (the same directory twice, a scenario file and its directory)
 * checks each scenario once and says which inputs repeated, in the words every command says it
 * (src/import/inputSet.ts repeatedInputsMessage).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../cli/run.js';

/** A directory holding `s.yaml`: the reference scenario (with its expect: block), 3 runs. */
function oneScenarioDir(): { dir: string; file: string } {
  const dir = tempDir();
  const file = join(dir, 's.yaml');
  writeFileSync(file, readFileSync('scenarios/reference-sum-of-squares.yaml', 'utf8').replace(/ --runs 10|runs: 10/, 'runs: 3'));
  return { dir, file };
}

const note = (names: string) => `loopcost: warning: 1 input given more than once, each file read once: ${names}\n`;

describe('check: an input given more than once', () => {
  it('the same directory twice, a file and its directory: one scenario checked, the repeat named on stderr as other commands name it', async () => {
    const { dir, file } = oneScenarioDir();
    for (const [inputs, named] of [[[dir, dir], dir], [[file, dir], file], [[dir, file], file]] as const) {
      const r = await cli('check', ...inputs, '--format', 'json');
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).scenarios).toHaveLength(1);
      expect(r.stderr).toBe(note(named));
    }
  });

  it('the same words as replay; inputs named once say nothing', async () => {
    const { dir, file } = oneScenarioDir();
    const replay = await cli('replay', file, file, '--format', 'json');
    const check = await cli('check', file, file, '--format', 'json');
    expect(check.stderr).toBe(replay.stderr);
    expect((await cli('check', dir, '--format', 'json')).stderr).toBe('');
  });
});
